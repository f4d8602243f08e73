package mcpsurface

import (
	"bufio"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// writeRow writes row as a JSON array (the spool's line format, read back
// by decodeRow) straight into w, and returns the bytes written. Strings
// are escaped in place, run by run, so a large value is never copied into
// an encoding of its own (json.Marshal would build the whole encoding,
// growing it by doubling, then copy it).
func writeRow(w *bufio.Writer, row []any) (int, error) {
	n := 1
	w.WriteByte('[') //nolint:errcheck // the first error sticks in w
	for i, v := range row {
		if i > 0 {
			w.WriteByte(',') //nolint:errcheck
			n++
		}
		switch x := v.(type) {
		case nil:
			n += writeRaw(w, "null")
		case bool:
			n += writeRaw(w, strconv.FormatBool(x))
		case int64:
			n += writeRaw(w, strconv.FormatInt(x, 10))
		case string:
			n += writeJSONString(w, x)
		default:
			b, err := json.Marshal(x) // floats (json's shortest exact form)
			if err != nil {
				return n, err
			}
			m, _ := w.Write(b)
			n += m
		}
	}
	w.WriteByte(']') //nolint:errcheck
	return n + 1, nil
}

func writeRaw(w *bufio.Writer, s string) int {
	m, _ := w.WriteString(s)
	return m
}

const hexDigits = "0123456789abcdef"

// writeJSONString writes s as a JSON string: '"' and '\\' escaped,
// control characters as \n, \r, \t or \u00XX, U+2028 and U+2029 as
// \u2028 and \u2029, invalid UTF-8 as U+FFFD (as encoding/json does).
// It returns the bytes written.
func writeJSONString(w *bufio.Writer, s string) int {
	n := 0
	put := func(t string) { m, _ := w.WriteString(t); n += m }
	put(`"`)
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			put(s[start:i])
			switch c {
			case '"':
				put(`\"`)
			case '\\':
				put(`\\`)
			case '\n':
				put(`\n`)
			case '\r':
				put(`\r`)
			case '\t':
				put(`\t`)
			default:
				put(`\u00` + string(hexDigits[c>>4]) + string(hexDigits[c&0xf]))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			put(s[start:i])
			put(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			put(s[start:i])
			put(`\u202` + string(hexDigits[r&0xf]))
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	put(s[start:])
	put(`"`)
	return n
}
