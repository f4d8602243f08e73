package shell

import "strings"

// splitter cuts input lines into statements at ';' outside quotes and
// comments. Quoted text follows the rules the engine's front end reads
// statements by, SQLite's: '...', "..." and `...`, doubled quotes, and a
// backslash as itself, never an escape. Comments (-- to the end of the line,
// /* ... */) are dropped from the statement text.
//
// '#' is no comment in the engine's SQL (the engine refuses it: "'#'
// comments are not supported; use -- or /* */"), so the splitter keeps it
// and what follows it on the line in the statement for the engine to
// refuse, and a ';' there still ends the statement: a quote after '#'
// opens nothing, so "SELECT 1 # it's;" runs (and fails) at once instead
// of waiting for a closing quote.
type splitter struct {
	buf   strings.Builder // text of the statement being read
	quote byte            // the open quote, or 0
	block bool            // inside /* ... */
}

// Feed adds one line (without its newline) and returns the statements
// that it completes, trimmed and without their ';'.
func (s *splitter) Feed(line string) []string {
	var out []string
	hash := false // after a '#' on this line
	for i := 0; i < len(line); i++ {
		c := line[i]
		next := byte(0)
		if i+1 < len(line) {
			next = line[i+1]
		}
		switch {
		case s.quote != 0:
			s.buf.WriteByte(c)
			if c == s.quote {
				s.quote = 0 // a doubled quote closes and opens again
			}
		case s.block:
			if c == '*' && next == '/' {
				s.block = false
				s.buf.WriteByte(' ')
				i++
			}
		case hash && c != ';':
			s.buf.WriteByte(c)
		case c == '-' && next == '-':
			i = len(line)
		case c == '#':
			hash = true
			s.buf.WriteByte(c)
		case c == '/' && next == '*':
			s.block = true
			i++
		case c == '\'' || c == '"' || c == '`':
			s.quote = c
			s.buf.WriteByte(c)
		case c == ';':
			hash = false
			if st := strings.TrimSpace(s.buf.String()); st != "" {
				out = append(out, st)
			}
			s.buf.Reset()
		default:
			s.buf.WriteByte(c)
		}
	}
	if s.buf.Len() > 0 || s.quote != 0 {
		s.buf.WriteByte('\n')
	}
	return out
}

// Pending reports whether a statement has begun and not yet ended.
func (s *splitter) Pending() bool {
	return s.quote != 0 || s.block || strings.TrimSpace(s.buf.String()) != ""
}

// Rest returns the unterminated statement (for end of input) and resets.
func (s *splitter) Rest() string {
	st := strings.TrimSpace(s.buf.String())
	s.Reset()
	return st
}

// Text is the statement read so far (for completion).
func (s *splitter) Text() string { return s.buf.String() }

// Reset drops the statement being read.
func (s *splitter) Reset() {
	s.buf.Reset()
	s.quote = 0
	s.block = false
}
