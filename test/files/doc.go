// Package files tests, through the built binary, that the engine never
// removes, truncates or rewrites a file it did not create (cache
// directory, config directory and TMPDIR full of sentinel files, every
// command), and that its own temporary files are gone after SIGTERM.
package files
