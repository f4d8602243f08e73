package plan

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// Options bound a plan.
type Options struct {
	// MaxRequests refuses plans whose first-page request estimate exceeds
	// it (0: no bound). Fan-outs fed by other tables are checked by the
	// executor once their sources are materialised, before any of their
	// requests is made, with the plan's own arithmetic (Plan.Requests).
	MaxRequests int
	// Prover confirms a LIMIT pushdown (store.Prover); nil: no LIMIT is
	// pushed down.
	Prover ScanProver
}

// ScanProver proves that SQLite runs text, a query over the one table
// of the given columns, as a plain scan: one that reads the table's rows
// in order and stops at its LIMIT, so that stopping the fetch after LIMIT
// rows cannot change the answer (implemented by engine/store, which
// compiles text with EXPLAIN; nothing is fetched).
type ScanProver interface {
	PlainScan(ctx context.Context, table string, cols []providers.Column, text string) (bool, error)
}

// Build plans a query: it resolves every provider table to a method,
// binding parameters from literals first and from other tables' rows
// (JOIN ... ON / WHERE column equalities, IN subqueries) when those
// tables can be fetched first, and orders the scans accordingly. The plan
// is final: its LIMIT pushdown is proved (Options.Prover) and its
// literal request estimate checked against Options.MaxRequests.
func Build(ctx context.Context, q *sqlfront.Query, cat Catalog, opts Options) (*Plan, error) {
	p := &Plan{Query: q, MaxRequests: opts.MaxRequests}
	nodes := make([]*node, len(q.Tables))
	byRef := map[*sqlfront.TableRef]*node{}
	for i, ref := range q.Tables {
		res, err := resolveResource(ref, cat)
		if err != nil {
			return nil, err
		}
		nodes[i] = &node{ref: ref, res: res}
		byRef[ref] = nodes[i]
	}
	for _, n := range nodes {
		n.collect(byRef)
	}
	// Resolve in rounds: a table is planned once waiting for other tables
	// could not give it a better method; a cycle is broken by planning the
	// first table that can be planned with what is available.
	var order []*node
	for len(order) < len(nodes) {
		var ready, fallback *node
		for _, n := range nodes {
			if n.scan != nil {
				continue
			}
			now := n.choose(false)
			if now.missing > 0 {
				continue
			}
			if later := n.choose(true); later.m == now.m {
				ready = n
				break
			}
			if fallback == nil {
				fallback = n
			}
		}
		if ready == nil {
			ready = fallback
		}
		if ready == nil {
			for _, n := range nodes {
				if n.scan == nil {
					return nil, n.missingError()
				}
			}
		}
		if err := ready.plan(); err != nil {
			return nil, err
		}
		order = append(order, ready)
	}
	if q.LimitZero {
		// The answer is known to be empty: plan as usual (the same
		// refusals, the same EXPLAIN), fetch nothing.
		for _, n := range order {
			if n.scan.NoRequest == "" {
				n.scan.NoRequest = LimitZeroReason
			}
		}
	}
	names := map[int]string{}
	var consumed []*sqlfront.Conjunct
	total := 0
	for _, n := range order {
		s := n.scan
		if err := checkColumns(s, cat); err != nil {
			return nil, err
		}
		if err := checkPathRefs(s); err != nil {
			return nil, err
		}
		if err := checkBoolLiterals(s); err != nil {
			return nil, err
		}
		names[s.Ref.Index] = s.Table
		consumed = append(consumed, s.Consumed...)
		if !s.Dependent() {
			total = AddSat(total, s.EstimatedRequests())
		}
		p.Scans = append(p.Scans, s)
	}
	setSourceFilters(p.Scans)
	if len(q.Tables) == 1 {
		s := p.Scans[0]
		if q.Limit > 0 && s.Ref.Scope == q.Root && countBinding(s) == s.Ref.Scope.WhereTerms {
			s.Limit = q.Limit
		}
	}
	if opts.MaxRequests > 0 && total > opts.MaxRequests {
		return nil, RequestLimitError("", "the query needs about %d requests, more than the limit of %d; narrow the IN lists", total, opts.MaxRequests)
	}
	rw, err := newRewrite(q, names, consumed)
	if err != nil {
		return nil, err
	}
	p.SQL = rw.sql()
	for _, s := range p.Scans {
		for i := range s.Subs {
			text, err := rw.subquery(s.Subs[i].Conjunct)
			if err != nil {
				return nil, err
			}
			s.Subs[i].SQL = text
		}
	}
	if err := proveLimits(ctx, p, opts.Prover); err != nil {
		return nil, err
	}
	return p, nil
}

