package engine

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/enginehq/engine/engine/exec"
	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/registry"
)

// Options configure an Engine.
type Options struct {
	// Sources are the provider definitions; nil means registry.Embedded().
	// Extra sources (--provider) are appended and override by name.
	Sources []registry.Source
	// BaseURLs override providers' base URLs by provider name.
	BaseURLs map[string]string
	// Auth configures credentials by provider name; a provider without an
	// entry uses its default token variables (GITHUB_TOKEN, GH_TOKEN).
	Auth map[string]providers.AuthConfig
	// Getenv reads the environment (default os.Getenv).
	Getenv func(string) string
	// Client is the template for every provider's HTTP client options
	// (BaseURL and Credentials are filled in per provider).
	Client client.Options
	// Concurrency bounds the concurrent requests of one fan-out.
	Concurrency int
	// MaxRequests refuses statements estimated to need more first-page
	// requests, and stops one whose requests actually sent (pages and
	// retries included) reach it (0: default 1000; negative: no bound).
	MaxRequests int
	// QueryTimeout bounds one statement (0: none).
	QueryTimeout time.Duration
	// MaxValueBytes bounds one value, stored row and result row of a
	// statement (0: store.DefaultMaxValueBytes).
	MaxValueBytes int
	// Store keeps compiled indexes of OpenAPI documents (see compiled.go);
	// nil compiles every document on each start.
	Store *registry.Store
	// Warnf prints a warning for the user (the CLI: "warning: ..." on
	// stderr), such as a GitHub App private key file readable by others;
	// each warning is printed once per process. nil: none.
	Warnf func(format string, args ...any)
}

// Engine runs statements. It is safe for concurrent use; providers and
// their HTTP clients are created on first use and shared.
type Engine struct {
	opts    Options
	cat     *catalog
	mu      sync.Mutex
	clients map[string]*client.Client
	secrets []string
}

// warned holds the warnings printed so far (Options.Warnf): once per
// process, however many engines or MCP sessions resolve the credentials.
var warned sync.Map

// New makes an engine. Nothing is loaded or connected yet.
func New(opts Options) (*Engine, error) {
	if opts.Sources == nil {
		opts.Sources = registry.Embedded()
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.MaxRequests == 0 {
		opts.MaxRequests = DefaultMaxRequests
	}
	cat := newCatalog(opts.Sources)
	cat.store, cat.logf = opts.Store, opts.Client.Logf
	if err := cat.checkEndpoints(opts.BaseURLs, opts.Auth); err != nil {
		return nil, err
	}
	return &Engine{opts: opts, cat: cat, clients: map[string]*client.Client{}}, nil
}

// checkEndpoints reports a base URL or auth entry of no provider.
func (c *catalog) checkEndpoints(baseURLs map[string]string, auth map[string]providers.AuthConfig) error {
	for name := range baseURLs {
		if !c.IsProvider(name) {
			return &Error{Kind: KindUsage, Setting: "base-url", Pos: -1, Err: fmt.Errorf("base URL for %s: no such provider (known: %v)", name, c.names())}
		}
	}
	for name := range auth {
		if !c.IsProvider(name) {
			return &Error{Kind: KindUsage, Setting: "auth", Pos: -1, Err: fmt.Errorf("auth for %s: no such provider (known: %v)", name, c.names())}
		}
	}
	return nil
}

// SetEndpoints replaces Options.BaseURLs and Options.Auth before the
// engine has made any provider's HTTP client (engine check puts a control
// file's defaults under the flags, deciding from the providers'
// definitions, which the engine loads). A name of no provider is an error,
// as in New.
func (e *Engine) SetEndpoints(baseURLs map[string]string, auth map[string]providers.AuthConfig) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.clients) > 0 {
		return fmt.Errorf("internal: endpoints set after a provider's client was made")
	}
	if err := e.cat.checkEndpoints(baseURLs, auth); err != nil {
		return err
	}
	e.opts.BaseURLs, e.opts.Auth = baseURLs, auth
	return nil
}

// ProviderNames lists the configured providers.
func (e *Engine) ProviderNames() []string { return e.cat.names() }

