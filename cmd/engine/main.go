// Command engine runs SQL SELECTs over provider REST APIs described by
// OpenAPI (GitHub first): one-shot (exec), interactive (shell), for agents
// (mcp) and as compliance checks (check).
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/enginehq/engine/engine/result"
)

func main() {
	err := newRootCmd().Execute()
	reportPeakMemory()
	if err == nil {
		return
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			// Messages quote APIs and files: control characters are shown
			// escaped, never sent to the terminal raw.
			fmt.Fprintln(os.Stderr, result.SanitizeText(ex.msg))
		}
		os.Exit(ex.code)
	}
	fmt.Fprintln(os.Stderr, "error:", result.SanitizeText(err.Error()))
	os.Exit(1)
}

// exitError ends the process with a code after printing msg (if any).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
