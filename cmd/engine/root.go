package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/enginehq/engine/cmd/engine/advice"
	"github.com/enginehq/engine/cmd/engine/check"
	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/catalog"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/providers/httpcache"
	"github.com/enginehq/engine/providers/sharedstate/redisstate"
	"github.com/enginehq/engine/registry"
)

// globalFlags are the provider, auth and execution options every
// subcommand shares, and the IO every command uses.
type globalFlags struct {
	// readOnlyViews: the command reads views but does not create or drop
	// them (engine mcp).
	readOnlyViews bool
	io            *IO

	providers      []string
	baseURLs       []string
	params         []string
	auth           string
	maxPages       int
	pageConc       int
	concurrency    int
	maxRequests    int
	retryMax       int
	maxRetryWait   time.Duration
	requestTimeout time.Duration
	queryTimeout   time.Duration
	maxBodyBytes   int64
	maxValueBytes  int
	cacheTTL       time.Duration
	noCache        bool
	cacheDir       string
	cacheMaxBytes  int64
	debug          bool
	rate           string
	searchRate     string
	codeSearchRate string
	maxConc        int
	governor       bool
	state          string
	stateTimeout   time.Duration
	stateCacheMax  int64

	// given are the providers of --provider (engineOptions), whose files
	// newEngine checks at start.
	given []registry.Source

	// shared is the --state connection, opened once (state.go).
	shared    *redisstate.State
	stateErr  error
	stateOnce sync.Once

	// origins says where each flag set other than on the command line got
	// its value: its environment variable, or the config file and key
	// (where, recordOrigins).
	origins map[string]string

	// cacheWarned makes an unusable cache directory one warning per run,
	// however many engines the command builds.
	cacheWarned sync.Once
}

// authEnvHelp names the variables GitHub's credentials come from without
// --auth (the github profile's auth section: registry/profiles/github.json).
const authEnvHelp = "env GITHUB_TOKEN or GH_TOKEN as bearer; a GitHub App from env GITHUB_APP_ID, GITHUB_APP_INSTALLATION_ID, GITHUB_APP_PRIVATE_KEY_PATH or GITHUB_APP_PRIVATE_KEY, GITHUB_APP_DEFAULT_INSTALLATION, which win over GITHUB_TOKEN"

