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

// historyLimit is the number of entries kept (readline's HistoryLimit).
const historyLimit = 1000

// prepareHistory creates the history file's directory (0700) and the file
// itself (0600) before readline opens it, so that statements (which may
// name private organisations) are readable by the user alone.
//
// readline, when it opens a file of more than HistoryLimit lines, rewrites
// it through "<file>.tmp" created with mode 0666 minus the umask (0644, or
// 0666 under umask 000) and renamed over the file. So the file is trimmed
// here first, to its last historyLimit entries, through a 0600 temporary
// file: readline then never rewrites it, and the mode stays 0600.
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
	if err := os.Chmod(path, 0o600); err != nil {
		return err
	}
	return trimHistory(path, historyLimit)
}

// trimHistory keeps the last limit non-empty lines of the file, replacing
// it atomically with a 0600 file when it had more.
func trimHistory(path string, limit int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	// readline counts newline-terminated lines, empty ones included.
	if strings.Count(string(data), "\n") <= limit {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > limit {
		lines = lines[len(lines)-limit:]
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".history-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; removes it on failure
	if _, err := tmp.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
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
