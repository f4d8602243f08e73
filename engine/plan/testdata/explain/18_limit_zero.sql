SELECT name FROM github.repos.repos WHERE org IN ('acme', 'tiny') LIMIT 0
