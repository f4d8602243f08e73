package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/enginehq/engine/engine/exec"
	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers/client"
)

// A provider's HTTP client is the runner's fetcher.
var _ exec.Fetcher = (*client.Client)(nil)

// Prepared is one statement, parsed and, when it reads provider tables
// (SELECT, EXPLAIN), planned. Its plan is final: the LIMIT pushdown is
// proved by SQLite and the request estimate checked, and Run runs exactly
// that plan, so a statement that prepares (engine check validates its
// controls this way) is the statement that runs. Nothing has been sent
// to any provider. A Prepared may be run more than once, but not
// concurrently.
type Prepared struct {
	e    *Engine
	st   *sqlfront.Statement
	plan *plan.Plan // SELECT and EXPLAIN
	// views are the views the statement read: its text was expanded
	// (sqlfront.ExpandViews), so positions in it are not the caller's.
	views []string
}

// Prepare parses and plans one statement without running it. Errors are
// always *Error.
func (e *Engine) Prepare(ctx context.Context, text string) (*Prepared, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	ps, err := e.prepare(ctx, text)
	if err != nil {
		return nil, e.publicError(timedOut(ctx, err))
	}
	return ps, nil
}

func (e *Engine) prepare(ctx context.Context, text string) (*Prepared, error) {
	expanded, views, err := e.expandViews(text, nil)
	if err != nil {
		return nil, err
	}
	st, err := sqlfront.Parse(expanded, e.cat.IsProvider)
	if err != nil {
		if se, ok := err.(*sqlfront.Error); ok && e.opts.ReadOnlyViews && strings.Contains(se.Msg, sqlfront.ViewsNote) {
			// this surface only reads views: do not offer to create one
			err = &sqlfront.Error{Pos: se.Pos, Msg: strings.Replace(se.Msg, sqlfront.ViewsNote, "", 1)}
		}
		if expanded != text {
			if se, ok := err.(*sqlfront.Error); ok {
				// Its position is in the text with the views expanded.
				return nil, &sqlfront.Error{Pos: -1, Msg: se.Msg + " (in the statement with its views expanded: EXPLAIN shows it)"}
			}
		}
		return nil, err
	}
	ps := &Prepared{e: e, st: st, views: views}
	if st.Kind == sqlfront.KindSelect || st.Kind == sqlfront.KindExplain {
		// A FROM name of one or two parts is no table SQLite has: when it
		// names a provider, service or table, say the three-part names it
		// may mean before planning anything.
		for _, short := range st.Query.ShortNames {
			if nf := e.cat.ShortName(short); nf != nil {
				return nil, sqlNotFound(nf)
			}
		}
		ps.plan, err = plan.Build(ctx, st.Query, e.cat, plan.Options{MaxRequests: max(e.opts.MaxRequests, 0), Prover: store.Prover{}})
		if err != nil {
			err = sqlNotFound(err) // an unknown table: the catalog's *NotFound
			if len(views) > 0 {
				ce := *Classify(err)
				ce.Err = &viewError{ce.Err, fmt.Sprintf(" (the statement reads view %s: a WHERE key on a view's column binds through to its table, e.g. WHERE org = 'acme'; DESCRIBE %s lists its keys)", strings.Join(views, ", "), views[0])}
				err = &ce
			}
			return nil, err
		}
		if st.Kind == sqlfront.KindSelect {
			// What only SQLite catches is caught before any request: the
			// final text compiled against an empty copy of its tables.
			tables := make([]store.TableSchema, 0, len(ps.plan.Scans))
			for _, s := range ps.plan.Scans {
				tables = append(tables, store.TableSchema{Name: s.Table, Columns: s.Columns()})
			}
			if err := store.Compiles(ctx, tables, ps.plan.SQL); err != nil {
				return nil, err
			}
		}
	}
	return ps, nil
}

// Kind is the statement's kind (SELECT, EXPLAIN, SHOW ..., DESCRIBE).
func (ps *Prepared) Kind() sqlfront.Kind { return ps.st.Kind }

// SingleRow reports whether the statement returns exactly one row
// whatever the tables hold (sqlfront.Query.SingleRow: its outermost SELECT
// aggregates without GROUP BY or HAVING), so that its row count says
// nothing about the data.
func (ps *Prepared) SingleRow() bool { return ps.st.Query != nil && ps.st.Query.SingleRow }

