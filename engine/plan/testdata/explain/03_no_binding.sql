SELECT name FROM github.repos.repos
