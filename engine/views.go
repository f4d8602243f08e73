package engine

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/enginehq/engine/engine/catalog"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/registry"
)

// Views are named queries (CREATE VIEW name AS SELECT ...) that the
// engine keeps itself, never as DDL to SQLite: the stored ones in the
// data directory (Options.Store, registry-v1/view/), and those a caller
// declares for its own statements (Options.Views: a control file's
// views:). A statement that reads a view is expanded before it is parsed
// (sqlfront.ExpandViews), so that its WHERE keys bind through the view to
// the API parameters of the view's tables.

// View is one view as SHOW VIEWS lists it.
type View struct {
	Name  string
	Query string
	// Source is "data directory" for a stored view, else the caller's
	// word for Options.Views ("control file").
	Source string
}

// Views lists the views the engine's statements can read, by name: the
// caller's (Options.Views) before the stored ones of the same name.
func (e *Engine) Views() ([]View, error) {
	all := map[string]View{}
	var err error
	if e.opts.Store != nil {
		var stored []registry.StoredView
		stored, err = e.opts.Store.Views()
		for _, v := range stored {
			all[v.Name] = View{Name: v.Name, Query: v.Query, Source: "data directory"}
		}
	}
	for name, q := range e.opts.Views {
		all[name] = View{Name: name, Query: q, Source: cmpOr(e.opts.ViewsSource, "session")}
	}
	out := make([]View, 0, len(all))
	for _, n := range slices.Sorted(maps.Keys(all)) {
		out = append(out, all[n])
	}
	if err != nil {
		err = Errorf(KindUsage, "views: %w", err)
	}
	return out, err
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// view returns a view's query by name.
func (e *Engine) view(name string) (string, bool) {
	if q, ok := e.opts.Views[name]; ok {
		return q, true
	}
	if e.opts.Store == nil {
		return "", false
	}
	v, ok, err := e.opts.Store.View(name)
	if err != nil || !ok {
		return "", false
	}
	return v.Query, true
}

// hasViews reports whether any view exists, so that statements pay
// nothing for views when there are none.
func (e *Engine) hasViews() bool {
	if len(e.opts.Views) > 0 {
		return true
	}
	if e.opts.Store == nil {
		return false
	}
	return e.opts.Store.HasViews()
}

// expandViews is the statement with its views expanded (text when it
// reads none).
func (e *Engine) expandViews(text string, view func(string) (string, bool)) (string, []string, error) {
	if view == nil {
		if !e.hasViews() {
			return text, nil, nil
		}
		view = e.view
	}
	return sqlfront.ExpandViews(text, e.cat.IsProvider, view)
}

// viewError is a plan error of a statement that read views, which says
// so: the tables it names are the views'.
type viewError struct {
	err  error
	note string
}

func (v *viewError) Error() string { return v.err.Error() + v.note }
func (v *viewError) Unwrap() error { return v.err }

// checkView validates a CREATE VIEW's query: it expands (no cycle
// through views), parses as a SELECT, and names only tables that exist.
// Its keys need not be bound: the statements that read it bind them.
func (e *Engine) checkView(def *sqlfront.ViewDef) error {
	view := func(name string) (string, bool) {
		if name == def.Name {
			return def.Query, true
		}
		return e.view(name)
	}
	expanded, _, err := e.expandViews(def.Query, view)
	if err != nil {
		return err
	}
	if expanded == def.Query {
		// The view's own name in its FROM would be read as a table.
		if _, _, err := sqlfront.ExpandViews("SELECT * FROM "+def.Name, e.cat.IsProvider, view); err != nil {
			return err
		}
	}
	st, err := sqlfront.Parse(expanded, e.cat.IsProvider)
	if err != nil {
		return err
	}
	for _, short := range st.Query.ShortNames {
		if nf := e.cat.ShortName(short); nf != nil {
			return sqlNotFound(nf)
		}
		if len(short) == 1 {
			if _, ok := e.view(short[0]); !ok {
				return Errorf(KindPlan, "view %s reads %s, which is no view or table: tables are named provider.service.resource; SHOW VIEWS lists the views", def.Name, short[0])
			}
		}
	}
	for _, t := range st.Query.Tables {
		if _, err := e.cat.Table(t.Parts[0], t.Parts[1], t.Parts[2]); err != nil {
			return sqlNotFound(err)
		}
	}
	return nil
}

// viewStatement runs CREATE VIEW and DROP VIEW.
func (e *Engine) viewStatement(st *sqlfront.Statement) (*result.Result, error) {
	if e.opts.ReadOnlyViews {
		return nil, Errorf(KindUsage, "%s is not available here: views are created and dropped with engine exec or engine shell; this surface reads them (SHOW VIEWS lists them)", st.Kind)
	}
	if e.opts.Store == nil {
		return nil, Errorf(KindUsage, "%s needs the engine's data directory, which is not available (set XDG_DATA_HOME to a directory of your own)", st.Kind)
	}
	def := st.View
	res := &result.Result{Columns: textCols("view", "result")}
	if _, file := e.opts.Views[def.Name]; file {
		return nil, Errorf(KindPlan, "view %s is declared by the %s; change it there", def.Name, cmpOr(e.opts.ViewsSource, "session"))
	}
	old, exists, err := e.opts.Store.View(def.Name)
	if err != nil {
		return nil, Errorf(KindUsage, "%w", err)
	}
	if st.Kind == sqlfront.KindDropView {
		if !exists {
			if def.IfExists {
				res.Rows = append(res.Rows, []any{def.Name, "no such view (IF EXISTS): nothing dropped"})
				return res, nil
			}
			return nil, Errorf(KindPlan, "no view %s; SHOW VIEWS lists the views (DROP VIEW IF EXISTS %s drops it only if it exists)", def.Name, def.Name)
		}
		if _, err := e.opts.Store.RemoveView(def.Name); err != nil {
			return nil, Errorf(KindUsage, "drop view %s: %w", def.Name, err)
		}
		res.Rows = append(res.Rows, []any{def.Name, "dropped"})
		return res, nil
	}
	if exists && !def.OrReplace {
		return nil, Errorf(KindPlan, "view %s exists (%s); CREATE OR REPLACE VIEW %s AS ... replaces it, DROP VIEW %s drops it", def.Name, oneLine(old.Query, 80), def.Name, def.Name)
	}
	if err := e.checkView(def); err != nil {
		return nil, err
	}
	if err := e.opts.Store.PutView(registry.StoredView{Name: def.Name, Query: def.Query, Created: time.Now().UTC()}); err != nil {
		return nil, Errorf(KindUsage, "create view %s: %w", def.Name, err)
	}
	word := "created"
	if exists {
		word = "replaced"
	}
	res.Rows = append(res.Rows, []any{def.Name, word})
	return res, nil
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

// showViews answers SHOW VIEWS [LIKE 'p'].
func (e *Engine) showViews(ctx context.Context, st *sqlfront.Statement) (*result.Result, error) {
	vs, err := e.Views()
	if err != nil && len(vs) == 0 {
		return nil, err
	}
	like := likeMatcher(st)
	res := &result.Result{Columns: textCols("name", "query", "source")}
	for _, v := range vs {
		if ctx.Err() == nil && like(v.Name) {
			res.Rows = append(res.Rows, []any{v.Name, v.Query, v.Source})
		}
	}
	return res, nil
}

// describeView answers DESCRIBE name for a view: the view itself (kind
// "view", its query), then its columns as its select list makes them,
// typed where one passes a table's column through; a table's key (an API
// parameter) says so, since a WHERE on it binds through the view.
func (e *Engine) describeView(name string) (*result.Result, error) {
	q, ok := e.view(name)
	if !ok {
		return nil, Errorf(KindPlan, "no view %s: DESCRIBE takes provider.service.resource or a view's name (SHOW VIEWS lists the views)", name)
	}
	res := &result.Result{Columns: textCols("name", "type", "kind", "methods", "description")}
	res.Rows = append(res.Rows, []any{name, "", "view", "", oneLine(q, 1000)})
	expanded, _, err := e.expandViews(q, nil)
	if err != nil {
		return nil, err
	}
	cols, err := sqlfront.ViewColumns(expanded, e.cat.IsProvider)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		var (
			cinfo []catalog.ColumnInfo
			keys  map[string]string
			full  string
		)
		if len(c.Table) == 3 {
			if r, err := e.cat.Table(c.Table[0], c.Table[1], c.Table[2]); err == nil {
				cinfo = catalog.ResourceColumns(r.Methods)
				full = r.FullName()
				keys = map[string]string{}
				for _, m := range r.Methods {
					for _, p := range m.Params {
						if keys[p.Name] == "" {
							keys[p.Name] = p.Type
						}
					}
				}
			}
		}
		row := func(n, typ, kind, desc string) { res.Rows = append(res.Rows, []any{n, typ, kind, "", desc}) }
		switch {
		case c.Name == "*" && full != "":
			for _, ci := range cinfo {
				row(ci.Name, ci.Type, "column", "from "+full)
			}
			for _, k := range slices.Sorted(maps.Keys(keys)) {
				row(k, cmpOr(keys[k], "text"), "key", "binds "+full+"'s parameter "+k+": WHERE "+k+" = ... on the view")
			}
		case c.Name == "*":
			row("*", "", "columns", "every column of the view's FROM")
		case full != "" && keys[c.Column] != "" || (full != "" && hasKey(keys, c.Column)):
			row(c.Name, cmpOr(keys[c.Column], "text"), "key", "binds "+full+"'s parameter "+c.Column+": WHERE "+c.Name+" = ... on the view")
		case full != "":
			typ := ""
			for _, ci := range cinfo {
				if ci.Name == c.Column {
					typ = ci.Type
				}
			}
			row(c.Name, typ, "column", "from "+full+"."+c.Column)
		default:
			row(c.Name, "", "expression", "")
		}
	}
	return res, nil
}

func hasKey(keys map[string]string, k string) bool { _, ok := keys[k]; return ok }
