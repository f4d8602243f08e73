SELECT count(*) FROM github.repos.repos WHERE org = 'acme' LIMIT 1
