SELECT path FROM github.search.code WHERE q = 'org:acme README'
