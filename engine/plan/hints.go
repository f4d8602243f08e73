package plan

import (
	"fmt"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// ownerSlip is the hint for a key bound to an owner and a name in one
// value (repo = 'acme/repo-001') when method m also needs an owner key
// the query leaves unbound: the key takes the name alone, the owner is a
// key of its own. It is "" when nothing reads so.
func (n *node) ownerSlip(m *providers.Method, missing []string) string {
	var owner string
	for _, k := range missing {
		if strings.EqualFold(k, "owner") {
			owner = k
		}
	}
	if owner == "" {
		return ""
	}
	for _, p := range m.Params {
		cs := n.lits[strings.ToLower(p.Name)]
		if strings.EqualFold(p.Name, owner) || len(cs) != 1 || len(cs[0].Values) != 1 {
			continue
		}
		v := cs[0].Values[0]
		who, name, ok := strings.Cut(v, "/")
		if !ok || who == "" || name == "" || strings.Contains(name, "/") {
			continue
		}
		what := "the name alone"
		if strings.EqualFold(p.Name, "repo") {
			what = "the repository's name"
		}
		return fmt.Sprintf("%s takes %s; write %s = %s AND %s = %s", p.Name, what, owner, sqlfront.QuoteString(who), p.Name, sqlfront.QuoteString(name))
	}
	return ""
}

// checkPathRefs refuses, before any request, a reference that reads a
// key of a JSON column of the scan's rows as a name part (p.user.login,
// see sqlfront.TableRef.PathRefs), which SQLite would answer with "no
// such column" after the fetch; it says how SQL reads a key. A reference
// whose column is not JSON is left to SQLite.
func checkPathRefs(s *Scan) error {
	for _, ref := range s.Ref.PathRefs {
		c := s.Method.Column(ref.Name)
		if c == nil || c.Type != providers.TypeJSON {
			continue
		}
		col := strings.TrimSuffix(ref.Written, "."+ref.Path)
		path := "$." + ref.Path
		if !bareNameRE.MatchString(ref.Path) {
			path = `$."` + ref.Path + `"`
		}
		return errorf(s.Ref.Name(), "no such column: %s: %s is a JSON column: write %s ->> %s (or json_extract(%s, %s))",
			ref.Written, c.Name, col, sqlfront.QuoteString(ref.Path), col, sqlfront.QuoteString(path))
	}
	return nil
}
