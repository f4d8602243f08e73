package engine

import (
	"fmt"
	"regexp"
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

// likeMatcher compiles a SQL LIKE pattern (case-insensitive).
func likeMatcher(st *sqlfront.Statement) func(string) bool {
	if !st.HasLike {
		return func(string) bool { return true }
	}
	var b strings.Builder
	b.WriteString("(?is)^")
	for _, r := range st.Like {
		switch r {
		case '%':
			b.WriteString(".*")
		case '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re := regexp.MustCompile(b.String())
	return re.MatchString
}

func (e *Engine) discover(st *sqlfront.Statement) (*result.Result, error) {
	match := likeMatcher(st)
	res := &result.Result{}
	target := func(n int) (*providers.Provider, error) {
		if len(st.Target) < n {
			return nil, &plan.Error{Msg: fmt.Sprintf("%s needs a provider name, e.g. %s IN github", st.Kind, st.Kind)}
		}
		if !e.cat.IsProvider(st.Target[0]) {
			return nil, &plan.Error{Msg: fmt.Sprintf("unknown provider %q; SHOW PROVIDERS lists them", st.Target[0])}
		}
		return e.cat.provider(st.Target[0])
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
		if len(st.Target) == 0 {
			st.Target = []string{"github"}
		}
		p, err := target(1)
		if err != nil {
			return nil, err
		}
		res.Columns = []result.Column{{Name: "name", Type: result.TypeText}, {Name: "resources", Type: result.TypeInteger}}
		count := map[string]int{}
		for _, r := range p.Resources {
			count[r.Service]++
		}
		for _, s := range p.Services() {
			if match(s) {
				res.Rows = append(res.Rows, []any{s, int64(count[s])})
			}
		}
	case sqlfront.KindShowResources:
		if len(st.Target) == 0 {
			st.Target = []string{"github"}
		}
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
			return nil, &plan.Error{Msg: fmt.Sprintf("provider %s has no service %q; SHOW SERVICES IN %s lists them", p.Provider, st.Target[1], p.Provider)}
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
			return nil, &plan.Error{Msg: fmt.Sprintf("unknown table %s; SHOW RESOURCES IN %s.%s lists them", strings.Join(st.Target[:3], "."), st.Target[0], st.Target[1])}
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

// describeResult lists the resource's columns (union over its methods)
// then its parameters, saying which methods require or accept each.
func describeResult(r *providers.Resource, target []string) *result.Result {
	res := &result.Result{Columns: textCols("name", "type", "kind", "methods")}
	methods := r.Methods
	if len(target) == 4 {
		if m := r.Method(target[3]); m != nil {
			methods = []*providers.Method{m}
		}
	}
	type colInfo struct {
		typ     string
		methods []string
	}
	cols := map[string]*colInfo{}
	var colNames []string
	type paramInfo struct {
		typ           string
		required, opt []string
	}
	params := map[string]*paramInfo{}
	var paramNames []string
	for _, m := range methods {
		for _, c := range m.Columns {
			ci, ok := cols[c.Name]
			if !ok {
				ci = &colInfo{typ: c.Type}
				cols[c.Name] = ci
				colNames = append(colNames, c.Name)
			}
			ci.methods = append(ci.methods, m.Name)
		}
		for _, p := range m.Params {
			pi, ok := params[p.Name]
			if !ok {
				t := p.Type
				if t == "" {
					t = providers.TypeText
				}
				pi = &paramInfo{typ: t}
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
	sort.Strings(colNames)
	for _, n := range colNames {
		ci := cols[n]
		ms := strings.Join(ci.methods, ", ")
		if len(ci.methods) == len(methods) {
			ms = "all"
		}
		res.Rows = append(res.Rows, []any{n, ci.typ, "column", ms})
	}
	sort.Strings(paramNames)
	for _, n := range paramNames {
		pi := params[n]
		if len(pi.required) > 0 {
			res.Rows = append(res.Rows, []any{n, pi.typ, "required key", strings.Join(pi.required, ", ")})
		}
		if len(pi.opt) > 0 {
			res.Rows = append(res.Rows, []any{n, pi.typ, "optional key", strings.Join(pi.opt, ", ")})
		}
	}
	return res
}

func explainResult(p *plan.Plan) *result.Result {
	res := &result.Result{Columns: textCols("plan")}
	for _, line := range strings.Split(strings.TrimRight(p.String(), "\n"), "\n") {
		res.Rows = append(res.Rows, []any{line})
	}
	return res
}