// Provider loads a provider definition.
func (e *Engine) Provider(name string) (*providers.Provider, error) { return e.cat.provider(name) }

// Secrets returns the credentials' secrets resolved so far, for scrubbing
// text that leaves the process.
func (e *Engine) Secrets() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := append([]string(nil), e.secrets...)
	for _, c := range e.clients {
		out = append(out, c.Secrets()...) // GitHub App installation tokens
	}
	return out
}

// Client returns (creating on first use) the HTTP client of a provider.
func (e *Engine) Client(name string) (*client.Client, error) {
	// The catalog loads (and may compile) the definition under its own
	// lock, not the engine's.
	p, err := e.cat.provider(name)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.clients[name]; ok {
		return c, nil
	}
	var cfg *providers.AuthConfig
	if a, ok := e.opts.Auth[name]; ok {
		cfg = &a
	}
	creds, err := p.Credentials(cfg, e.opts.Getenv)
	if err != nil {
		return nil, Errorf(KindUsage, "provider %s: %w", name, err)
	}
	if s := creds.Secret(); s != "" {
		e.secrets = append(e.secrets, s)
	}
	if w := creds.Warning(); w != "" && e.opts.Warnf != nil {
		if _, dup := warned.LoadOrStore(w, true); !dup {
			e.opts.Warnf("%s", w)
		}
	}
	o := e.opts.Client
	o.Credentials = creds
	if u := e.opts.BaseURLs[name]; u != "" {
		o.BaseURL = u
	}
	c, err := client.New(p, o)
	if err != nil {
		return nil, Errorf(KindUsage, "provider %s: %w", name, err)
	}
	e.clients[name] = c
	return c, nil
}

// QueryOptions tune one statement.
type QueryOptions struct {
	// Progress is called after each page with the pages fetched so far.
	Progress func(pages int)
	// Estimate, when set, is called once before the first request of a
	// SELECT whose first-page requests are known from its plan
	// (plan.Plan.FirstPages: no scan depends on another's rows), with
	// their number. Further pages come on top.
	Estimate func(firstPages int)
	// Rows, when set, receives every row of the result in order, as it is
	// produced (a SELECT's rows stream out of SQLite; other statements'
	// rows follow their computation), credentials already redacted, and
	// the returned Result holds no rows. An error from Rows stops the
	// statement and is returned (classified). The MCP surface uses it to
	// keep its memory bounded whatever the size of a result.
	Rows func(row []any) error
	// Columns, when set with Rows, receives the result's columns (names
	// redacted) once, before the first row, for every statement: writers
	// that stream (exec, shell) start their output with it. A column
	// computed by an expression may have Type "" there (its type is known
	// from its values; the returned Result has it).
	Columns func(cols []result.Column) error
}

// Query runs one statement. Errors are always *Error.
func (e *Engine) Query(ctx context.Context, text string, qo QueryOptions) (*result.Result, error) {
	start := time.Now()
	if e.opts.QueryTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.opts.QueryTimeout)
		defer cancel()
	}
	if qo.Rows != nil {
		qo.Rows = e.redactRows(qo.Rows)
	}
	begun := false
	if qo.Columns != nil {
		columns := qo.Columns
		qo.Columns = func(cols []result.Column) error {
			begun = true
			if s := e.Secrets(); len(s) > 0 {
				for i := range cols {
					cols[i].Name = redactText(cols[i].Name, s)
				}
			}
			return columns(cols)
		}
	}
	res, err := e.query(ctx, text, qo)
	if err == nil && qo.Columns != nil && qo.Rows != nil && !begun {
		// Not a streamed SELECT: its columns come with its rows.
		err = qo.Columns(append([]result.Column(nil), res.Columns...))
	}
	if err == nil && qo.Rows != nil && res.Rows != nil {
		// Not a streamed SELECT: hand over the (small) computed rows.
		for _, row := range res.Rows {
			if err = qo.Rows(row); err != nil {
				break
			}
		}
		res.Rows = nil
	}
	if err != nil {
		ce := Classify(err)
		msg := ce.Err.Error()
		if s := e.Secrets(); len(s) > 0 {
			msg = providers.Redact(msg, s...)
		}
		if bounded := BoundMessage(msg); bounded != ce.Err.Error() {
			ce.Err = redacted{ce.Err, bounded} // redacted, then bounded
		}
		return nil, ce
	}
	res.Finish(start)
	if s := e.Secrets(); len(s) > 0 {
		// An API can echo a credential in data too: no surface prints it.
		res.MapText(func(v string) string { return redactText(v, s) })
	}
	return res, nil
}

