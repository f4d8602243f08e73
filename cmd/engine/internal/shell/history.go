package shell

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// HistoryPath is $XDG_STATE_HOME/engine/history, or
// ~/.local/state/engine/history when XDG_STATE_HOME is unset or relative
// (the XDG base directory rule).
func HistoryPath(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "engine", "history"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", errors.New("no home directory for the history file (set HOME or XDG_STATE_HOME)")
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", "engine", "history"), nil
}

// prepareHistory creates the history file's directory (0700) and the file
// itself (0600) before readline opens it, so that statements (which may
// name private organisations) are readable by the user alone.
func prepareHistory(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// readline rewrites an over-long file through a temporary file created
	// with the umask's mode; keep ours.
	return os.Chmod(path, 0o600)
}

// historyEntry turns the lines of one input into a single history line
// (the history file holds one entry per line).
func historyEntry(lines []string) string {
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}
