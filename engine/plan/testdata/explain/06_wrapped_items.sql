SELECT id, status FROM github.actions.workflow_runs WHERE owner = 'a' AND repo = 'b'
