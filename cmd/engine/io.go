package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IO is everything a command reads from and writes to outside its
// arguments: standard streams, the environment and the user's config
// directory. main uses the process's (osIO); tests give buffers and a map
// (bufferIO), and run whole commands in-process.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// LookupEnv reads the environment (os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// UserConfigDir is where the default config file lives
	// (os.UserConfigDir).
	UserConfigDir func() (string, error)
}

// osIO is the process's IO.
func osIO() *IO {
	return &IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, LookupEnv: os.LookupEnv, UserConfigDir: os.UserConfigDir}
}

// Getenv is LookupEnv without the "set" bit ("" when unset).
func (x *IO) Getenv(name string) string {
	v, _ := x.LookupEnv(name)
	return v
}

// fd is the file descriptor behind a stream, if it is a file.
func fd(s any) (int, bool) {
	f, ok := s.(interface{ Fd() uintptr })
	if !ok {
		return 0, false
	}
	return int(f.Fd()), true
}

// IsTerminal reports whether a stream of x (In, Out or Err) is a terminal.
func (x *IO) IsTerminal(s any) bool {
	n, ok := fd(s)
	return ok && term.IsTerminal(n)
}

// Width is the width of the terminal w writes to, or 0 when w is not a
// terminal.
func (x *IO) Width(w io.Writer) int {
	n, ok := fd(w)
	if !ok {
		return 0
	}
	cols, _, err := term.GetSize(n)
	if err != nil {
		return 0
	}
	return cols
}
