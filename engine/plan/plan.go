package plan

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// Catalog resolves provider tables.
type Catalog interface {
	// Resource returns the resource. When it does not exist, it returns
	// an error that names it (the engine's catalog: a *catalog.NotFound
	// with the closest names, which the planner passes on as it is), or
	// nil with no error (the planner then words the error itself).
	Resource(provider, service, name string) (*providers.Resource, error)
	// IsProvider reports whether name is a loaded provider.
	IsProvider(name string) bool
}

// ColumnFinder is optionally implemented by a Catalog: it lists the tables
// of a service whose rows have a column, for the advice of an unknown
// column ("contributions is a column of github.repos.contributors").
type ColumnFinder interface {
	TablesWithColumn(provider, service, column string) []string
	// TableWithMethod names the table of the service that has the
	// method, or "" (for the advice of a four-part name whose method is
	// in another table).
	TableWithMethod(provider, service, method string) string
}

// Plan is the executable form of one query.
type Plan struct {
	Query *sqlfront.Query
	Scans []*Scan
	// SQL is the text SQLite runs over the materialised tables.
	SQL string
	// MaxRequests bounds the first-page requests of the statement,
	// dependent fan-outs included (0: no bound).
	MaxRequests int
}

// Scan fetches one provider table occurrence.
type Scan struct {
	Ref      *sqlfront.TableRef
	Resource *providers.Resource
	Method   *providers.Method
	// Bindings hold the parameter values, in the method's parameter order.
	Bindings []Binding
	// ParamColumns are bound parameters materialised as constant columns
	// (those whose names are not response columns).
	ParamColumns []providers.Param
	// Limit > 0 stops pagination once that many items are in.
	Limit int64
	// Table is the materialised SQLite table name.
	Table string
	// Consumed are predicates the API applies that the rows cannot
	// express; they are replaced by 1 in the SQLite text.
	Consumed []*sqlfront.Conjunct
	// Deps bind parameters from the rows of scans planned earlier.
	Deps []DepBinding
	// Subs bind parameters from IN subqueries over scans planned earlier.
	Subs []SubBinding
	// NoRequest, when set, says why the scan sends no request: its table
	// is created empty, which gives the statement its true answer
	// (LimitZeroReason, or the WHERE predicates on a parameter admit no
	// value; see Build).
	NoRequest string
}

// LimitZeroReason is Scan.NoRequest for a statement with LIMIT 0.
const LimitZeroReason = "LIMIT 0 returns no rows"

