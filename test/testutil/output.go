package testutil

import (
	"encoding/json"
	"strings"
	"testing"
)

// StdoutJSON decodes the run's stdout (a -o json answer, a report) into
// v, or fails the test showing the exit code and what it printed.
func StdoutJSON(t testing.TB, r Result, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Stdout), v); err != nil {
		t.Fatalf("exit %d: stdout is not the JSON expected (%T): %v\nstdout:\n%.4000s\nstderr:\n%.4000s", r.Code, v, err, r.Stdout, r.Stderr)
	}
}

// JSONRows decodes `exec -o json`'s stdout, an array of row objects, or
// fails the test.
func JSONRows(t testing.TB, r Result) []map[string]any {
	t.Helper()
	var rows []map[string]any
	StdoutJSON(t, r, &rows)
	return rows
}

// ErrorObject is the error object of `exec -o json` ({"error": {...}},
// docs/architecture.md's error shape), decoded with the test's own type.
type ErrorObject struct {
	Message    string `json:"message"`
	Kind       string `json:"kind"`
	HTTPStatus int    `json:"http_status"`
	Provider   string `json:"provider"`
	Retryable  bool   `json:"retryable"`
}

// JSONError finds the line of the run's output (stdout, then stderr)
// that is `exec -o json`'s error object and decodes it, or fails the
// test: there must be one.
func JSONError(t testing.TB, r Result) ErrorObject {
	t.Helper()
	var eb struct {
		Error *ErrorObject `json:"error"`
	}
	for _, l := range strings.Split(r.Stdout+"\n"+r.Stderr, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), `{"error"`) && json.Unmarshal([]byte(l), &eb) == nil && eb.Error != nil {
			return *eb.Error
		}
	}
	t.Fatalf("no JSON error object (exit %d)\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	return ErrorObject{}
}

// WantRun fails the test unless the run exited code with stdout holding
// inStdout and stderr holding inStderr ("": anything); what names the
// step in the message.
func WantRun(t testing.TB, what string, r Result, code int, inStdout, inStderr string) {
	t.Helper()
	if r.Code != code || !strings.Contains(r.Stdout, inStdout) || !strings.Contains(r.Stderr, inStderr) {
		t.Fatalf("%s: exit %d, want %d with %q in stdout and %q in stderr\nstdout:\n%.4000s\nstderr:\n%.4000s", what, r.Code, code, inStdout, inStderr, r.Stdout, r.Stderr)
	}
}
