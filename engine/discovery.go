package engine

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/enginehq/engine/engine/catalog"
	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

func textCols(names ...string) []result.Column {
	cols := make([]result.Column, len(names))
	for i, n := range names {
		cols[i] = result.Column{Name: n, Type: result.TypeText}
	}
	return cols
}

// likeMatcher compiles a SQL LIKE pattern (case-insensitive; % is any
// run of characters, _ is one character, there is no escape character).
//
// Matching takes time linear in the pattern and at most quadratic in the
// (short) name, whatever the pattern: runs of % collapse into one, a
// pattern with more fixed characters than the name is rejected at once,
// and the pieces between % are matched greedily, leftmost first, which is
// exact for LIKE (no backtracking is needed).
func likeMatcher(st *sqlfront.Statement) func(string) bool {
	if !st.HasLike {
		return func(string) bool { return true }
	}
	return compileLike(st.Like)
}

func compileLike(pattern string) func(string) bool {
	// Split on %: pieces[0] must match at the start, the last piece at the
	// end, the others in order anywhere in between.
	var pieces [][]rune
	cur := []rune{}
	fixed := 0
	for _, r := range strings.ToLower(pattern) {
		if r == '%' {
			pieces = append(pieces, cur)
			cur = []rune{}
			continue
		}
		cur = append(cur, r)
		fixed++
	}
	pieces = append(pieces, cur)
	if len(pieces) > 2 { // drop the empty pieces of %% runs
		kept := [][]rune{pieces[0]}
		for _, p := range pieces[1 : len(pieces)-1] {
			if len(p) > 0 {
				kept = append(kept, p)
			}
		}
		pieces = append(kept, pieces[len(pieces)-1])
	}
	return func(name string) bool {
		s := []rune(strings.ToLower(name))
		if fixed > len(s) {
			return false
		}
		if len(pieces) == 1 {
			return len(s) == len(pieces[0]) && pieceAt(s, 0, pieces[0])
		}
		first, last := pieces[0], pieces[len(pieces)-1]
		if !pieceAt(s, 0, first) {
			return false
		}
		pos, end := len(first), len(s)-len(last)
		if end < pos || !pieceAt(s, end, last) {
			return false
		}
		for _, p := range pieces[1 : len(pieces)-1] {
			found := false
			for ; pos+len(p) <= end; pos++ {
				if pieceAt(s, pos, p) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
			pos += len(p)
		}
		return true
	}
}

// pieceAt reports whether p (with _ as any one character) matches s at i.
func pieceAt(s []rune, i int, p []rune) bool {
	if i+len(p) > len(s) {
		return false
	}
	for j, r := range p {
		if r != '_' && s[i+j] != r {
			return false
		}
	}
	return true
}

// discover answers a discovery statement (SHOW, DESCRIBE) from the
// catalog's typed discovery, phrasing its errors as SQL statements to try.
func (e *Engine) discover(ctx context.Context, st *sqlfront.Statement) (*result.Result, error) {
	like := likeMatcher(st)
	match := func(s string) bool { return ctx.Err() == nil && like(s) }
	res := &result.Result{}
	if len(st.Target) == 0 && (st.Kind == sqlfront.KindShowServices || st.Kind == sqlfront.KindShowResources) {
		st.Target = []string{e.cat.DefaultProvider()}
	}
	if st.Kind != sqlfront.KindShowProviders {
		if len(st.Target) < 1 {
			return nil, discoveryErrorf("%s needs a provider name, e.g. %s IN github", st.Kind, st.Kind)
		}
		if _, err := e.cat.Lookup(st.Target[0]); err != nil {
			return nil, sqlNotFound(err)
		}
	}
	switch st.Kind {
	case sqlfront.KindShowProviders:
		res.Columns = []result.Column{{Name: "name", Type: result.TypeText}, {Name: "version", Type: result.TypeText}, {Name: "services", Type: result.TypeInteger}, {Name: "resources", Type: result.TypeInteger}}
		ps, err := e.cat.Providers(context.WithoutCancel(ctx), match)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			res.Rows = append(res.Rows, []any{p.Name, p.Version, int64(p.Services), int64(p.Resources)})
		}
	case sqlfront.KindShowServices:
		ss, err := e.cat.Services(st.Target[0])
		if err != nil {
			return nil, err
		}
		res.Columns = []result.Column{{Name: "name", Type: result.TypeText}, {Name: "resources", Type: result.TypeInteger}}
		for _, s := range ss {
			if match(s.Name) {
				res.Rows = append(res.Rows, []any{s.Name, int64(s.Resources)})
			}
		}
	case sqlfront.KindShowResources:
		service := ""
		if len(st.Target) == 2 {
			service = st.Target[1]
		}
		ts, err := e.cat.Tables(st.Target[0], service)
		if err != nil {
			return nil, sqlNotFound(err)
		}
		res.Columns = []result.Column{{Name: "name", Type: result.TypeText}, {Name: "full_name", Type: result.TypeText}, {Name: "methods", Type: result.TypeInteger}}
		for _, t := range ts {
			if match(t.Name) {
				res.Rows = append(res.Rows, []any{t.Name, t.FullName(), int64(t.Methods)})
			}
		}
	case sqlfront.KindShowMethods, sqlfront.KindDescribe:
		r, err := e.cat.Table(st.Target[0], st.Target[1], st.Target[2])
		if err != nil {
			return nil, sqlNotFound(err)
		}
		if st.Kind == sqlfront.KindShowMethods {
			return methodsResult(r), nil
		}
		return describeResult(r, st.Target), nil
	}
	return res, nil
}

