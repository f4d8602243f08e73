package client

import (
	"strings"
)

// ParseLink parses an RFC 8288 Link header value into a map from relation
// type (lower-cased) to target URL. It is tolerant: it accepts several links
// separated by commas, several relation types in one rel ("next last"),
// quoted or bare parameter values, extra whitespace and commas or
// semicolons inside <...> targets. Malformed parts are skipped; the first
// target for a relation wins. It never panics.
func ParseLink(header string) map[string]string {
	out := map[string]string{}
	s := header
	i := 0
	for i < len(s) {
		// Find the next target.
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			break
		}
		i += lt + 1
		gt := strings.IndexByte(s[i:], '>')
		if gt < 0 {
			break
		}
		target := strings.TrimSpace(s[i : i+gt])
		i += gt + 1
		// Parameters up to the next top-level comma.
		var rels []string
		for i < len(s) {
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i >= len(s) {
				break
			}
			if s[i] == ',' {
				i++
				break
			}
			if s[i] == '<' {
				break // a new link without a separating comma
			}
			if s[i] != ';' {
				i++ // garbage between parameters
				continue
			}
			i++
			name, value, next := parseLinkParam(s, i)
			i = next
			if strings.EqualFold(name, "rel") && rels == nil {
				rels = strings.Fields(strings.ToLower(value))
				if rels == nil {
					rels = []string{}
				}
			}
		}
		if target == "" {
			continue
		}
		for _, r := range rels {
			if _, ok := out[r]; !ok {
				out[r] = target
			}
		}
	}
	return out
}

// parseLinkParam parses `name [= value]` starting at i and returns the
// index just after it (at ';', ',' or the end).
func parseLinkParam(s string, i int) (name, value string, next int) {
	start := i
	for i < len(s) && s[i] != '=' && s[i] != ';' && s[i] != ',' {
		i++
	}
	name = strings.TrimSpace(s[start:i])
	if i >= len(s) || s[i] != '=' {
		return name, "", i
	}
	i++
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '"' {
		i++
		var b strings.Builder
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' && i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
			i++
		}
		if i < len(s) {
			i++ // closing quote
		}
		return name, b.String(), i
	}
	start = i // bare token: ends at whitespace too
	for i < len(s) && s[i] != ';' && s[i] != ',' && s[i] != ' ' && s[i] != '\t' && s[i] != '<' {
		i++
	}
	return name, strings.TrimSpace(s[start:i]), i
}
