package result

import (
	"io"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// WriteJSONString writes s to w as a JSON string, byte for byte as
// encoding/json writes it with HTML escaping off: '"' and '\\' escaped,
// control characters as \n, \r, \t, \b, \f or \u00XX, U+2028 and U+2029 as
// \u2028 and \u2029, invalid UTF-8 as U+FFFD, everything else as it is.
// It returns the bytes written. The MCP surface's spooled pages and the
// SQL function yaml_to_json write their strings with it.
func WriteJSONString(w io.StringWriter, s string) int {
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
			case '\b':
				put(`\b`)
			case '\f':
				put(`\f`)
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
