package engine

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"

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

func (e *Engine) discover(ctx context.Context, st *sqlfront.Statement) (*result.Result, error) {
	like := likeMatcher(st)
	match := func(s string) bool { return ctx.Err() == nil && like(s) }
	res := &result.Result{}
	target := func(n int) (*providers.Provider, error) {
		if len(st.Target) < n {
			return nil, discoveryErrorf("%s needs a provider name, e.g. %s IN github", st.Kind, st.Kind)
		}
		if !e.cat.IsProvider(st.Target[0]) {
			return nil, discoveryErrorf("unknown provider %q; SHOW PROVIDERS lists them", st.Target[0])
		}
		return e.cat.provider(st.Target[0])
	}
	if len(st.Target) == 0 && (st.Kind == sqlfront.KindShowServices || st.Kind == sqlfront.KindShowResources) {
		st.Target = []string{"github"} // the default provider
	}
	switch st.Kind {
	case sqlfront.KindShowProviders:
		res.Columns = []result.Column{{Name: "name", Type: result.TypeText}, {Name: "version", Type: result.TypeText}, {Name: "services", Type: result.TypeInteger}, {Name: "resources", Type: result.TypeInteger}}
		for _, n := range e.cat.names() {
			if !match(n) {
				continue
			}
			p, err := e.cat.provider(n)
			if err != nil {
				return nil, err
			}
			res.Rows = append(res.Rows, []any{n, p.Version, int64(len(p.Services())), int64(len(p.Resources))})
		}
	case sqlfront.KindShowServices:
		p, err := target(1)
		if err != nil {
			return nil, err
		}
		res.Columns = []result.Column{{Name: "name", Type: result.TypeText}, {Name: "resources", Type: result.TypeInteger}}
		count := p.ServiceResources()
		for _, s := range p.Services() {
			if match(s) {
				res.Rows = append(res.Rows, []any{s, int64(count[s])})
			}
		}
	case sqlfront.KindShowResources:
		p, err := target(1)
		if err != nil {
			return nil, err
		}
		res.Columns = []result.Column{{Name: "name", Type: result.TypeText}, {Name: "full_name", Type: result.TypeText}, {Name: "methods", Type: result.TypeInteger}}
		found := len(st.Target) == 1
		for _, r := range p.Resources {
			if len(st.Target) == 2 && r.Service != st.Target[1] {
				continue
			}
			found = true
			if match(r.Name) {
				res.Rows = append(res.Rows, []any{r.Name, p.Provider + "." + r.Service + "." + r.Name, int64(r.Methods)})
			}
		}
		if !found {
			return nil, discoveryErrorf("provider %s has no service %q; SHOW SERVICES IN %s lists them", p.Provider, st.Target[1], p.Provider)
		}
	case sqlfront.KindShowMethods, sqlfront.KindDescribe:
		if _, err := target(1); err != nil {
			return nil, err
		}
		r, err := e.cat.Resource(st.Target[0], st.Target[1], st.Target[2])
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, discoveryErrorf("unknown table %s; SHOW RESOURCES IN %s.%s lists them", strings.Join(st.Target[:3], "."), st.Target[0], st.Target[1])
		}
		if st.Kind == sqlfront.KindShowMethods {
			return methodsResult(r), nil
		}
		return describeResult(r, st.Target), nil
	}
	return res, nil
}

func methodsResult(r *providers.Resource) *result.Result {
	res := &result.Result{Columns: textCols("method", "required_params", "optional_params", "http", "item_key")}
	for _, m := range r.Methods {
		req, opt := m.ParamNames()
		res.Rows = append(res.Rows, []any{m.Name, strings.Join(req, ", "), strings.Join(opt, ", "), "GET " + m.Path, m.ItemKey})
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
	var paramNames []string
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
				params[p.Name] = pi
				paramNames = append(paramNames, p.Name)
			}
			if p.Required {
				pi.required = append(pi.required, m.Name)
			} else {
				pi.opt = append(pi.opt, m.Name)
			}
		}
	}
	for _, c := range ResourceColumns(methods) {
		ms := strings.Join(c.Methods, ", ")
		if len(c.Methods) == len(methods) {
			ms = "all"
		}
		res.Rows = append(res.Rows, []any{c.Name, c.Type, "column", ms, APINote(c.API, cmp.Or(r.Docs[c.Name], c.Note))})
	}
	sort.Strings(paramNames)
	for _, n := range paramNames {
		pi := params[n]
		if len(pi.required) > 0 {
			res.Rows = append(res.Rows, []any{n, pi.typ, "required key", strings.Join(pi.required, ", "), APINote(pi.api, pi.note)})
		}
		if len(pi.opt) > 0 {
			res.Rows = append(res.Rows, []any{n, pi.typ, "optional key", strings.Join(pi.opt, ", "), APINote(pi.api, pi.note)})
		}
	}
	return res
}

// APINote prefixes a description with the API's spelling of a name when
// its SQL name differs (createdat is the API's createdAt).
func APINote(api, doc string) string {
	if api == "" {
		return doc
	}
	note := "API name: " + api + "."
	if doc != "" {
		note += " " + doc
	}
	return note
}

func explainResult(p *plan.Plan) *result.Result {
	res := &result.Result{Columns: textCols("plan")}
	for _, line := range strings.Split(strings.TrimRight(p.String(), "\n"), "\n") {
		res.Rows = append(res.Rows, []any{line})
	}
	return res
}

// discoveryErrorf is an error of a discovery statement (SHOW, DESCRIBE)
// that names no known provider, service or table: kind plan, as the same
// name in a SELECT would be.
func discoveryErrorf(format string, args ...any) *Error { return Errorf(KindPlan, format, args...) }

// ColumnInfo is one column of a resource: its type (as the first method
// that returns it declares it) and the methods that return it.
type ColumnInfo struct {
	Name, Type string
	// API is the API's spelling of the name when it differs (createdAt
	// read as createdAt_2 beside a CreatedAt), else "".
	API     string
	Methods []string
	// Note describes a column the engine adds (value, ok); "" for the
	// provider's columns, whose descriptions are in Resource.Docs.
	Note string
}

// ResourceColumns is the union of the columns of methods, sorted by name:
// what DESCRIBE and the MCP describe_resource tool list. It includes the
// columns the engine adds: value (whole items that are not objects with
// properties) and ok (a body-less answer read without bound keys).
func ResourceColumns(methods []*providers.Method) []ColumnInfo {
	at := map[string]int{}
	var out []ColumnInfo
	add := func(m *providers.Method, c providers.Column, note string) {
		i, ok := at[c.Name]
		if !ok {
			i = len(out)
			at[c.Name] = i
			out = append(out, ColumnInfo{Name: c.Name, Type: c.Type, API: c.API, Note: note})
		}
		out[i].Methods = append(out[i].Methods, m.Name)
	}
	for _, m := range methods {
		for _, c := range m.Columns {
			add(m, c, "")
		}
		if m.ValueColumn() {
			add(m, providers.Column{Name: providers.ValueName, Type: m.ValueColumnType()}, valueNote)
		}
		if m.Shape == providers.ShapeNone && len(m.Required()) == 0 {
			add(m, providers.Column{Name: plan.AnsweredName, Type: providers.TypeBoolean}, answeredNote)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Descriptions of the columns the engine adds.
const (
	valueNote    = "Each item whole (the items are not objects with properties)."
	answeredNote = "True: the provider answered 2xx (the method has no body); present when no key is bound."
)