// newRootCmd builds the command tree on g.io: every subcommand is added
// here. Its environment variables come from envTable (env.go).
func newRootCmd(g *globalFlags) *cobra.Command {
	root := &cobra.Command{
		Use:           "engine",
		Short:         "SQL over REST APIs described by OpenAPI (GitHub first)",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionString(),
		Long: `engine runs SQL SELECTs over provider REST APIs. Tables are
provider.service.resource (e.g. github.repos.repos); WHERE predicates bind
the API's required parameters (WHERE org = 'acme').

Credentials: GITHUB_TOKEN or GH_TOKEN (bearer), a GitHub App's GITHUB_APP_*
variables, or --auth.`,
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetIn(g.io.In)
	root.SetOut(g.io.Out)
	root.SetErr(g.io.Err)
	f := root.PersistentFlags()
	f.StringArrayVar(&g.providers, "provider", nil, "add a provider from an OpenAPI 3 document, with an optional profile: NAME=PATH[,profile=FILE] (repeatable)")
	f.StringArrayVar(&g.baseURLs, "base-url", nil, "override a provider's base URL: NAME=URL (repeatable; env ENGINE_BASE_URL_<NAME>)")
	f.StringArrayVar(&g.params, "param", nil, "set a header or query parameter once for every method of a provider that takes it, instead of in every WHERE: NAME.PARAM=VALUE, e.g. xero.xero-tenant-id=... (repeatable; config file: param: {xero.xero-tenant-id: ...})")
	f.StringVar(&g.auth, "auth", "", `auth per provider, stackql style: '{"github":{"type":"bearer","credentialsenvvar":"GITHUB_TOKEN"}}', '{"github":{"type":"null_auth"}}' or a GitHub App '{"github":{"type":"app","app_id":123,"private_key_path":"app.pem"}}' (default for github: `+authEnvHelp+`)`)
	f.IntVar(&g.maxPages, "max-pages", client.DefaultMaxPages, "most pages one request may follow; hitting it is an error, never a silent cut (-1: no bound)")
	f.IntVar(&g.pageConc, "page-concurrency", 0, "page requests in flight or waiting to be loaded once a list's last page is known, all lists together (0: as many as --max-concurrency)")
	f.IntVar(&g.concurrency, "concurrency", 0, "concurrent requests of one IN (...) fan-out (0: as many as --max-concurrency)")
	f.IntVar(&g.maxRequests, "max-requests", engine.DefaultMaxRequests, "most requests one statement may send, pages and retries included: a statement estimated to need more is refused before any request, and one that reaches it is stopped (-1: no bound)")
	f.IntVar(&g.retryMax, "retry-max", client.DefaultRetryMax, "retries of a retryable failure (429, 5xx, rate limit, reset; 0: none)")
	f.DurationVar(&g.maxRetryWait, "max-retry-wait", client.DefaultMaxRetryWait, "total time one request may spend waiting to retry")
	f.DurationVar(&g.requestTimeout, "request-timeout", client.DefaultRequestTimeout, "timeout of one HTTP request")
	f.DurationVar(&g.queryTimeout, "query-timeout", 120*time.Second, "timeout of one statement (0: none)")
	f.Int64Var(&g.maxBodyBytes, "max-body-bytes", client.DefaultMaxBodyBytes, "largest response body accepted; a larger one is an error")
	f.IntVar(&g.maxValueBytes, "max-value-bytes", store.DefaultMaxValueBytes, "longest value, stored row or result row of a statement in bytes (SQLite's length limit); a longer one is an SQL error")
	f.DurationVar(&g.cacheTTL, "cache-ttl", httpcache.DefaultTTL, "serve cached responses this long without asking the provider (opt-in, may be stale; never used by check); 0: revalidate every cached response (If-None-Match, a 304 costs no rate limit)")
	f.BoolVar(&g.noCache, "no-cache", false, "do not use the response cache for this run")
	f.StringVar(&g.cacheDir, "cache-dir", "", "response cache directory; entries live in its engine-http-v1 subdirectory (default: the user cache dir, engine/http)")
	f.Int64Var(&g.cacheMaxBytes, "cache-max-bytes", httpcache.DefaultMaxBytes, "bound of the response cache's entries in bytes; the least recently used go first")
	f.StringVar(&g.rate, "rate", "", "requests of one credential in any minute across the process, or N/DURATION (e.g. 60/1s); sent at once while the window has room; default: the provider profile's (GitHub: 900/min, its secondary limit); 0 turns pacing off")
	f.StringVar(&g.searchRate, "search-rate", "", "search requests in any minute, or N/DURATION (default: the profile's; GitHub: 30)")
	f.StringVar(&g.codeSearchRate, "code-search-rate", "", "code search requests in any minute, or N/DURATION (default: the profile's; GitHub: 10)")
	f.BoolVar(&g.governor, "governor", true, "pace and bound requests per credential under the provider's rate limits (--rate, --max-concurrency), pause every request after a secondary limit, refuse statements the budget cannot cover; off only for tests and private APIs without limits")
	f.IntVar(&g.maxConc, "max-concurrency", client.DefaultMaxConcurrency, "requests in flight per credential across the process (all fan-outs, pages, sessions); -1: no cap")
	f.StringVar(&g.state, "state", "", "share rate-limit state, the response cache and MCP kept results with other processes: redis://HOST:PORT/DB (default: none, this process alone; docs/orgscale.md)")
	f.DurationVar(&g.stateTimeout, "state-timeout", providers.SharedStateTimeout, "base bound of one call to --state; it grows up to 10 times with the server's slowest recent answers, so a busy server does not push the process out of the shared governor")
	f.Int64Var(&g.stateCacheMax, "state-cache-max-bytes", 0, "bound of the response cache's entries in --state, one setting for every process: given, it is stored there for all; default: the stored one, else 1 GiB (--cache-max-bytes bounds only this process's directory)")
	f.BoolVar(&g.debug, "debug", false, "log requests (never credentials) to stderr")

	var cpuProfile string
	var stopProfile func()
	f.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to FILE (for performance work)")
	_ = f.MarkHidden("cpuprofile")
	var configPath string
	f.StringVar(&configPath, "config", "", "config file of flag settings (default: the user config dir's engine/config.yaml)")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		onCommandLine := changedFlags(cmd)
		envGiven, err := applyEnv(cmd, g.io.LookupEnv)
		if err != nil {
			return settingsError(cmd, err)
		}
		g.origins = map[string]string{}
		for name := range changedFlags(cmd) {
			if !onCommandLine[name] {
				g.origins[name] = envNameOf(name)
			}
		}
		explicit := configPath != ""
		if !explicit {
			configPath = defaultConfigPath(g.io.UserConfigDir)
		}
		fromConfig, err := applyConfig(cmd, configPath, explicit, envGiven)
		if err != nil {
			return settingsError(cmd, err)
		}
		for name, key := range fromConfig {
			g.origins[name] = fmt.Sprintf("config %s: %s", configPath, key)
		}
		if err := checkBounds(cmd, g.where); err != nil {
			return settingsError(cmd, err)
		}
		if cpuProfile == "" {
			return nil
		}
		out, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(out); err != nil {
			return err
		}
		stopProfile = func() { pprof.StopCPUProfile(); out.Close() }
		return nil
	}
	root.PersistentPostRun = func(cmd *cobra.Command, args []string) {
		if stopProfile != nil {
			stopProfile()
		}
	}

	root.AddCommand(newExecCmd(g), newShellCmd(g), newMCPCmd(g), newPGCmd(g), newCheckCmd(g), newRegistryCmd(g), newVersionCmd(g))
	documentEnv(root)
	return root
}

