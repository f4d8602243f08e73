package shell

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// helpText is .help's text; the modes come from result's format registry.
var helpText = `Statements end with ";" and may span lines. Tables are
provider.service.resource; discover them with SHOW PROVIDERS, SHOW SERVICES IN
github, SHOW RESOURCES IN github.repos, DESCRIBE github.repos.repos, and check a
plan with EXPLAIN SELECT ...

Meta commands (at the start of a line):
  .help              this text (also \?)
  .mode [MODE]       output mode: ` + result.FormatNames(", ") + ` (no MODE: show it)
  \x                 toggle expanded display (one "column = value" per line)
  .timer on|off      elapsed time in the footer
  .output [FILE]     write results to FILE; no FILE: back to stdout (also \o)
  .read FILE.sql     run the statements in FILE, stopping at the first error (also \i)
  .quit, .exit       leave (also \q, exit, quit, or Ctrl-D)

Keys: Tab completes keywords, table names and the columns of the tables in the
statement; Up/Down and Ctrl-R search history; Ctrl-C clears the line or
cancels the running query.`

// bareWord turns the words exit, quit and help, alone on a line at the
// start of a statement (a trailing ';' and any case allowed), into their
// meta commands (.quit, .help), in interactive sessions and scripts alike;
// any other line is returned as it is.
func bareWord(line string) string {
	switch strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ";"))) {
	case "exit", "quit":
		return ".quit"
	case "help":
		return ".help"
	}
	return line
}

// bom is the UTF-8 byte-order mark some editors write at the start of a
// file ("UTF-8 with BOM"); a script or .read file may begin with it.
const bom = "\ufeff"

// isMeta reports whether a line (at the start of a statement) is a meta
// command.
func isMeta(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, ".") || strings.HasPrefix(t, `\`)
}

// meta runs one meta command. It returns errQuit to end the session and
// errFailed when the command failed (already reported).
func (s *Shell) meta(line string) error {
	t := strings.TrimSpace(line)
	cmd, arg, _ := strings.Cut(t, " ")
	arg = unquote(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(arg), ";")))
	cmd = strings.TrimSuffix(cmd, ";")
	fail := func(format string, args ...any) error {
		fmt.Fprintf(s.opts.Stderr, "error: "+format+"\n", args...)
		return errFailed
	}
	switch cmd {
	case ".help", `\?`, `\h`, ".h":
		fmt.Fprintln(s.console, helpText)
	case ".quit", ".exit", ".q", `\q`:
		return errQuit
	case ".mode":
		if arg == "" {
			fmt.Fprintf(s.console, "mode: %s\n", s.mode)
			return nil
		}
		f, err := result.LookupFormat(strings.ToLower(arg))
		if err != nil {
			return fail(".mode: %v", err)
		}
		s.mode = f.Name
		return nil
	case `\x`:
		switch strings.ToLower(arg) {
		case "":
			s.expanded = !s.expanded
		case "on":
			s.expanded = true
		case "off":
			s.expanded = false
		default:
			return fail(`\x takes on, off or nothing (toggle)`)
		}
		fmt.Fprintf(s.console, "Expanded display is %s.\n", onOff(s.expanded))
	case ".timer":
		switch strings.ToLower(arg) {
		case "on":
			s.timer = true
		case "off":
			s.timer = false
		case "":
			fmt.Fprintf(s.console, "timer: %s\n", onOff(s.timer))
		default:
			return fail(".timer takes on or off")
		}
	case ".output", `\o`:
		return s.setOutput(arg)
	case ".read", `\i`:
		if arg == "" {
			return fail(".read needs a file: .read queries.sql")
		}
		return s.read(arg)
	default:
		return fail("unknown command %s; .help lists the commands", cmd)
	}
	return nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// setOutput sends results to a file (created or truncated), or back to
// stdout when name is empty.
func (s *Shell) setOutput(name string) error {
	if name == "" || name == "stdout" {
		s.closeOutput()
		return nil
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(s.opts.Stderr, "error: .output:", err)
		return errFailed
	}
	s.closeOutput()
	s.outFile, s.out = f, f
	return nil
}

func (s *Shell) closeOutput() {
	if s.outFile != nil {
		if err := s.outFile.Close(); err != nil {
			fmt.Fprintln(s.opts.Stderr, "error: .output:", err)
		}
		s.outFile = nil
	}
	s.out = s.opts.Stdout
}

// read runs a file of statements and meta commands.
func (s *Shell) read(name string) error {
	if s.depth >= 8 {
		fmt.Fprintln(s.opts.Stderr, "error: .read nested too deeply (a file reads itself?)")
		return errFailed
	}
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintln(s.opts.Stderr, "error: .read:", err)
		return errFailed
	}
	defer f.Close()
	s.depth++
	defer func() { s.depth-- }()
	return s.runReader(f, name)
}

// runReader runs a script: statements and meta commands in order, up to
// the end or the first failure. An unterminated last statement runs too.
// A byte-order mark that begins the script is skipped; one elsewhere is
// text, which the engine refuses by name.
func (s *Shell) runReader(r io.Reader, name string) error {
	var sp splitter
	br := bufio.NewReader(r)
	lineNo, stmtLine := 0, 1
	n := 0 // statements begun
	stopped := func(err error) error {
		if !errors.Is(err, errQuit) {
			what := "a meta command failed"
			if n > 0 {
				what = fmt.Sprintf("statement %d failed", n)
			}
			fmt.Fprintf(s.opts.Stderr, "stopped at %s line %d; %s and later statements were not run\n", name, stmtLine, what)
		}
		return err
	}
	for {
		line, rerr := br.ReadString('\n')
		if line == "" && rerr != nil {
			if rerr != io.EOF {
				fmt.Fprintf(s.opts.Stderr, "error: reading %s: %v\n", name, rerr)
				return errFailed
			}
			break
		}
		lineNo++
		line = strings.TrimRight(line, "\r\n")
		if lineNo == 1 {
			line = strings.TrimPrefix(line, bom) // the file's encoding mark, not text
		}
		if !sp.Pending() {
			stmtLine = lineNo
			if line = bareWord(line); isMeta(line) {
				if err := s.meta(line); err != nil {
					n = 0
					return stopped(err)
				}
				continue
			}
		}
		for _, st := range sp.Feed(line) {
			n++
			if err := s.execute(st); err != nil {
				return stopped(err)
			}
			stmtLine = lineNo
		}
	}
	if rest := sp.Rest(); rest != "" {
		n++
		if err := s.execute(rest); err != nil {
			return stopped(err)
		}
	}
	return nil
}
