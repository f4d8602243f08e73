SELECT name FROM github.repos.repos.list_public
