// Package shell is `engine shell`: the interactive SQL loop (line editing,
// persistent history, multi-line statements ended by ';', Ctrl-C
// cancellation), its meta commands (.help, .mode, .timer, .output, .read,
// .quit, \x), tab completion from the engine's catalog, the rendering
// choices (table fitted to the terminal, modes, footer, progress) and the
// plain-words explanation of errors. Without a terminal on stdin it runs a
// script: statements in order, stopping at the first error.
//
// It owns only the user-facing loop. It runs statements through
// *engine.Engine and renders through engine/result; it must not import
// mcpsurface, must not reach into the planner or executor, and never
// decodes a provider before the user needs it (completion loads lazily), so
// that start-up stays fast.
package shell
