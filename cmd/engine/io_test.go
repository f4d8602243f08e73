package main

import (
	"bytes"
	"os"
	"strings"
)

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
