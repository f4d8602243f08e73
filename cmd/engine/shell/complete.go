package shell

import (
	"sort"
	"strings"
	"sync"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/catalog"
	"github.com/enginehq/engine/providers"
)

// Catalog is what completion reads: the provider catalog's typed
// discovery. *engine.Engine satisfies it; a provider is decoded on first
// use.
type Catalog interface {
	Catalog() *catalog.Catalog
}

var keywords = strings.Fields(`SELECT FROM WHERE AND OR NOT IN IS NULL LIKE GLOB
BETWEEN EXISTS AS ON JOIN LEFT INNER CROSS USING DISTINCT ALL UNION GROUP BY
HAVING ORDER ASC DESC LIMIT OFFSET CASE WHEN THEN ELSE END CAST COUNT SUM AVG
MIN MAX COALESCE JSON_EXTRACT JSON_EACH JSON_ARRAY_LENGTH LENGTH LOWER UPPER
SUBSTR TRUE FALSE SHOW DESCRIBE EXPLAIN PROVIDERS SERVICES RESOURCES METHODS
EXTENDED CREATE VIEW VIEWS REPLACE DROP`)

// viewLister is the engine's list of views (engine.Engine.Views), which
// completion offers beside the providers.
type viewLister interface {
	Views() ([]engine.View, error)
}

var metaCommands = []string{".help", ".mode", ".timer", ".output", ".read", ".quit", ".exit"}

// completer implements readline.AutoCompleter over keywords, meta
// commands, provider.service.resource names and the columns of the tables
// named in the statement being typed.
type completer struct {
	cat     Catalog
	pending func() string // earlier lines of the statement

	mu      sync.Mutex
	columns map[string][]string // provider.service.resource -> names
}

func newCompleter(cat Catalog, pending func() string) *completer {
	return &completer{cat: cat, pending: pending, columns: map[string][]string{}}
}

// Do returns the suffixes that complete the word before pos, and the
// length of that word.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	head := string(line[:pos])
	start := len(head)
	for start > 0 && isWordByte(head[start-1]) {
		start--
	}
	word := head[start:]
	stmt := c.pending()
	var cands []string
	switch {
	case strings.TrimSpace(stmt) == "" && strings.TrimSpace(head[:start]) == "" && (strings.HasPrefix(word, ".") || word == ""):
		if word == "" {
			return nil, 0
		}
		cands = prefixed(metaCommands, word)
	case strings.Contains(word, "."):
		cands = c.qualified(word)
	case word == "":
		return nil, 0
	default:
		cands = c.plain(word, stmt+" "+string(line))
	}
	out := make([][]rune, 0, len(cands))
	for _, s := range cands {
		out = append(out, []rune(s[len(word):]))
	}
	return out, len([]rune(word))
}

func isWordByte(b byte) bool {
	return b == '_' || b == '.' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// prefixed returns the entries that start with word (case-insensitively),
// spelled with the word's own prefix so that the suffix can be appended.
func prefixed(list []string, word string) []string {
	lw := strings.ToLower(word)
	var out []string
	for _, s := range list {
		if strings.HasPrefix(strings.ToLower(s), lw) && len(s) > len(word) {
			out = append(out, word+s[len(word):])
		}
	}
	return out
}

// qualified completes provider., provider.service. and
// provider.service.resource.
func (c *completer) qualified(word string) []string {
	parts := strings.Split(word, ".")
	prov := strings.ToLower(parts[0])
	cat := c.cat.Catalog()
	if !cat.IsProvider(prov) || len(parts) > 3 {
		return nil
	}
	tables, err := cat.Tables(prov, "")
	if err != nil {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for _, r := range tables {
		var n string
		if len(parts) == 2 {
			n = prov + "." + r.Service + "."
		} else if strings.EqualFold(parts[1], r.Service) {
			n = prov + "." + r.Service + "." + r.Name
		}
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return prefixed(names, word)
}

// plain completes keywords, provider names and the columns (and WHERE
// keys) of the tables the statement names. Keywords keep the case the
// user types in.
func (c *completer) plain(word, stmt string) []string {
	kw := keywords
	if strings.ToLower(word) == word {
		kw = make([]string, len(keywords))
		for i, k := range keywords {
			kw[i] = strings.ToLower(k)
		}
	}
	var cands []string
	for _, n := range c.cat.Catalog().Names() {
		cands = append(cands, n+".")
	}
	if vl, ok := c.cat.(viewLister); ok {
		views, _ := vl.Views()
		for _, v := range views {
			cands = append(cands, v.Name)
		}
	}
	cands = append(cands, c.tableColumns(stmt)...)
	cands = append(cands, kw...)
	out := prefixed(cands, word)
	seen := map[string]bool{}
	uniq := out[:0]
	for _, s := range out {
		if !seen[s] {
			seen[s] = true
			uniq = append(uniq, s)
		}
	}
	return uniq
}

// tableColumns returns the column and parameter names of every
// provider.service.resource the statement mentions.
func (c *completer) tableColumns(stmt string) []string {
	cat := c.cat.Catalog()
	var out []string
	for _, name := range dottedNames(stmt) {
		parts := providers.SplitName(name)
		if len(parts) != 3 || !cat.IsProvider(parts[0]) {
			continue
		}
		out = append(out, c.columnsOf(parts)...)
	}
	return out
}

func (c *completer) columnsOf(parts []string) []string {
	key := strings.Join(parts, ".")
	c.mu.Lock()
	defer c.mu.Unlock()
	if cols, ok := c.columns[key]; ok {
		return cols
	}
	var cols []string
	if r, err := c.cat.Catalog().Table(parts[0], parts[1], parts[2]); err == nil {
		seen := map[string]bool{}
		add := func(n string) {
			if !seen[n] {
				seen[n] = true
				cols = append(cols, n)
			}
		}
		for _, m := range r.Methods {
			for _, col := range m.Columns {
				add(col.Name)
			}
			for _, prm := range m.Params {
				add(prm.Name)
			}
		}
		sort.Strings(cols)
	}
	c.columns[key] = cols
	return cols
}

// dottedNames finds a.b.c words outside quotes.
func dottedNames(text string) []string {
	var out []string
	var quote byte
	start := -1
	flush := func(end int) {
		if start >= 0 && strings.Count(text[start:end], ".") == 2 {
			out = append(out, text[start:end])
		}
		start = -1
	}
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			flush(i)
			quote = ch
		case isWordByte(ch):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(text))
	return out
}