func methodsResult(r *providers.Resource) *result.Result {
	res := &result.Result{Columns: textCols("method", "required_params", "optional_params", "http", "item_key", "summary")}
	for _, m := range r.Methods {
		req, opt := m.ParamNames()
		res.Rows = append(res.Rows, []any{m.Name, strings.Join(req, ", "), strings.Join(opt, ", "), "GET " + m.Path, m.ItemKey, m.Summary})
	}
	return res
}

// describeResult lists the resource itself (kind "table", with its
// one-line summary), its columns (union over its methods, each with the
// first sentence of its description in the provider's document) then its
// parameters, saying which methods require or accept each.
func describeResult(r *providers.Resource, target []string) *result.Result {
	res := &result.Result{Columns: textCols("name", "type", "kind", "methods", "description")}
	res.Rows = append(res.Rows, []any{r.FullName(), "", "table", fmt.Sprint(len(r.Methods)), r.Summary})
	methods := r.Methods
	if len(target) == 4 {
		if m := r.Method(target[3]); m != nil {
			methods = []*providers.Method{m}
		}
	}
	type paramInfo struct {
		typ           string
		api           string
		note          string
		required, opt []string
	}
	params := map[string]*paramInfo{}
	for _, m := range methods {
		for _, p := range m.Params {
			pi, ok := params[p.Name]
			if !ok {
				t := p.Type
				if t == "" {
					t = providers.TypeText
				}
				pi = &paramInfo{typ: t, api: p.API}
				if p.In == providers.InHeader {
					pi.note = "Sent as a request header."
				}
				if p.Preset != "" {
					pi.note = strings.TrimSpace(pi.note + " Set once for the provider (param setting or profile); WHERE may override it.")
				}
				params[p.Name] = pi
			}
			if p.Required {
				pi.required = append(pi.required, m.Name)
			} else {
				pi.opt = append(pi.opt, m.Name)
			}
		}
	}
	for _, c := range catalog.ResourceColumns(methods) {
		ms := strings.Join(c.Methods, ", ")
		if len(c.Methods) == len(methods) {
			ms = "all"
		}
		res.Rows = append(res.Rows, []any{c.Name, c.Type, "column", ms, catalog.APINote(c.API, cmp.Or(r.Docs[c.Name], c.Note))})
	}
	for _, n := range slices.Sorted(maps.Keys(params)) {
		pi := params[n]
		if v := catalog.KeyValues(methods, n); v != "" {
			pi.note = strings.TrimSpace(pi.note + " " + v)
		}
		if len(pi.required) > 0 {
			res.Rows = append(res.Rows, []any{n, pi.typ, "required key", strings.Join(pi.required, ", "), catalog.APINote(pi.api, pi.note)})
		}
		if len(pi.opt) > 0 {
			res.Rows = append(res.Rows, []any{n, pi.typ, "optional key", strings.Join(pi.opt, ", "), catalog.APINote(pi.api, pi.note)})
		}
	}
	return res
}

// explainResult is the plan one line a row, and the SQLite statement,
// the last, one row however many lines it has (a view's expansion, the
// user's own line breaks).
func explainResult(p *plan.Plan) *result.Result {
	res := &result.Result{Columns: textCols("plan")}
	head, sql, found := strings.Cut(strings.TrimRight(p.String(), "\n"), "\nsqlite: ")
	for _, line := range strings.Split(head, "\n") {
		res.Rows = append(res.Rows, []any{line})
	}
	if found {
		res.Rows = append(res.Rows, []any{"sqlite: " + sql})
	}
	return res
}

// discoveryErrorf is an error of a discovery statement (SHOW, DESCRIBE)
// that names no known provider, service or table: kind plan, as the same
// name in a SELECT would be.
func discoveryErrorf(format string, args ...any) *Error { return Errorf(KindPlan, format, args...) }

// sqlNotFound words the catalog's *NotFound (a SELECT's table or a
// discovery statement's target) as the statement that lists what exists,
// after the closest names; other errors are returned as they are.
func sqlNotFound(err error) error {
	nf, dym, ok := catalog.AsNotFound(err)
	if !ok {
		return err
	}
	switch {
	case nf.Short != "" && nf.Service != "":
		return discoveryErrorf("no table %s: tables are named provider.service.resource;%s SHOW RESOURCES IN %s.%s lists its tables", nf.Short, dym, nf.Provider, nf.Service)
	case nf.Short != "":
		return discoveryErrorf("no table %s: tables are named provider.service.resource;%s SHOW SERVICES IN %s lists its services", nf.Short, dym, nf.Provider)
	case nf.Table != "" && nf.ServiceKnown:
		return discoveryErrorf("unknown table %s.%s.%s;%s SHOW RESOURCES IN %s.%s lists its tables", nf.Provider, nf.Service, nf.Table, dym, nf.Provider, nf.Service)
	case nf.Table != "":
		return discoveryErrorf("unknown table %s.%s.%s: provider %s has no service %q;%s SHOW SERVICES IN %s lists them", nf.Provider, nf.Service, nf.Table, nf.Provider, nf.Service, dym, nf.Provider)
	case nf.Service != "":
		return discoveryErrorf("provider %s has no service %q;%s SHOW SERVICES IN %s lists them", nf.Provider, nf.Service, dym, nf.Provider)
	}
	return discoveryErrorf("unknown provider %q;%s SHOW PROVIDERS lists them", nf.Provider, dym)
}
