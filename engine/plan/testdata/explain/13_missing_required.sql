SELECT * FROM github.issues.issues WHERE owner = 'acme'
