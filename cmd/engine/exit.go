package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

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
	// err, when set, is the statement-shaped error msg words: -o json
	// prints its object (asJSONError).
	err *engine.Error
}

func (e *exitError) Error() string { return e.msg }

// usageError is a usage mistake (a bad flag value, a missing argument):
// "error: " + the message, exit 1. It is one line: the strings and errors
// it quotes (paths, names, a file's own errors) are shown with their
// control characters escaped (result.Sanitize), so a file named
// "x\n::error file=..." cannot forge a line that a CI log reads as a
// workflow command.
func usageError(format string, args ...any) error {
	for i, a := range args {
		switch v := a.(type) {
		case string:
			args[i] = result.Sanitize(v)
		case error:
			args[i] = result.Sanitize(v.Error())
		}
	}
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
	fmt.Fprintln(w, "error:", boundText(result.Sanitize(err.Error())))
	return exitUsage
}

// boundText bounds what exitStatus prints: an error message
// (engine.MaxMessageBytes, bounded where the engine made it) plus the
// CLI's advice lines.
func boundText(s string) string { return providers.ElideMiddle(s, 2*engine.MaxMessageBytes) }

// jsonOutput reports whether exec was asked for -o json (outputArg).
func jsonOutput(cmd *cobra.Command, args []string) bool { return outputArg(cmd, args) == "json" }

// outputArg is the output format a command was asked for: its parsed -o
// flag, or, when the command line did not parse, what the arguments
// themselves say (-o F, -oF, -o=F, --output F, --output=F); "" when none.
func outputArg(cmd *cobra.Command, args []string) string {
	if f := cmd.Flags().Lookup("output"); f != nil && f.Changed {
		return f.Value.String()
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		for _, p := range []string{"--output=", "-o="} {
			if v, ok := strings.CutPrefix(a, p); ok {
				return v
			}
		}
		switch {
		case a == "-o" || a == "--output":
			if i+1 < len(args) {
				return args[i+1]
			}
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			return a[2:]
		}
	}
	return ""
}

// asJSONError turns an error exec prints in words (a usage mistake, a bad
// setting, an unwritable output) into the error object of
// docs/architecture.md, "Errors", as -o json promises; an error already
// printed as JSON (exitError without a message) stays as it is.
func asJSONError(err error) error {
	code, msg := exitUsage, err.Error()
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg == "" {
			return err
		}
		if ex.err != nil {
			b, _ := json.Marshal(map[string]any{"error": ex.err.Body()})
			return &exitError{code: ex.code, msg: string(b)}
		}
		code, msg = ex.code, ex.msg
	}
	kind := engine.KindUsage
	if code != exitUsage {
		kind = engine.KindInternal
	}
	msg = providers.ElideMiddle(result.SanitizeText(strings.TrimPrefix(msg, "error: ")), engine.MaxMessageBytes)
	b, _ := json.Marshal(map[string]any{"error": engine.ErrorBody{Message: msg, Kind: kind}})
	return &exitError{code: code, msg: string(b)}
}

// stopContext is cancelled by SIGINT (Ctrl-C) or SIGTERM (a cancelled CI
// job, a service manager): exec, check, mcp and pg then end their work
// as cancelled and say so (check: the unfinished controls are errors in
// its report, exit 2), rather than dying without a word.
func stopContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