// proveLimits keeps a LIMIT pushdown (stop paginating after n rows) only
// when SQLite will run the statement as a plain scan of the table: the
// syntactic test above cannot know every aggregate or window function
// SQLite has (json_group_array, string_agg, ...), SQLite's own compiled
// program can.
func proveLimits(ctx context.Context, p *Plan, prover ScanProver) error {
	for _, s := range p.Scans {
		if s.Limit <= 0 {
			continue
		}
		ok := false
		if prover != nil {
			var err error
			if ok, err = prover.PlainScan(ctx, s.Table, s.Columns(), p.SQL); err != nil {
				return err
			}
		}
		if !ok {
			s.Limit = 0
		}
	}
	return nil
}

// AddSat adds two non-negative counts, saturating at math.MaxInt.
func AddSat(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

func countBinding(s *Scan) int {
	n := 0
	for _, b := range s.Bindings {
		if b.Conjunct != nil && !b.Conjunct.InOn {
			n++
		}
	}
	return n
}

func resolveResource(ref *sqlfront.TableRef, cat Catalog) (*providers.Resource, error) {
	res, err := cat.Resource(ref.Parts[0], ref.Parts[1], ref.Parts[2])
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, errorf(ref.Name(), "unknown table %s; list tables with SHOW RESOURCES IN %s.%s (or SHOW SERVICES IN %s)", ref.Name(), ref.Parts[0], ref.Parts[1], ref.Parts[0])
	}
	if m := ref.MethodName(); m != "" && res.Method(m) == nil {
		var names []string
		for _, x := range res.Methods {
			names = append(names, x.Name)
		}
		moved := ""
		if f, ok := cat.(ColumnFinder); ok {
			if t := f.TableWithMethod(ref.Parts[0], ref.Parts[1], m); t != "" {
				moved = fmt.Sprintf("; %s is a method of %s (each table's methods return one kind of row): read FROM %s", m, t, t)
			}
		}
		return nil, errorf(ref.Name(), "%s has no method %q; its methods are %s%s", ref.Name(), m, strings.Join(names, ", "), moved)
	}
	return res, nil
}

// node is one table occurrence being planned.
type node struct {
	ref  *sqlfront.TableRef
	res  *providers.Resource
	lits map[string][]*sqlfront.Conjunct // param -> literal predicates
	deps map[string][]depCand            // param -> bindings from other tables
	scan *Scan
}

// depCand is a possible binding of a parameter from other tables: a
// column or expression of one source table, or an IN subquery.
type depCand struct {
	conj    *sqlfront.Conjunct
	source  *node   // for column/expression bindings
	expr    string  // SQLite expression over the source's name
	subDeps []*node // for subquery bindings: every table inside it
}

func (d depCand) ready() bool {
	if d.source != nil {
		return d.source.scan != nil
	}
	for _, n := range d.subDeps {
		if n.scan == nil {
			return false
		}
	}
	return true
}

