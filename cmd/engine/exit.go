package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
)

// Exit codes of exec and the shell (docs/exec.md): 0 success (zero rows
// too), 1 a usage, SQL or plan error, 2 a provider or network error.
// check has its own (check.ExitPass, ExitFail, ExitError).
const (
	exitOK       = 0
	exitUsage    = 1
	exitProvider = 2
)

// kindExit is the one mapping of error kinds to exit codes: a kind not
// listed (provider, incomplete, timeout, cancelled, internal) is exit 2.
var kindExit = map[engine.Kind]int{
	engine.KindUsage: exitUsage,
	engine.KindSQL:   exitUsage,
	engine.KindPlan:  exitUsage,
}

// exitCode is the exit code of a statement's error.
func exitCode(e *engine.Error) int {
	if code, ok := kindExit[e.Kind]; ok {
		return code
	}
	return exitProvider
}

// exitError ends the process with a code after printing msg (if any).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageError is a usage mistake (a bad flag value, a missing argument):
// "error: " + the message, exit 1.
func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: "error: " + fmt.Sprintf(format, args...)}
}

// exitStatus prints what err says to w and returns the process's exit
// code: an exitError's own code, 1 for any other error (cobra's usage
// errors: an unknown flag or command, a wrong number of arguments).
// Messages quote APIs and files: control characters are shown escaped,
// never sent to the terminal raw.
func exitStatus(w io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			fmt.Fprintln(w, boundText(result.SanitizeText(ex.msg)))
		}
		return ex.code
	}
	fmt.Fprintln(w, "error:", boundText(result.SanitizeText(err.Error())))
	return exitUsage
}

// boundText bounds what exitStatus prints: an error message
// (engine.MaxMessageBytes, bounded where the engine made it) plus the
// CLI's advice lines.
func boundText(s string) string { return providers.ElideMiddle(s, 2*engine.MaxMessageBytes) }