// settingsError is a bad setting (flag, variable or config key) found
// before cmd ran: a usage error, exit 1, but exit 2 for check, whose 1
// says a control failed (docs/check.md).
func settingsError(cmd *cobra.Command, err error) error {
	if commandPath(cmd) == "check" {
		return checkExit(check.ExitError, "%v", err)
	}
	return usageError("%v", err)
}

// changedFlags is the set of cmd's flags that have a value other than
// their default.
func changedFlags(cmd *cobra.Command) map[string]bool {
	out := map[string]bool{}
	cmd.Flags().Visit(func(f *pflag.Flag) { out[f.Name] = true })
	return out
}

// where names the setting of flag as the user gave it, for errors about
// its value: "--flag" on the command line, its environment variable, or
// "config FILE: key" for the config file.
func (g *globalFlags) where(flag string) string {
	if o := g.origins[flag]; o != "" {
		return o
	}
	return "--" + flag
}

// fromCommandLine reports whether flag was given on the command line
// (not by its environment variable or the config file).
func (g *globalFlags) fromCommandLine(cmd *cobra.Command, flag string) bool {
	return cmd.Flags().Changed(flag) && g.origins[flag] == ""
}

// engineOptions turns flags and environment into engine options.
func (g *globalFlags) engineOptions() (engine.Options, error) {
	store, stored := openRegistry(g.io.Err)
	sources := append(registry.Embedded(), stored...) // a pulled provider overrides the embedded one
	for _, p := range g.providers {
		src, err := parseProviderFlag(p)
		if err != nil {
			if w := g.where("provider"); w != "--provider" {
				err = fmt.Errorf("%s: %s", w, strings.TrimPrefix(err.Error(), "--provider "))
			}
			return engine.Options{}, err
		}
		sources = append(sources, src)
		g.given = append(g.given, src)
	}
	base := map[string]string{}
	for _, src := range sources {
		if src.Stored != nil && src.Stored.BaseURL != "" {
			base[src.Name] = src.Stored.BaseURL // registry add --base-url
		}
		env := "ENGINE_BASE_URL_" + strings.ToUpper(src.Name)
		if v := g.io.Getenv(env); v != "" {
			if err := checkBaseURL(env, v); err != nil {
				return engine.Options{}, err
			}
			base[src.Name] = v
		}
	}
	for _, b := range g.baseURLs {
		name, u, ok := strings.Cut(b, "=")
		if !ok || name == "" || u == "" {
			return engine.Options{}, fmt.Errorf("%s %q: expected NAME=URL, e.g. --base-url github=https://ghe.acme-corp.dev/api/v3 (in the config file, base-url: {github: https://ghe.acme-corp.dev/api/v3})", g.where("base-url"), result.SanitizeText(b))
		}
		if err := checkBaseURL(g.where("base-url"), u); err != nil {
			return engine.Options{}, err
		}
		base[strings.ToLower(name)] = u
	}
	auth, err := parseAuth(g.auth, g.where("auth"))
	if err != nil {
		return engine.Options{}, err
	}
	params, err := parseParams(g.params, g.where("param"))
	if err != nil {
		return engine.Options{}, err
	}
	opts := engine.Options{
		Sources:     sources,
		BaseURLs:    base,
		Auth:        auth,
		Params:      params,
		Getenv:      g.io.Getenv,
		Concurrency: g.concurrency,
		MaxRequests: g.maxRequests,
		Client: client.Options{
			MaxPages:        unbounded(g.maxPages, math.MaxInt),
			PageConcurrency: g.pageConc,
			RetryMax:        g.retryMax,
			MaxRetryWait:    g.maxRetryWait,
			RequestTimeout:  g.requestTimeout,
			MaxBodyBytes:    g.maxBodyBytes,
		},
		QueryTimeout:  g.queryTimeout,
		MaxValueBytes: g.maxValueBytes,
		Store:         store,
		ReadOnlyViews: g.readOnlyViews,
	}
	if g.retryMax == 0 {
		opts.Client.RetryMax = -1
	}
	if opts.Concurrency <= 0 {
		// A fan-out may use the credential's whole budget of requests in
		// flight; the governor holds the process to it.
		opts.Concurrency = client.DefaultMaxConcurrency
		if g.governor && g.maxConc > 0 {
			opts.Concurrency = g.maxConc
		}
	}
	gov, err := g.governorOptions()
	if err != nil {
		return engine.Options{}, err
	}
	opts.Client.Governor = gov
	if !g.noCache {
		opts.Client.Cache = g.openCache()
	}
	if err := g.shareState(&opts); err != nil {
		return engine.Options{}, err
	}
	if g.debug {
		opts.Client.Logf = func(format string, args ...any) { fmt.Fprintf(g.io.Err, "debug: "+format+"\n", args...) }
	}
	opts.Warnf = func(format string, args ...any) {
		fmt.Fprintln(g.io.Err, "warning: "+result.SanitizeText(fmt.Sprintf(format, args...)))
	}
	return opts, nil
}

