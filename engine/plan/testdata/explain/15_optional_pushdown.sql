SELECT number FROM github.issues.issues WHERE owner = 'a' AND repo = 'b' AND state = 'closed'
