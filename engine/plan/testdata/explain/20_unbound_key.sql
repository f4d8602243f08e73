SELECT name FROM github.repos.repos WHERE org LIKE 'ac%'