// checkProviderFiles says at start that a provider's document or profile
// file, given explicitly, cannot be read (rather than when a statement
// first names the provider).
func checkProviderFiles(src registry.Source) error {
	for _, f := range []struct{ what, path string }{{"the document", src.Path}, {"the profile", src.Profile}} {
		if f.path == "" {
			continue
		}
		fi, err := os.Stat(f.path)
		switch {
		case err != nil:
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return fmt.Errorf("%s %s cannot be read: %v", f.what, f.path, err)
		case fi.IsDir():
			return fmt.Errorf("%s %s is a directory; give a file", f.what, f.path)
		}
	}
	return nil
}

// openCache opens the response cache, or returns nil (no cache) after one
// warning on stderr when the directory cannot be used: a cache problem
// never stops a command.
func (g *globalFlags) openCache() *httpcache.Cache {
	if g.cacheTTL < 0 {
		g.cacheTTL = 0
	}
	dir := g.cacheDir
	var err error
	if dir == "" {
		dir, err = httpcache.DefaultDir()
	}
	var cache *httpcache.Cache
	if err == nil {
		cache, err = httpcache.Open(dir, g.cacheTTL, g.cacheMaxBytes)
	}
	if err != nil {
		g.cacheWarned.Do(func() {
			fmt.Fprintf(g.io.Err, "warning: response cache disabled: %s\n", advice.WithSetting(err))
		})
		return nil
	}
	return cache
}

