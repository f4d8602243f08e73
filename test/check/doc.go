// Package check holds the end-to-end tests of `engine check`: the built
// binary against the in-process fake GitHub server (test/fakegithub), with
// control files written per test. It owns no production code and must not
// be imported.
package check
