// Command engine runs SQL SELECTs over provider REST APIs described by
// OpenAPI (GitHub first): one-shot (exec), interactive (shell), for agents
// (mcp) and as compliance checks (check).
package main

import (
	"errors"
	"fmt"
	"os"
)

func main() {
	err := newRootCmd().Execute()
	if err == nil {
		return
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			fmt.Fprintln(os.Stderr, ex.msg)
		}
		os.Exit(ex.code)
	}
	fmt.Fprintln(os.Stderr, "error:", err)
	os.Exit(1)
}

// exitError ends the process with a code after printing msg (if any).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
