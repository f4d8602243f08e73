SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo IN (SELECT name FROM github.repos.repos WHERE org = 'acme')
