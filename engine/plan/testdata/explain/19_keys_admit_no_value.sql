SELECT count(*) FROM github.repos.repos WHERE org = 'acme' AND org IN ('tiny', 'beta')