// TableNotice is a notice about one table occurrence of a statement: Pos
// is the byte offset of its name in the statement's text (-1 when the
// statement read views, whose tables are not in its text).
type TableNotice struct {
	Pos  int
	Text string
}

// ScopeNotices are the statement's tables read with a method that needs
// no key while their table has methods with keys (github.repos.repos
// without org reads GET /user/repos, the credentials' user's): what the
// run's notice says of them (plan.Scan.ScopeNotice). A table whose method
// is named (a four-part name) has none.
func (ps *Prepared) ScopeNotices() []TableNotice {
	if ps.plan == nil {
		return nil
	}
	var out []TableNotice
	for _, s := range ps.plan.Scans {
		if n := s.ScopeNotice(); n != "" {
			pos := s.Ref.Span[0]
			if len(ps.views) > 0 {
				pos = -1 // a position in the text with its views expanded
			}
			out = append(out, TableNotice{Pos: pos, Text: n})
		}
	}
	return out
}

// Explain is the plan as EXPLAIN prints it (one line per scan, the
// request estimate, the SQLite text), or "" for a statement that reads no
// provider table.
func (ps *Prepared) Explain() string {
	if ps.plan == nil {
		return ""
	}
	return ps.plan.String()
}

// Run runs the prepared statement (Engine.Query documents qo). Errors
// are always *Error.
func (ps *Prepared) Run(ctx context.Context, qo QueryOptions) (*result.Result, error) {
	ctx, cancel := ps.e.bounded(ctx)
	defer cancel()
	return ps.e.deliver(ctx, qo, ps.run)
}

func (ps *Prepared) run(ctx context.Context, qo QueryOptions) (*result.Result, error) {
	e, st, p := ps.e, ps.st, ps.plan
	switch st.Kind {
	case sqlfront.KindSelect:
		if qo.Estimate != nil {
			if n, ok := p.FirstPages(); ok {
				qo.Estimate(n)
			}
		}
		fetchers, err := e.fetchers(p)
		if err != nil {
			return nil, err
		}
		ctx = client.WithNotice(ctx, qo.Notice)
		// One statement is a run of its own unless the caller opened one
		// (a check run, a script): each identical GET sent once.
		ctx, end := client.OpenRunBytes(ctx, client.StatementRunBytes)
		defer end()
		// Its place in the shared queue of the credentials it uses
		// (--state; providers/client/admission.go).
		ctx, endStatement := client.WithStatement(ctx)
		defer endStatement()
		res, err := exec.Run(ctx, p, fetchers, exec.Options{Concurrency: e.opts.Concurrency, Progress: qo.Progress, Rows: qo.Rows, Columns: qo.Columns, MaxValueBytes: e.opts.MaxValueBytes, Failed: qo.FailedStats, NullIsError: qo.NullIsError, Planned: e.planned(qo.Fetch)})
		if err == nil {
			res.Unordered = st.Query.UnorderedLimit
		}
		return res, err
	case sqlfront.KindExplain:
		return explainResult(p), nil
	case sqlfront.KindCreateView, sqlfront.KindDropView:
		return e.viewStatement(st)
	case sqlfront.KindShowViews:
		return e.showViews(ctx, st)
	case sqlfront.KindDescribe:
		if len(st.Target) == 1 {
			return e.describeView(st.Target[0])
		}
	}
	res, err := e.discover(ctx, st)
	if err == nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return res, err
}

// fetchers are the runner's fetchers of the plan's providers, in scan
// order: Options.Fetch, or the providers' HTTP clients (made, and their
// credentials resolved, before any request is sent).
func (e *Engine) fetchers(p *plan.Plan) (exec.Fetchers, error) {
	out := exec.Fetchers{}
	for _, s := range p.Scans {
		name := s.Resource.Provider
		if out[name] != nil || s.NoRequest != "" {
			continue
		}
		var f exec.Fetcher
		var err error
		if e.opts.Fetch != nil {
			f, err = e.opts.Fetch(name)
		} else {
			var c *client.Client
			if c, err = e.Client(name); err == nil {
				f = c
			}
		}
		if err != nil {
			return nil, err
		}
		out[name] = f
	}
	return out, nil
}
