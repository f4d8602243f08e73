SELECT r.name, p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme' AND r.archived = 0
