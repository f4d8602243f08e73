package main

import (
	"bytes"
	"io"
	"os"
	"strings"

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

// bufferIO is an IO for tests: stdin is the given text, stdout and stderr
// are returned buffers, the environment is env (NAME=VALUE entries) and
// nothing else, and there is no user config directory. Nothing it
// reads or writes is a terminal.
func bufferIO(stdin string, env ...string) (*IO, *bytes.Buffer, *bytes.Buffer) {
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	var out, errb bytes.Buffer
	return &IO{
		In:  strings.NewReader(stdin),
		Out: &out, Err: &errb,
		LookupEnv:     func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		UserConfigDir: func() (string, error) { return "", os.ErrNotExist },
	}, &out, &errb
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
