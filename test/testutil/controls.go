package testutil

// GhostControl is the control the fail-closed tests run (test/check,
// test/secrets): no repository of acme is named "ghost", so it passes on
// a complete listing of acme's repositories, and only on one; any page
// lost to a fault must make it an error, never a pass.
const GhostControl = `controls:
  - id: no-ghost
    title: No repository named ghost
    sql: SELECT name FROM github.repos.repos WHERE org = 'acme' AND name = 'ghost'
`
