package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/enginehq/engine/engine/catalog"
	"github.com/enginehq/engine/engine/exec"
	"github.com/enginehq/engine/engine/result"
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
	// Params are parameters set once per provider (--param), by provider
	// then the API's parameter name: sent with every method that takes
	// them, which WHERE then need not bind (providers/presets.go).
	Params map[string]map[string]string
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
	// QueueNotCounted makes QueryTimeout count the statement's own work
	// only: time its requests wait for the credential's rate window, a
	// rate-limit pause, or another statement's request for the same URL
	// does not count (worktime.go; engine check, whose controls share
	// one credential's window).
	QueueNotCounted bool
	// MaxValueBytes bounds one value, stored row and result row of a
	// statement (0: store.DefaultMaxValueBytes).
	MaxValueBytes int
	// Store keeps compiled indexes of OpenAPI documents (catalog's
	// compiled.go); nil compiles every document on each start.
	Store *registry.Store
	// Catalog, when set, is the provider catalog to use (made by
	// NewCatalog from these options), and Sources and Store are not read
	// again: engine check reads the providers' definitions before it
	// decides the endpoints the engine is made with.
	Catalog *catalog.Catalog
	// Fetch, when set, replaces the providers' HTTP clients as the
	// runner's fetchers (the in-process harness engine/enginetest serves
	// pages from memory through it); nil: Client.
	Fetch func(provider string) (exec.Fetcher, error)
	// Views are views of the caller's own (a control file's views:),
	// by name, readable by its statements besides the stored ones
	// (Store) and before a stored one of the same name; ViewsSource
	// names where they come from ("control file") in SHOW VIEWS.
	Views       map[string]string
	ViewsSource string
	// ReadOnlyViews refuses CREATE VIEW and DROP VIEW (the MCP server
	// reads views but does not change them).
	ReadOnlyViews bool
	// Warnf prints a warning for the user (the CLI: "warning: ..." on
	// stderr), such as a GitHub App private key file readable by others;
	// each warning is printed once per process. nil: none.
	Warnf func(format string, args ...any)
}

// Engine runs statements. It is safe for concurrent use; providers and
// their HTTP clients are created on first use and shared.
type Engine struct {
	opts    Options
	cat     *catalog.Catalog
	mu      sync.Mutex
	clients map[string]*client.Client
	secrets []string
}

// warned holds the warnings printed so far (Options.Warnf): once per
// process, however many engines or MCP sessions resolve the credentials.
var warned sync.Map

// NewCatalog makes the provider catalog of opts (Sources, Store, and
// Client.Logf for its debug log). Nothing is loaded yet.
func NewCatalog(opts Options) *catalog.Catalog {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	return catalog.New(opts.Sources, catalog.Options{Store: opts.Store, Logf: opts.Client.Logf, Params: opts.Params, Getenv: getenv})
}

// New makes an engine (on opts.Catalog, else a new one). Nothing is
// loaded or connected yet. A base URL or auth entry of no provider is a
// usage error.
func New(opts Options) (*Engine, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.MaxRequests == 0 {
		opts.MaxRequests = DefaultMaxRequests
	}
	cat := opts.Catalog
	if cat == nil {
		cat = NewCatalog(opts)
	}
	if err := cat.CheckEndpoints(opts.BaseURLs, opts.Auth); err != nil {
		return nil, Classify(err)
	}
	return &Engine{opts: opts, cat: cat, clients: map[string]*client.Client{}}, nil
}

// Catalog is the engine's provider catalog (discovery, definitions,
// origins).
func (e *Engine) Catalog() *catalog.Catalog { return e.cat }

// ProviderNames lists the configured providers.
func (e *Engine) ProviderNames() []string { return e.cat.Names() }

// Provider loads a provider definition.
func (e *Engine) Provider(name string) (*providers.Provider, error) {
	p, err := e.cat.Provider(name)
	if err != nil {
		return nil, Classify(err)
	}
	return p, nil
}

// BaseURL is where provider name's requests go: the base URL given for
// it (--base-url, the config, registry add --base-url), else its
// description's.
func (e *Engine) BaseURL(name string) (string, error) {
	if u := e.opts.BaseURLs[name]; u != "" {
		return u, nil
	}
	p, err := e.Provider(name)
	if err != nil {
		return "", err
	}
	return p.BaseURL, nil
}

// Origin tells how the index of an OpenAPI provider was obtained
// (catalog.Origin).
type Origin = catalog.Origin

