SELECT count(*) FROM github.search.repos WHERE q = 'org:acme created:>=2023-01-01'
