// Package check owns `engine check`: control files (YAML with line
// numbers, variables and file-level defaults), their validation before
// anything runs (structure, expectations, and SQL that must parse and plan
// without a single request), the concurrent evaluation of controls against
// one shared engine, and the reports (text, JSON, JUnit XML, GitHub Actions
// workflow commands and job summary).
//
// The rule it exists for: a control ends in exactly one of pass, fail or
// error, and an error (provider 403, rate limit, timeout, anything) is
// never a pass. Exit codes: 0 all pass, 1 any fail and no error, 2 any
// error or any problem that stopped evaluation.
//
// A control file is repository content, not the invoker's configuration:
// its defaults may not name a credentials variable (CredentialProblems),
// and the command withholds credentials from a base URL the file chose,
// unless --allow-file-credentials. Reports scrub secrets from messages and
// rows, and text and github reports show control characters escaped.
//
// It must not import mcpsurface, and it does not touch engine, providers or
// the CLI's global flags: the command (cmd/engine/check.go) builds the
// engine and hands it in.
package check
