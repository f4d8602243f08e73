package testutil

import "strings"

// UnescapeTSV reverses the engine's TSV escaping (result.EscapeTSV:
// backslash, tab, newline, carriage return): the oracle of the round-trip
// tests; the engine never reads TSV back.
func UnescapeTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '\\':
				b.WriteByte('\\')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
				continue
			}
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
