SELECT * FROM github.collaborators.check_collaborator WHERE owner = 'a' AND repo = 'b' AND username = 'c'