// collect gathers the predicates that can bind this table's parameters.
func (n *node) collect(byRef map[*sqlfront.TableRef]*node) {
	n.lits = map[string][]*sqlfront.Conjunct{}
	n.deps = map[string][]depCand{}
	me := strings.ToLower(n.ref.RefName())
	others := map[string]*node{}
	for _, t := range n.ref.Scope.Tables {
		if t != n.ref {
			others[strings.ToLower(t.RefName())] = byRef[t]
		}
	}
	for _, c := range n.ref.Scope.Conjuncts {
		switch c.Op {
		case sqlfront.OpEq, sqlfront.OpIn:
			if c.Qualifier == "" || c.Qualifier == me {
				n.lits[c.Column] = append(n.lits[c.Column], c)
			}
		case sqlfront.OpCol:
			if c.Qualifier == me {
				if src := others[c.RefQualifier]; src != nil {
					n.deps[c.Column] = append(n.deps[c.Column], depCand{conj: c, source: src, expr: c.RefExpr})
				}
			}
			if c.RefQualifier == me {
				if src := others[c.Qualifier]; src != nil {
					expr := `"` + c.Qualifier + `"."` + c.Column + `"`
					n.deps[c.RefColumn] = append(n.deps[c.RefColumn], depCand{conj: c, source: src, expr: expr})
				}
			}
		case sqlfront.OpExpr:
			if c.Qualifier == me {
				if src := others[c.RefQualifier]; src != nil {
					n.deps[c.Column] = append(n.deps[c.Column], depCand{conj: c, source: src, expr: c.RefExpr})
				}
			}
		case sqlfront.OpSubquery:
			if (c.Qualifier == "" || c.Qualifier == me) && c.Sub != nil {
				var inside []*node
				for _, ref := range subTables(c.Sub, byRef) {
					inside = append(inside, byRef[ref])
				}
				n.deps[c.Column] = append(n.deps[c.Column], depCand{conj: c, subDeps: inside})
			}
		}
	}
}

