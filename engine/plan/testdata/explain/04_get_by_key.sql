SELECT name FROM github.repos.repos WHERE owner = 'acme' AND repo = 'x'
