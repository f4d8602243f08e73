SELECT count(*) FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme'