// Notice says, for the user beside the result, which tables were not
// read because their WHERE predicates admit no value (the result is
// empty for that reason), and which were read only in part because a key
// left unbound makes the API filter by its default (defaultNotes), then
// which were read with a method that needs no key while their table has
// keyed lists (Scan.ScopeNotice), or "".
func (p *Plan) Notice() string {
	var out, parts []string
	for _, s := range p.Scans {
		if s.NoRequest != "" && s.NoRequest != LimitZeroReason {
			out = append(out, fmt.Sprintf("no request for %s: %s", s.Ref, s.NoRequest))
		}
		out = append(out, s.defaultNotes()...)
	}
	if len(out) > 0 {
		parts = append(parts, strings.Join(out, "; "))
	}
	for _, s := range p.Scans {
		if n := s.ScopeNotice(); n != "" {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, ". ")
}

// DepBinding binds a parameter to an expression over another scan's rows
// (JOIN ... ON p.repo = r.name, or = json_extract(r.owner, '$.login')).
type DepBinding struct {
	Param    providers.Param
	Source   *Scan
	Expr     string
	Conjunct *sqlfront.Conjunct
	// Filter holds the WHERE terms over the source's rows alone (SQLite
	// conditions): only source rows that pass them yield bindings.
	Filter []string
}

// SubBinding binds a parameter to the first column of an IN subquery.
type SubBinding struct {
	Param    providers.Param
	SQL      string
	Conjunct *sqlfront.Conjunct
	Sources  []*Scan
}

// Dependent reports whether the scan's requests depend on other scans.
func (s *Scan) Dependent() bool { return len(s.Deps) > 0 || len(s.Subs) > 0 }

// TupleQuery is an SQLite query whose rows are parameter values for a
// dependent scan: one column per parameter in Params.
type TupleQuery struct {
	Params []providers.Param
	SQL    string
}

// TupleQueries groups the dependent bindings by source: one query per
// source scan (so that owner and repo come from the same row) and one per
// subquery. Sources that are themselves bound one from another (p.repo
// from r.name, when both bind c: c.repo = r.name AND c.issue_number =
// p.number) are read together, joined on those bindings, so that the
// tuples are the pairs that belong together, not every repository with
// every pull request's number: a request for a combination no row joins
// would be useless, and an API answers it 404.
func (s *Scan) TupleQueries() []TupleQuery {
	var groups [][]*Scan // sources, in order of first binding; linked sources share a group
	group := map[*Scan]int{}
	for _, d := range s.Deps {
		if _, ok := group[d.Source]; !ok {
			group[d.Source] = len(groups)
			groups = append(groups, []*Scan{d.Source})
		}
	}
	type link struct {
		dst *Scan // a source bound from another source of s
		d   DepBinding
	}
	var links []link
	for _, src := range s.sources() {
		for _, d := range src.Deps {
			from, ok := group[d.Source]
			to := group[src]
			if !ok || !distinctNames(groups[from], groups[to]) {
				continue
			}
			links = append(links, link{src, d})
			if from != to {
				groups[to] = append(groups[to], groups[from]...)
				for _, x := range groups[from] {
					group[x] = to
				}
				groups[from] = nil
			}
		}
	}
	var out []TupleQuery
	for i, g := range groups {
		if len(g) == 0 {
			continue
		}
		var tq TupleQuery
		var exprs, from, where []string
		for _, d := range s.Deps {
			if group[d.Source] == i {
				tq.Params = append(tq.Params, d.Param)
				exprs = append(exprs, d.Expr)
			}
		}
		for _, src := range g {
			from = append(from, sqlfront.QuoteIdent(src.Table)+" AS "+sqlfront.QuoteIdent(refName(src)))
			where = append(where, s.filterOf(src)...)
		}
		for _, l := range links {
			if group[l.dst] == i {
				// the bound source's parameter column equals the value it was bound from
				where = append(where, sqlfront.QuoteIdent(refName(l.dst))+"."+sqlfront.QuoteIdent(l.d.Param.Name)+" = "+l.d.Expr)
			}
		}
		tq.SQL = "SELECT DISTINCT " + strings.Join(exprs, ", ") + " FROM " + strings.Join(from, ", ")
		if len(where) > 0 {
			tq.SQL += " WHERE " + strings.Join(where, " AND ")
		}
		out = append(out, tq)
	}
	for _, sb := range s.Subs {
		out = append(out, TupleQuery{Params: []providers.Param{sb.Param}, SQL: "SELECT DISTINCT * FROM (" + sb.SQL + ")"})
	}
	return out
}

// sources are the scans s's dependent bindings read, once each, in order.
func (s *Scan) sources() []*Scan {
	var out []*Scan
	for _, d := range s.Deps {
		if !slices.Contains(out, d.Source) {
			out = append(out, d.Source)
		}
	}
	return out
}

// filterOf is the WHERE terms over src's rows that s's bindings from it
// carry (DepBinding.Filter).
func (s *Scan) filterOf(src *Scan) []string {
	for _, d := range s.Deps {
		if d.Source == src {
			return d.Filter
		}
	}
	return nil
}

// refName is how SQL names a scan's table: its reference name, lower-cased.
func refName(s *Scan) string { return strings.ToLower(s.Ref.RefName()) }

// distinctNames reports whether two groups of sources can be read in one
// query: no reference name in both (a name reused in another scope).
func distinctNames(a, b []*Scan) bool {
	for _, x := range a {
		for _, y := range b {
			if x != y && refName(x) == refName(y) {
				return false
			}
		}
	}
	return true
}

// Binding is one parameter bound to one or more literal values.
type Binding struct {
	Param    providers.Param
	Values   []string
	Conjunct *sqlfront.Conjunct
}

// Calls expands the bindings into one parameter set per request (the
// cartesian product of IN lists).
func (s *Scan) Calls() []map[string]string {
	if s.NoRequest != "" {
		return nil
	}
	calls := []map[string]string{{}}
	for _, b := range s.Bindings {
		vals := dedupe(b.Values)
		next := make([]map[string]string, 0, len(calls)*len(vals))
		for _, c := range calls {
			for _, v := range vals {
				m := make(map[string]string, len(c)+1)
				for k, x := range c {
					m[k] = x
				}
				m[b.Param.Name] = v
				next = append(next, m)
			}
		}
		calls = next
	}
	return calls
}

func dedupe(vs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Columns returns the materialised table's columns: the response columns
// the query may read (all of them for SELECT *), then the value column of
// non-object items, then the parameter columns. Pruning the rest saves
// decoding and memory: a count(*) over 100,000 repositories stores no
// repository property at all.
func (s *Scan) Columns() []providers.Column {
	cols := make([]providers.Column, 0, len(s.Method.Columns)+len(s.ParamColumns)+1)
	for _, c := range s.Method.Columns {
		if s.Ref.Reads(strings.ToLower(c.Name)) && !s.isParamColumn(c.Name) {
			cols = append(cols, c)
		}
	}
	if s.ValueColumn() {
		cols = append(cols, providers.Column{Name: providers.ValueName, Type: s.Method.ValueColumnType()})
	}
	for _, p := range s.ParamColumns {
		t := p.Type
		if t == "" {
			t = providers.TypeText
		}
		cols = append(cols, providers.Column{Name: p.Name, Type: t})
	}
	if s.AnsweredColumn() {
		cols = append(cols, providers.Column{Name: AnsweredName, Type: providers.TypeBoolean})
	}
	if len(cols) == 0 && len(s.Method.Columns) > 0 {
		// SQLite tables need a column; keep one the query does not read.
		cols = append(cols, s.Method.Columns[0])
	}
	return cols
}

func (s *Scan) isParamColumn(name string) bool {
	for _, p := range s.ParamColumns {
		if strings.EqualFold(p.Name, name) {
			return true
		}
	}
	return false
}

// ValueColumn reports whether items are stored whole in one "value"
// column: methods whose items are not objects with known properties
// (string lists, free-form maps such as languages).
func (s *Scan) ValueColumn() bool { return s.Method.ValueColumn() }

// AnsweredName is the one column of a method without a JSON body and
// without bound parameters (e.g. GET /ping answering 204): its row says
// the provider answered 2xx (1).
const AnsweredName = "ok"

// AnsweredColumn reports whether the scan's rows hold only the
// AnsweredName column: a body-less method with no parameter columns.
func (s *Scan) AnsweredColumn() bool {
	return s.Method.Shape == providers.ShapeNone && len(s.ParamColumns) == 0
}

// EstimatedRequests is the number of first-page requests the scan's
// literal bindings make: the product of the distinct values of each
// binding, computed by arithmetic (never by enumerating the
// combinations, which for three 250-value IN lists would be 15.6 million
// maps) and saturating at math.MaxInt.
func (s *Scan) EstimatedRequests() int {
	if s.NoRequest != "" {
		return 0
	}
	n := 1
	for _, b := range s.Bindings {
		n = MulSat(n, distinct(b.Values))
	}
	return n
}

// FirstPages is the number of first-page requests the plan makes, when
// it is known before the statement runs: no scan takes its bindings from
// another's rows (known is false otherwise). Further pages, retries and
// the date ranges of split searches come on top.
func (p *Plan) FirstPages() (n int, known bool) {
	for _, s := range p.Scans {
		if s.NoRequest != "" {
			continue
		}
		if s.Dependent() {
			return 0, false
		}
		n = AddSat(n, s.EstimatedRequests())
	}
	return n, true
}

// Requests counts a statement's first-page requests against the plan's
// MaxRequests as its scans are fetched: the literal estimate was checked
// when the plan was built, a dependent scan's need (one request per
// distinct binding) is known once its sources are loaded.
type Requests struct {
	max     int
	planned int
}

// Requests starts the count of a run of the plan.
func (p *Plan) Requests() *Requests { return &Requests{max: p.MaxRequests} }

// Left is the number of first-page requests still allowed, or -1 when
// there is no bound.
func (r *Requests) Left() int {
	if r.max <= 0 {
		return -1
	}
	return max(r.max-r.planned, 0)
}

// Admit counts need more requests for s and refuses a dependent scan
// whose requests, with ahead, those of the later dependent scans whose
// sources are already loaded (known now, run next), would pass the
// limit; nothing has been sent for it. So a statement of two fan-outs
// over one table is refused before its first spends requests the second
// would then exceed.
func (r *Requests) Admit(s *Scan, need, ahead int) error {
	r.planned = AddSat(r.planned, need)
	if total := AddSat(r.planned, ahead); s.Dependent() && r.max > 0 && total > r.max {
		also := ""
		if ahead > 0 {
			also = fmt.Sprintf(", and %d for the other tables bound from the same rows", ahead)
		}
		return RequestLimitError(s.Ref.Name(),
			"the query needs at least %d requests (%d for %s, one per distinct binding from other tables%s), more than the limit of %d; nothing was sent for %s. Narrow the source tables in WHERE (or with an IN list)",
			total, need, s.Ref, also, r.max, s.Ref.Name())
	}
	return nil
}

// MulSat multiplies two non-negative counts, saturating at math.MaxInt.
func MulSat(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}

func distinct(vs []string) int {
	seen := make(map[string]struct{}, len(vs))
	for _, v := range vs {
		seen[v] = struct{}{}
	}
	return len(seen)
}

// String renders the plan, one line per scan, for EXPLAIN.
func (p *Plan) String() string {
	var b strings.Builder
	total := 0
	var dynamic []string
	for i, s := range p.Scans {
		fmt.Fprintf(&b, "%d. scan %s via %s (GET %s)", i+1, s.Ref, s.Method.Name, s.Method.Path)
		var binds []string
		for _, bd := range s.Bindings {
			v := strings.Join(quoteAll(dedupe(bd.Values)), "|")
			if len(bd.Values) == 0 {
				v = "(no value)"
			}
			binds = append(binds, fmt.Sprintf("%s=%s", bd.Param.Name, v))
		}
		for _, d := range s.Deps {
			binds = append(binds, fmt.Sprintf("%s from %s", d.Param.Name, strings.ReplaceAll(d.Expr, `"`, "")))
		}
		for _, sb := range s.Subs {
			binds = append(binds, fmt.Sprintf("%s from (%s)", sb.Param.Name, sb.Conjunct.String()))
		}
		if len(binds) > 0 {
			fmt.Fprintf(&b, " with %s", strings.Join(binds, ", "))
		}
		pages := ""
		if s.Method.Paginated {
			pages = " (+ further pages)"
		}
		if s.NoRequest != "" {
			fmt.Fprintf(&b, "; no request: %s\n", s.NoRequest)
			continue
		}
		if s.Dependent() {
			var srcs []string
			for _, d := range s.Deps {
				src := d.Source.Ref.RefName()
				if len(d.Filter) > 0 {
					src += " where " + strings.ReplaceAll(strings.Join(d.Filter, " AND "), `"`, "")
				}
				srcs = appendOnce(srcs, src)
			}
			if len(s.Subs) > 0 {
				srcs = appendOnce(srcs, "subquery")
			}
			n := s.EstimatedRequests()
			sym := "N(" + strings.Join(srcs, ",") + ")"
			if n > 1 {
				sym = fmt.Sprintf("%d x %s", n, sym)
			}
			dynamic = append(dynamic, sym)
			fmt.Fprintf(&b, "; one request per distinct binding: %s%s", sym, pages)
		} else {
			n := s.EstimatedRequests()
			total = AddSat(total, n)
			fmt.Fprintf(&b, "; %d request(s)%s", n, pages)
		}
		if s.Limit > 0 {
			fmt.Fprintf(&b, "; stops after %d rows", s.Limit)
		}
		b.WriteString(capNote(s))
		b.WriteString("\n")
	}
	est := strconv.Itoa(total)
	for _, d := range dynamic {
		est += " + " + d
	}
	split := ""
	for _, s := range p.Scans {
		if n := capNote(s); n != "" && s.Method.Cap.Split != nil {
			split = "; a search over its result cap adds one request per range tried and per page of its matches, known and checked against the rate-limit budget after its first page"
		}
	}
	fmt.Fprintf(&b, "estimated requests: %s (first pages%s)\n", est, split)
	fmt.Fprintf(&b, "sqlite: %s\n", p.SQL)
	return b.String()
}

func appendOnce(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

func quoteAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "'" + v + "'"
	}
	return out
}

// capNote says what happens when the scan's query matches more results
// than the provider serves (Method.Cap): it is split into date ranges
// (each range costs its first page, more requests the plan cannot count
// before the first page says how many match), or it fails as incomplete.
// A pushed-down LIMIT within the cap needs no more than the cap serves.
func capNote(s *Scan) string {
	cp := s.Method.Cap
	if cp == nil || (s.Limit > 0 && s.Limit <= int64(cp.Max)) {
		return ""
	}
	if cp.Split == nil {
		return fmt.Sprintf("; over %d matches (%s): error (incomplete), this query cannot be split", cp.Max, cp.Total)
	}
	return fmt.Sprintf("; over %d matches (%s): split by %s: ranges, bisected (+1 request per range tried, budget checked after the first page)", cp.Max, cp.Total, cp.Split.Qualifier)
}
