package plan

import (
	"fmt"
	"strings"

	"github.com/enginehq/engine/providers"
)

// maxScopeAlternatives bounds the keyed methods a scope notice names.
const maxScopeAlternatives = 4

// ScopeNotice says, for a scan read with a list method that needs no key
// while other list methods of its table need keys, where its rows come
// from and how to read another scope (bind a key of those methods), or to
// mean this one (name the method: a four-part name is never noticed).
// Leaving out the key (org) reads the credentials' own rows (GET
// /user/repos), not an error: the notice is what tells the two apart. A
// keyless list whose table's other methods each read one item by its key
// (github.licenses.licenses: get) is the one list there is, and has none.
// "" otherwise, and for a scan that sends no request.
func (s *Scan) ScopeNotice() string {
	if s.NoRequest != "" || s.Ref.MethodName() != "" || hasRequired(s.Method) {
		return ""
	}
	alts := scopeAlternatives(s.Resource, s.Method)
	if len(alts) == 0 {
		return ""
	}
	m, name := s.Method, s.Ref.Name()
	scope := fmt.Sprintf("the rows are what GET %s answers for the credentials", m.Path)
	tail := "to narrow them"
	if credentialsUser(m) {
		scope, tail = "the rows are the credentials' user's", "for another owner's"
	}
	return fmt.Sprintf("%s read with %s (GET %s), which needs no key: %s; bind %s %s, or name the method (FROM %s.%s) to mean it",
		name, m.Name, m.Path, scope, alts, tail, name, m.Name)
}

func hasRequired(m *providers.Method) bool {
	for _, p := range m.Params {
		if p.Required {
			return true
		}
	}
	return false
}

// credentialsUser reports whether a method reads the credentials' own
// user: its path is /user or under it, or its name says so
// (list_for_authenticated_user).
func credentialsUser(m *providers.Method) bool {
	return m.Path == "/user" || strings.HasPrefix(m.Path, "/user/") || strings.Contains(m.Name, "authenticated_user")
}

// scopeAlternatives names the keys of the table's other methods that
// answer as m does (a list, or one item), with the method each binds
// ("org (list_for_org) or username (list_for_user)"); "" when there are
// none.
func scopeAlternatives(res *providers.Resource, m *providers.Method) string {
	var alts []string
	for _, x := range res.Methods {
		var keys []string
		for _, p := range x.Params {
			if p.Required {
				keys = append(keys, p.Name)
			}
		}
		if x == m || len(keys) == 0 || (x.Shape == providers.ShapeObject) != (m.Shape == providers.ShapeObject) {
			continue
		}
		alts = append(alts, fmt.Sprintf("%s (%s)", joinAnd(keys), x.Name))
	}
	if len(alts) > maxScopeAlternatives {
		alts = append(alts[:maxScopeAlternatives-1], fmt.Sprintf("the keys of %d more methods (SHOW METHODS IN %s)", len(alts)-maxScopeAlternatives+1, res.FullName()))
	}
	return joinOr(alts)
}

func joinAnd(s []string) string { return joinLast(s, " and ") }

func joinOr(s []string) string { return joinLast(s, " or ") }

// joinLast joins with ", " and last before the final element.
func joinLast(s []string, last string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + last + s[len(s)-1]
}