// ProviderOrigin returns how an OpenAPI provider's index was obtained;
// ok is false for a provider that is not loaded yet or is an index.
func (e *Engine) ProviderOrigin(name string) (Origin, bool) { return e.cat.Origin(name) }

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
	if _, err := e.cat.Provider(name); err != nil {
		return nil, Classify(err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.clients[name]; ok {
		return c, nil
	}
	if e.opts.BaseURLs[name] == "" {
		if p, err := e.cat.Provider(name); err == nil && p.BaseURL != "" {
			if ph := providers.PlaceholderHost(p.BaseURL); ph != "" {
				// Before any credential is resolved or sent: a
				// description's example host is not where the user's
				// account is.
				return nil, &Error{Kind: KindUsage, Setting: "base-url", Pos: -1, Err: fmt.Errorf(
					"provider %s: the description's server URL %s has a placeholder host (%q), not yours; nothing was sent: give the provider's real base URL (base-url %s=https://...)",
					name, result.SanitizeText(p.BaseURL), result.SanitizeText(ph), name)}
			}
		}
	}
	p, creds, err := e.cat.Credentials(name, e.opts.Auth, e.opts.Getenv)
	if err != nil {
		return nil, Errorf(KindUsage, "provider %s: %w", name, err)
	}
	e.secrets = append(e.secrets, creds.Secrets()...) // their other forms: the client's Secrets
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
	// Notice, when set, receives at most one notice of the statement's
	// own long wait (client.WithNotice: a search split past the
	// provider's result cap waiting for the search rate window), to show
	// beside the result, never in it.
	Notice func(msg string)
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
	// Fetch, when set, receives the first-page requests of each scan
	// bound from another table's rows once its bindings are known, before
	// they are sent (Fetch.Keys set; Prepared.Fetches lists the others
	// before the run): engine check's estimate of its run grows with it.
	Fetch func(Fetch)
	// FailedStats, when set, receives what a SELECT that ends in an error
	// cost before it did (requests, pages, methods, elapsed time): check
	// reports the stats of every control, errored or not.
	FailedStats func(result.Stats)
	// NullIsError makes a SELECT whose WHERE or HAVING reads a column
	// that is NULL in every row read, without saying what NULL means
	// (coalesce, IS NULL, ...), an error of kind incomplete (engine
	// check: zero rows would pass a control on what the credentials
	// cannot see); without it the result's Notice says so
	// (exec.NullColumnsError, docs/check.md "No absence that passes").
	NullIsError bool
}

// OpenRun opens a run on ctx for several statements (one `check` run,
// one script): until the returned close is called, the statements run
// under the returned context send each identical GET (URL, credential,
// Accept) once, waiting for one in flight and reading one answered
// earlier in the run, an error answer included (client.OpenRun,
// docs/check.md "One request per URL per run"). Only answers received
// since the run opened are read, so the run never sees one older than
// itself. Without a run, each statement is its own.
func OpenRun(ctx context.Context) (context.Context, func()) { return client.OpenRun(ctx) }

// Query prepares and runs one statement (Prepare, then Prepared.Run).
// Errors are always *Error.
func (e *Engine) Query(ctx context.Context, text string, qo QueryOptions) (*result.Result, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	return e.deliver(ctx, qo, func(ctx context.Context, qo QueryOptions) (*result.Result, error) {
		ps, err := e.prepare(ctx, text)
		if err != nil {
			return nil, err
		}
		return ps.run(ctx, qo)
	})
}

// bounded applies Options.QueryTimeout to ctx; its cause, when it runs
// out, is a *QueryTimeoutError naming the bound (timedOut).
func (e *Engine) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.opts.QueryTimeout > 0 && e.opts.QueueNotCounted {
		return e.workBounded(ctx)
	}
	if e.opts.QueryTimeout > 0 {
		return context.WithTimeoutCause(ctx, e.opts.QueryTimeout, &QueryTimeoutError{Limit: e.opts.QueryTimeout})
	}
	return ctx, func() {}
}

// timedOut is err, or the statement's own time limit when that is what
// ended it (ctx, made by bounded, ran out): whatever the leaf said then
// (a context error, a request cut short) was the bound's doing.
func timedOut(ctx context.Context, err error) error {
	var qt *QueryTimeoutError
	if err != nil && ctx.Err() != nil && errors.As(context.Cause(ctx), &qt) {
		return qt
	}
	return err
}

// deliver runs a statement's body and hands its result over as qo asks:
// credentials redacted from rows and column names, a result that was not
// streamed handed to qo.Columns and qo.Rows, errors classified, redacted
// and bounded.
func (e *Engine) deliver(ctx context.Context, qo QueryOptions, body func(context.Context, QueryOptions) (*result.Result, error)) (*result.Result, error) {
	start := time.Now()
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
	res, err := body(ctx, qo)
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
		return nil, e.publicError(timedOut(ctx, err))
	}
	res.Finish(start)
	if s := e.Secrets(); len(s) > 0 {
		// An API can echo a credential in data too: no surface prints it.
		res.MapText(func(v string) string { return redactText(v, s) })
	}
	return res, nil
}

// publicError is err as the engine returns it: classified, with the
// credentials redacted from its message, then bounded.
func (e *Engine) publicError(err error) *Error {
	ce := Classify(err)
	msg := ce.Err.Error()
	if s := e.Secrets(); len(s) > 0 {
		msg = providers.Redact(msg, s...)
	}
	if bounded := BoundMessage(msg); bounded != ce.Err.Error() {
		ce.Err = redacted{ce.Err, bounded} // redacted, then bounded
	}
	return ce
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