// subTables lists the provider tables of a scope and its descendants.
func subTables(s *sqlfront.Scope, byRef map[*sqlfront.TableRef]*node) []*sqlfront.TableRef {
	var out []*sqlfront.TableRef
	for ref := range byRef {
		for sc := ref.Scope; sc != nil; sc = sc.Parent {
			if sc == s {
				out = append(out, ref)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

type choice struct {
	m                 *providers.Method
	req, opt, missing int
	missingNames      []string
	// covers: the method's rows carry every column the query reads of
	// this table (see carries).
	covers bool
}

// carries reports whether m's rows can hold every column reference that
// can only mean this table: response columns, parameters (bound ones are
// columns) and "value" for items without properties.
func carries(ref *sqlfront.TableRef, m *providers.Method) bool {
	for _, c := range ref.ColumnRefs {
		if m.Column(c.Name) != nil || m.Param(c.Name) != nil {
			continue
		}
		if c.Name == providers.ValueName && m.ValueColumn() {
			continue
		}
		if c.Name == AnsweredName && m.Shape == providers.ShapeNone {
			continue
		}
		return false
	}
	return true
}

// choose picks the best method given the parameters bound by literals and
// by ready dependencies (or by every dependency, when hypothetical).
func (n *node) choose(hypothetical bool) choice {
	return n.rank(hypothetical, true)[0]
}

// bound reports whether parameter p is bound: by a literal, or by a
// column of another table that is fetched already (or, hypothetically,
// will be).
func (n *node) bound(p string, hypothetical bool) bool {
	p = strings.ToLower(p) // WHERE columns are lower-cased; SQL names keep the API's case
	if len(n.lits[p]) > 0 {
		return true
	}
	for _, d := range n.deps[p] {
		if hypothetical || d.ready() {
			return true
		}
	}
	return false
}

// rank scores the methods the table can use (the one it names, else all)
// and sorts them best first (see better). full adds what only the choice
// of a method to run weighs: whether its rows carry the columns read and
// how many optional parameters are bound; without it only required
// parameters count (missingError's ranking).
func (n *node) rank(hypothetical, full bool) []choice {
	methods := n.res.Methods
	if m := n.ref.MethodName(); m != "" {
		methods = []*providers.Method{n.res.Method(m)}
	}
	all := make([]choice, 0, len(methods))
	for _, m := range methods {
		c := choice{m: m}
		if full {
			c.covers = carries(n.ref, m)
		}
		for _, p := range m.Params {
			if !p.Required && !full {
				continue
			}
			b := n.bound(p.Name, hypothetical)
			switch {
			case p.Required && b:
				c.req++
			case p.Required:
				c.missing++
				c.missingNames = append(c.missingNames, p.Name)
			case b:
				c.opt++
			}
		}
		all = append(all, c)
	}
	sort.SliceStable(all, func(i, j int) bool { return better(all[i], all[j]) })
	return all
}

func better(a, b choice) bool {
	if a.missing != b.missing {
		return a.missing < b.missing
	}
	if a.covers != b.covers {
		// Among methods that can run, the one whose rows carry every
		// referenced column (a method without them is a plan error).
		return a.covers
	}
	if a.req != b.req {
		return a.req > b.req
	}
	if a.opt != b.opt {
		return a.opt > b.opt
	}
	an, bn := a.m.Shape == providers.ShapeNone, b.m.Shape == providers.ShapeNone
	if an != bn {
		return !an
	}
	if len(a.m.Path) != len(b.m.Path) {
		return len(a.m.Path) < len(b.m.Path)
	}
	return a.m.Name < b.m.Name
}

// missingError explains which WHERE keys the table lacks, per method.
func (n *node) missingError() error {
	ref := n.ref
	all := n.rank(true, false)
	e := &Error{Table: ref.Name(), Missing: map[string][]string{}}
	var parts []string
	for i, c := range all {
		e.Missing[c.m.Name] = c.missingNames
		if i < 6 {
			if c.missing == 0 {
				parts = append(parts, fmt.Sprintf("%s has its keys but they depend on each other in a cycle", c.m.Name))
			} else {
				parts = append(parts, fmt.Sprintf("%s needs %s", c.m.Name, strings.Join(c.missingNames, ", ")))
			}
		}
	}
	if len(all) > 6 {
		parts = append(parts, fmt.Sprintf("and %d more methods (SHOW METHODS IN %s)", len(all)-6, ref.Name()))
	}
	first := "..."
	if len(all[0].missingNames) > 0 {
		first = sqlfront.Ident(all[0].missingNames[0]) // `api-version`: backticks where the parser needs them
	}
	e.Msg = fmt.Sprintf("%s cannot be read without binding required parameters in WHERE or JOIN ... ON (e.g. WHERE %s = '...'): %s", ref.Name(), first, strings.Join(parts, "; "))
	if h := n.ownerSlip(all[0].m, all[0].missingNames); h != "" {
		e.Msg += "; " + h
	}
	return e
}

// plan fixes the method and the bindings of a node.
func (n *node) plan() error {
	c := n.choose(false)
	ref := n.ref
	s := &Scan{Ref: ref, Resource: n.res, Method: c.m}
	s.Table = "t" + strconv.Itoa(ref.Index) + "_" + strings.ReplaceAll(ref.Name(), ".", "_")
	for _, p := range c.m.Params {
		if cs := n.lits[strings.ToLower(p.Name)]; len(cs) > 0 {
			for _, x := range cs {
				if err := checkLiteral(s, p, x, c.m.Column(p.Name) != nil); err != nil {
					return err
				}
				if err := checkEnum(s, p, x); err != nil {
					return err
				}
			}
			vals := cs[0].Values
			for _, x := range cs[1:] {
				vals = intersect(vals, x.Values)
			}
			if len(vals) == 0 {
				reason, refusal := excluded(p, c.m, cs)
				if refusal != "" {
					return errorf(ref.Name(), "%s: the predicates on %s exclude every value as written; %s", ref.Name(), p.Name, refusal)
				}
				// No request: the table is created empty and the
				// predicates stay in the SQLite text, which then
				// answers as SQL would (no row of this table).
				s.NoRequest = reason
				s.Bindings = append(s.Bindings, Binding{Param: p, Conjunct: cs[0]})
				if c.m.Column(p.Name) == nil {
					s.ParamColumns = append(s.ParamColumns, p)
				}
				continue
			}
			for _, v := range vals {
				if p.In == providers.InPath && v == "" {
					return errorf(ref.Name(), "%s: %s cannot be empty", ref.Name(), p.Name)
				}
			}
			s.Bindings = append(s.Bindings, Binding{Param: p, Values: vals, Conjunct: cs[0]})
			if c.m.Column(p.Name) != nil {
				s.Consumed = append(s.Consumed, cs...)
			} else {
				s.ParamColumns = append(s.ParamColumns, p)
			}
			continue
		}
		for _, d := range n.deps[strings.ToLower(p.Name)] {
			if !d.ready() {
				continue
			}
			if c.m.Column(p.Name) != nil {
				return errorf(ref.Name(), "%s: %s cannot be bound from another table because %s is also a column of its rows; bind it with a literal (WHERE %s.%s = '...')", ref.Name(), p.Name, p.Name, ref.RefName(), p.Name)
			}
			if d.source != nil {
				if err := checkJSONBinding(s, strings.ToLower(ref.RefName()), d); err != nil {
					return err
				}
				s.Deps = append(s.Deps, DepBinding{Param: p, Source: d.source.scan, Expr: d.expr, Conjunct: d.conj})
			} else {
				var inside []*Scan
				for _, x := range d.subDeps {
					inside = append(inside, x.scan)
				}
				s.Subs = append(s.Subs, SubBinding{Param: p, Conjunct: d.conj, Sources: inside})
			}
			s.ParamColumns = append(s.ParamColumns, p)
			break
		}
	}
	if err := n.checkJSONLiterals(s); err != nil {
		return err
	}
	n.scan = s
	return nil
}

// excluded says why the literal predicates cs on parameter p, whose
// values have no string in common, admit no value as SQLite compares
// them: each is in WHERE (an ON clause can belong to an outer join, whose
// preserved rows it does not filter), and every value has one form in the
// column's type (text as written, integers as SQLite prints them), so
// that distinct strings are distinct values. Otherwise it returns the
// refusal to give instead (nothing is sent either way).
func excluded(p providers.Param, m *providers.Method, cs []*sqlfront.Conjunct) (reason, refusal string) {
	typ := p.Type
	if col := m.Column(p.Name); col != nil {
		typ = col.Type
	}
	var common map[string]bool
	var terms []string
	for i, c := range cs {
		if c.InOn {
			return "", fmt.Sprintf("%s is in JOIN ... ON, which does not remove the rows an outer join keeps, so the engine cannot tell the answer without them: bind %s with one value, or move the predicates to WHERE", c.Text, p.Name)
		}
		terms = append(terms, c.Text)
		set := map[string]bool{}
		for _, v := range c.Values {
			k, ok := sameInSQLite(typ, v)
			if !ok {
				return "", fmt.Sprintf("SQLite may read some of them as the same %s value ('%s' in %s), so the engine cannot tell that no row matches: write each value once, as SQLite prints it", strings.ToLower(typ), v, c.Text)
			}
			if i == 0 || common[k] {
				set[k] = true
			}
		}
		common = set
	}
	if len(common) > 0 {
		return "", "SQLite reads some of them as the same value: write each value once, as SQLite prints it"
	}
	return fmt.Sprintf("its WHERE predicates on %s (%s) admit no value, so it has no rows", p.Name, strings.Join(terms, " AND ")), ""
}

// sameInSQLite is the one form of v that SQLite compares in a column of
// type typ, or false when v has others ('01' and 1 are the same INTEGER).
func sameInSQLite(typ, v string) (string, bool) {
	switch typ {
	case "", providers.TypeText:
		return v, true
	case providers.TypeInteger:
		n, err := strconv.ParseInt(v, 10, 64)
		return v, err == nil && strconv.FormatInt(n, 10) == v
	}
	return "", false
}

func intersect(a, b []string) []string {
	in := map[string]bool{}
	for _, v := range b {
		in[v] = true
	}
	var out []string
	for _, v := range a {
		if in[v] {
			out = append(out, v)
		}
	}
	return out
}