// redactRows wraps a row sink so that the text values it receives are
// redacted like Result.MapText does (the secrets are known once the
// scans have made their clients, before the first row).
func (e *Engine) redactRows(emit func([]any) error) func([]any) error {
	var redact func(string) string // set at the first row: the credentials are resolved by then
	first := true
	return func(row []any) error {
		if first {
			first = false
			if secrets := e.Secrets(); len(secrets) > 0 {
				redact = func(v string) string { return redactText(v, secrets) }
			}
		}
		if redact != nil {
			result.MapRowText(row, redact)
		}
		return emit(row)
	}
}

// redactText is providers.Redact, with a fast path for the usual value
// that holds no secret.
func redactText(v string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 && strings.Contains(v, sec) {
			return providers.Redact(v, secrets...)
		}
	}
	return v
}

type redacted struct {
	err error
	msg string
}

func (r redacted) Error() string { return r.msg }
func (r redacted) Unwrap() error { return r.err }

func (e *Engine) query(ctx context.Context, text string, qo QueryOptions) (*result.Result, error) {
	st, err := sqlfront.Parse(text, e.cat.IsProvider)
	if err != nil {
		return nil, err
	}
	switch st.Kind {
	case sqlfront.KindSelect:
		p, err := e.planWithin(ctx, st)
		if err != nil {
			return nil, err
		}
		if qo.Estimate != nil {
			if n, ok := p.FirstPages(); ok {
				qo.Estimate(n)
			}
		}
		res, err := exec.Run(ctx, p, e.Client, exec.Options{Concurrency: e.opts.Concurrency, Progress: qo.Progress, Rows: qo.Rows, Columns: qo.Columns, MaxValueBytes: e.opts.MaxValueBytes})
		if err == nil {
			res.Unordered = st.Query.UnorderedLimit
		}
		return res, err
	case sqlfront.KindExplain:
		p, err := e.planWithin(ctx, st)
		if err != nil {
			return nil, err
		}
		return explainResult(p), nil
	}
	res, err := e.discover(ctx, st)
	if err == nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return res, err
}

// Plan plans a parsed SELECT or EXPLAIN.
func (e *Engine) Plan(st *sqlfront.Statement) (*plan.Plan, error) {
	return plan.Build(st.Query, e.cat, plan.Options{MaxRequests: max(e.opts.MaxRequests, 0)})
}

// Parse parses one statement against the engine's providers.
func (e *Engine) Parse(text string) (*sqlfront.Statement, error) {
	st, err := sqlfront.Parse(text, e.cat.IsProvider)
	if err != nil {
		return nil, Classify(err)
	}
	return st, nil
}

// planWithin plans a SELECT and checks the plan against the engine's
// limits.
func (e *Engine) planWithin(ctx context.Context, st *sqlfront.Statement) (*plan.Plan, error) {
	p, err := e.Plan(st)
	if err != nil {
		return nil, err
	}
	if err := checkLimits(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// checkLimits keeps a LIMIT pushdown (stop paginating after n rows) only
// when SQLite will run the statement as a plain scan of the table: the
// front end's syntactic test cannot know every aggregate or window
// function SQLite has (json_group_array, string_agg, ...), SQLite's own
// compiled program can. It runs before the first request.
func checkLimits(ctx context.Context, p *plan.Plan) error {
	for _, s := range p.Scans {
		if s.Limit <= 0 {
			continue
		}
		ok, err := store.PlainScan(ctx, s.Table, s.Columns(), p.SQL)
		if err != nil {
			return err
		}
		if !ok {
			s.Limit = 0
		}
	}
	return nil
}
