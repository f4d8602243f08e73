// Package shell holds the end-to-end tests of `engine shell`: the real
// binary driven through a pseudo-terminal (github.com/creack/pty) or fed a
// script on stdin, against the in-process fake GitHub server over
// loopback. It owns no production code and must not import the engine's
// internals; it sees the shell only as a user does.
package shell
