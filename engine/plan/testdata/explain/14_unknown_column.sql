SELECT nmae FROM github.repos.repos WHERE org = 'acme'
