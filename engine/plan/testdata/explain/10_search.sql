SELECT full_name FROM github.search.repos WHERE q = 'language:go stars:>100' LIMIT 10