// newEngine builds the engine from flags and environment; a bad option is
// a usage error (exit 1).
func (g *globalFlags) newEngine() (*engine.Engine, engine.Options, error) {
	opts, err := g.engineOptions()
	if err != nil {
		return nil, opts, usageError("%v", err)
	}
	eng, err := engine.New(opts)
	if err != nil {
		return nil, opts, usageError("%s", advice.WithSetting(err))
	}
	for _, src := range g.given {
		if err := checkProviderFiles(src); err != nil {
			// Said as the first statement naming the provider would say it.
			e := engine.Classify(&catalog.Error{Kind: "plan", Setting: "provider:" + src.Name, Err: fmt.Errorf("provider %s: %v", src.Name, err)})
			return nil, opts, &exitError{code: exitCode(e), msg: advice.Explain(e, advice.Credentials{}, time.Now()), err: e}
		}
	}
	if err := g.checkAppCredentials(eng, opts); err != nil {
		return nil, opts, usageError("%s", err)
	}
	return eng, opts, nil
}

// checkAppCredentials resolves, before any statement, the app credentials
// the user gave explicitly (an app entry of the auth setting, or a built-in
// provider's app variables such as GITHUB_APP_ID): a key file that is
// missing or not a key is a mistake of the command line, said at start
// rather than by the first statement that reaches the provider.
func (g *globalFlags) checkAppCredentials(eng *engine.Engine, opts engine.Options) error {
	builtin := map[string]bool{}
	for _, src := range opts.Sources {
		builtin[src.Name] = src.Kind == registry.KindIndex
	}
	for _, name := range eng.Catalog().Names() {
		a, inAuth := opts.Auth[name]
		where := g.where("auth") + " " + name
		switch {
		case inAuth && a.Type == providers.AuthApp:
		case !inAuth && builtin[name]:
			set := g.appEnvSet(eng, name)
			if len(set) == 0 {
				continue
			}
			where = fmt.Sprintf("provider %s (from %s)", name, strings.Join(set, ", "))
		default:
			continue
		}
		if _, _, err := eng.Catalog().Credentials(name, opts.Auth, g.io.Getenv); err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
	}
	return nil
}

// appEnvSet is the variables of provider name's app credentials (its
// profile's auth.app.env) that are set, for a provider that reads them.
func (g *globalFlags) appEnvSet(eng *engine.Engine, name string) []string {
	p, err := eng.Catalog().Provider(name)
	if err != nil || p.Profile == nil || p.Profile.AppAuth() == nil || p.Profile.AppAuth().Env == nil || len(p.TokenEnv) == 0 {
		return nil
	}
	e := p.Profile.AppAuth().Env
	var set []string
	for _, v := range []string{e.AppID, e.InstallationID, e.PrivateKeyPath, e.PrivateKey, e.DefaultInstallation} {
		if v != "" && strings.TrimSpace(g.io.Getenv(v)) != "" {
			set = append(set, v)
		}
	}
	return set
}

// governorOptions reads --rate, --search-rate, --code-search-rate and
// --max-concurrency. A rate of 0 turns that pacing off; a negative
// --max-concurrency removes the cap.
func (g *globalFlags) governorOptions() (*client.GovernorOptions, error) {
	if !g.governor {
		return nil, nil
	}
	o := &client.GovernorOptions{MaxConcurrency: g.maxConc}
	if o.MaxConcurrency == 0 {
		return nil, fmt.Errorf("%s 0: give a positive number of requests in flight, or -1 for no cap", g.where("max-concurrency"))
	}
	for _, x := range []struct {
		flag, v string
		r       *client.Rate
	}{{g.where("rate"), g.rate, &o.Rate}, {g.where("search-rate"), g.searchRate, &o.SearchRate}, {g.where("code-search-rate"), g.codeSearchRate, &o.CodeSearchRate}} {
		if strings.TrimSpace(x.v) == "" {
			continue // the provider profile's window
		}
		r, err := client.ParseRate(x.v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", x.flag, err)
		}
		if r.N == 0 {
			r.N = -1 // off
		}
		*x.r = r
	}
	return o, nil
}
