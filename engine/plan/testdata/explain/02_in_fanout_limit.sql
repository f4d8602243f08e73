SELECT name FROM github.repos.repos WHERE org IN ('a','b') LIMIT 5
