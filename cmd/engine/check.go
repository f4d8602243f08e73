package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/cmd/engine/check"
	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
)

type checkFlags struct {
	packs     []string
	listPacks bool
	print     bool
	waivers   string
	only      []string
	output    string
	parallel  int
	maxRows   int
	vars      []string
	// runTimeout bounds the whole run (0: derived from the estimate).
	runTimeout time.Duration
	// allowFileCreds lets the control file's defaults name credentials
	// variables and receive credentials at a base URL it chooses.
	allowFileCreds bool
}

func newCheckCmd(g *globalFlags) *cobra.Command {
	cf := &checkFlags{}
	cmd := &cobra.Command{
		Use:   "check [CONTROLS.yaml ...] [--pack NAME ...] [--only ID,...] [-o text|json|junit|github|sarif] [--parallel N] [--var NAME=VALUE] [--waivers FILE]",
		Short: "Run compliance controls (exit 0 all pass, 1 any fail, 2 any error: an error is never a pass)",
		Long: `check runs the controls of a YAML file. Each control is a SELECT and an
expectation (empty by default: "this query must return no rows") and ends in
exactly one of pass, fail or error. A provider error (403, rate limit,
timeout...) is an error, never a pass.

The whole file is validated first (unknown keys, duplicate ids, missing or
unplannable SQL, unset variables); any problem is reported with its line and
nothing runs (exit 2). Packs of controls are embedded (--list-packs); a pack
and files may be combined, and --print writes a pack to start a file of
your own. See docs/check.md.`,
		Example: `  engine check --pack github --var org=myorg -o sarif > check.sarif
  engine check --list-packs
  engine check examples/controls/github-org.yaml --var org=myorg
  engine check controls.yaml --only no-public-repos,members-2fa -o junit > check.xml
  engine check controls.yaml -o github   # in GitHub Actions`,
		// Nothing is evaluated on a usage mistake (a bad flag, no file):
		// exit 2 as for any other, never 1, which says a control failed.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && len(cf.packs) == 0 && !cf.listPacks {
				return checkExit(check.ExitError, "engine check takes control files, --pack NAME, or both (engine check --list-packs lists the packs)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if cf.listPacks {
				return listPacks(cmd.OutOrStdout())
			}
			if cf.print {
				return printPacks(cmd.OutOrStdout(), cf.packs, args)
			}
			return runCheck(cmd, g, cf, args)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &checkFlagError{checkExit(check.ExitError, "%v (engine check --help lists the flags)", err).(*exitError)}
	})
	f := cmd.Flags()
	f.StringArrayVar(&cf.packs, "pack", nil, "run an embedded pack of controls (repeatable; --list-packs lists them)")
	f.BoolVar(&cf.listPacks, "list-packs", false, "list the embedded packs and exit")
	f.BoolVar(&cf.print, "print", false, "with --pack: write the pack's control file to stdout instead of running it")
	f.StringVar(&cf.waivers, "waivers", "", "a YAML file of waivers: rows of a control reported as waived, not failed (docs/check.md)")
	f.StringSliceVar(&cf.only, "only", nil, "run only these control ids (comma separated, repeatable)")
	f.StringVarP(&cf.output, "output", "o", "text", "report format: "+strings.Join(check.Formats, ", "))
	f.IntVar(&cf.parallel, "parallel", 4, "controls evaluated at once (they share one HTTP client per provider)")
	f.IntVar(&cf.maxRows, "max-rows", check.DefaultMaxRows, "offending rows shown per failed control (the total is always reported)")
	f.StringArrayVar(&cf.vars, "var", nil, "set a control-file variable: NAME=VALUE (repeatable; a list variable takes a,b,c)")
	f.DurationVar(&cf.runTimeout, "run-timeout", 0,
		"time limit of the whole run: controls still running or not started then end in error (timeout); 0: derived from the estimate (twice the time the rate windows need for the estimated requests, plus the longer of 5 minutes and --query-timeout per wave of --parallel controls; at most 6 hours)")
	f.BoolVar(&cf.allowFileCreds, "allow-file-credentials", false,
		"trust the control file's defaults with credentials: its auth may name a credentials variable, and its base_url receives them")
	return cmd
}

// checkExit ends check with code after printing msg; usage mistakes are
// exit 2 too, because nothing was evaluated.
// checkFlagError is a command line of check that did not parse: run
// writes it as the problems report of the format asked for, so a job that
// reads -o json or uploads -o sarif gets one (flagProblemReport).
type checkFlagError struct{ *exitError }

// flagProblemReport writes a check command line's flag error as the
// problems report of the output format its arguments ask for (none for
// text), and returns the error to exit with.
func flagProblemReport(x *IO, cmd *cobra.Command, args []string, err error) error {
	var fe *checkFlagError
	if !errors.As(err, &fe) {
		return err
	}
	format := outputArg(cmd, args)
	if format == "" || format == "text" || !slices.Contains(check.Formats, format) {
		return fe.exitError
	}
	msg := strings.TrimPrefix(fe.msg, "error: ")
	return reportProblems(x, x.Out, x.Err, format, "command line", []check.Problem{{Message: msg}})
}

func checkExit(code int, format string, args ...any) error {
	return &exitError{code: code, msg: "error: " + fmt.Sprintf(format, args...)}
}

// listPacks prints each embedded pack: name, controls, title.
func listPacks(out io.Writer) error {
	for _, name := range check.PackNames() {
		f, ps := check.LoadPack(name)
		if f == nil || len(ps) > 0 {
			return checkExit(check.ExitError, "pack %s: %d problems", name, len(ps))
		}
		fmt.Fprintf(out, "%s\t%d controls\t%s\n", name, len(f.Controls), f.Pack.Title)
	}
	return nil
}

// printPacks writes the packs' control files as shipped.
func printPacks(out io.Writer, names, files []string) error {
	if len(files) > 0 || len(names) == 0 {
		return checkExit(check.ExitError, "--print writes packs: give --pack NAME and no control file")
	}
	for i, name := range names {
		data, err := check.PackData(name)
		if err != nil {
			return checkExit(check.ExitError, "%v", err)
		}
		if i > 0 {
			fmt.Fprintln(out, "---")
		}
		if _, err := out.Write(data); err != nil {
			return err
		}
	}
	return nil
}

// loadSources loads the control files and packs of a run and combines
// them; a nil File means nothing can run (the problems say why).
func loadSources(paths, packs []string) (*check.File, []check.Problem) {
	var files []*check.File
	var problems []check.Problem
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			// A problem of the file like any other: the report formats say it too.
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			problems = append(problems, check.Problem{File: path, Message: "the control file cannot be read: " + err.Error()})
			continue
		}
		f, ps := check.Load(path, data)
		problems = append(problems, ps...)
		if f != nil {
			files = append(files, f)
		}
	}
	for _, name := range packs {
		f, ps := check.LoadPack(name)
		problems = append(problems, ps...)
		if f != nil {
			files = append(files, f)
		}
	}
	if len(files) == 0 || len(files) < len(paths)+len(packs) {
		return nil, problems
	}
	f, ps := check.Combine(files)
	return f, append(problems, ps...)
}

func runCheck(cmd *cobra.Command, g *globalFlags, cf *checkFlags, paths []string) error {
	start := time.Now() // --run-timeout bounds the whole run, from here
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if !slices.Contains(check.Formats, cf.output) {
		return checkExit(check.ExitError, "-o %q: use one of %s", cf.output, strings.Join(check.Formats, ", "))
	}
	if cf.parallel < 1 {
		return checkExit(check.ExitError, "--parallel %d: must be at least 1", cf.parallel)
	}
	cli, err := check.ParseVarFlags(cf.vars)
	if err != nil {
		return checkExit(check.ExitError, "%v", err)
	}
	var sources []string
	for _, p := range cf.packs {
		sources = append(sources, check.PackSource(p))
	}
	path := strings.Join(append(slices.Clone(paths), sources...), " + ")
	file, problems := loadSources(paths, cf.packs)
	if file == nil {
		return reportProblems(g.io, out, errOut, cf.output, path, problems)
	}
	var waivers *check.Waivers
	if cf.waivers != "" {
		w, ps := check.LoadWaivers(cf.waivers)
		problems = append(problems, ps...)
		problems = append(problems, w.Check(file.Controls)...)
		waivers = w
	}
	problems = append(problems, file.Resolve(cli)...)
	_, ps := check.Select(file, cf.only)
	problems = append(problems, ps...)
	if !cf.allowFileCreds {
		problems = append(problems, file.CredentialProblems()...)
	}

	// A compliance verdict is never based on an unrevalidated cache
	// entry, whatever --cache-ttl, ENGINE_CACHE_TTL or the config file say.
	g.cacheTTL = 0
	opts, err := g.engineOptions()
	if err != nil {
		return checkExit(check.ExitError, "%v", err)
	}
	// The endpoints depend on the providers' definitions: read them from
	// the catalog first, then make the engine on it with the merged ones.
	cat := engine.NewCatalog(opts)
	if err := cat.CheckEndpoints(opts.BaseURLs, opts.Auth); err != nil {
		return checkExit(check.ExitError, "%v", err)
	}
	var notices []string
	if ps := file.CheckProviders(cat.Names()); len(ps) > 0 {
		problems = append(problems, ps...)
	} else {
		// The flags' maps are the caller's: merge into copies.
		opts.BaseURLs, opts.Auth = maps.Clone(opts.BaseURLs), maps.Clone(opts.Auth)
		notices = mergeDefaults(&opts, file, cf.allowFileCreds, cat.Provider, g.io.Getenv)
	}
	opts.Catalog = cat
	opts.Views, opts.ViewsSource = file.Views, "control file"
	// A control's --query-timeout counts its own work, not its wait for
	// the window the controls share (docs/check.md, "Time limits").
	opts.QueueNotCounted = true
	eng, err := engine.New(opts)
	if err != nil {
		return checkExit(check.ExitError, "%v", err)
	}
	ctx, stop := stopContext()
	defer stop()
	problems = append(problems, check.Validate(ctx, eng, file)...)
	if len(problems) > 0 {
		return reportProblems(g.io, out, errOut, cf.output, path, problems)
	}
	for _, n := range notices {
		fmt.Fprintln(errOut, result.SanitizeText(n))
	}
	controls, _ := check.Select(file, cf.only)
	// The free probes before the controls (the token's scopes, the rate
	// limit) are part of the run: a --run-timeout bounds them too.
	probeCtx := ctx
	if cf.runTimeout > 0 {
		var cancel context.CancelFunc
		probeCtx, cancel = context.WithDeadline(ctx, start.Add(cf.runTimeout))
		defer cancel()
	}
	for _, n := range needsNotices(probeCtx, eng, controls) {
		fmt.Fprintln(errOut, result.SanitizeText(n))
	}

	// The whole file's budget, before anything is sent (budget.go).
	budget, prob := check.PlanBudget(probeCtx, eng, path, controls, cf.runTimeout, check.RunFloor(len(controls), cf.parallel, g.queryTimeout))
	if prob != nil {
		return reportProblems(g.io, out, errOut, cf.output, path, []check.Problem{*prob})
	}
	budget.Started = start
	if budget.Notice != "" {
		fmt.Fprintln(errOut, result.SanitizeText(budget.Notice))
	}
	budget.Notify = func(n string) { fmt.Fprintln(errOut, result.SanitizeText(n)) }

	check.SARIFToolVersion = strings.TrimPrefix(versionString(), "engine ")
	rep := check.Run(ctx, eng, path, controls, check.RunOptions{Parallel: cf.parallel, MaxRows: cf.maxRows, Secrets: eng.Secrets, Budget: budget})
	notes := waivers.Apply(rep, time.Now())
	for _, n := range notes {
		fmt.Fprintln(errOut, result.SanitizeText(n))
	}
	if err := check.Write(out, rep, cf.output); err != nil {
		return checkExit(check.ExitError, "writing the report: %v", err)
	}
	if cf.output == "github" {
		if err := appendStepSummary(g.io, func(w io.Writer) error { return check.WriteStepSummary(w, rep) }); err != nil {
			return checkExit(check.ExitError, "writing the job summary: %v", err)
		}
	}
	if code := rep.ExitCode(); code != check.ExitPass {
		return &exitError{code: code}
	}
	return nil
}

// needsNotices checks the controls' declared needs (needs:) against the
// credential before anything runs: one request to GitHub's /rate_limit
// (free) reads the classic token's X-OAuth-Scopes, and each control whose
// scopes the token lacks gets a notice. A credential whose permissions
// cannot be listed (an App, a fine-grained token) gets one notice saying
// so. Nothing when no control declares needs.
func needsNotices(ctx context.Context, eng *engine.Engine, controls []*check.Control) []string {
	if !slices.ContainsFunc(controls, func(c *check.Control) bool { return len(c.Needs) > 0 }) || !slices.Contains(eng.ProviderNames(), "github") {
		return nil
	}
	cl, err := eng.Client("github")
	if err != nil {
		return []string{"notice: the controls' needs were not checked: " + err.Error()}
	}
	scopes, listed, err := cl.GrantedScopes(ctx, "/rate_limit")
	switch {
	case err != nil:
		return []string{"notice: the controls' needs were not checked: " + err.Error()}
	case !listed:
		return []string{check.UnlistedNeedsNotice}
	}
	return check.NeedsNotices(controls, scopes)
}

// mergeDefaults puts the file's defaults under the flags and environment:
// a provider already given a base URL or auth there keeps it.
//
// A control file is repository content, so a base URL it chooses gets no
// credentials unless allowCreds (--allow-file-credentials): the provider's
// auth becomes null_auth, and a notice (returned) says so when credentials
// were withheld. The provider's own base URL is not a choice of the file.
func mergeDefaults(opts *engine.Options, file *check.File, allowCreds bool, provider func(string) (*providers.Provider, error), getenv func(string) string) (notices []string) {
	d := file.Defaults
	if opts.BaseURLs == nil {
		opts.BaseURLs = map[string]string{}
	}
	if opts.Auth == nil {
		opts.Auth = map[string]providers.AuthConfig{}
	}
	names := make([]string, 0, len(d.BaseURL))
	for name := range d.BaseURL {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		u := d.BaseURL[name]
		if _, set := opts.BaseURLs[name]; set {
			continue
		}
		opts.BaseURLs[name] = u
		if allowCreds {
			continue
		}
		p, err := provider(name)
		if err == nil && strings.TrimRight(p.BaseURL, "/") == strings.TrimRight(u, "/") {
			continue
		}
		var cfg *providers.AuthConfig
		if a, ok := opts.Auth[name]; ok {
			cfg = &a
		} else if a, ok := d.Auth[name]; ok {
			cfg = &a
		}
		var h *providers.Header
		if p != nil {
			h = &p.Header
		}
		creds, err := h.Credentials(cfg, getenv)
		opts.Auth[name] = providers.AuthConfig{Type: providers.AuthNull}
		if err != nil || !creds.Anonymous() {
			notices = append(notices, fmt.Sprintf("warning: credentials withheld from %s: its base URL %s comes from the control file (%s:%d, defaults.base_url.%s), "+
				"and a control file may not send credentials to a host of its choosing; its requests are unauthenticated. "+
				"Give the URL with --base-url %s=URL or ENGINE_BASE_URL_%s, or pass %s if you trust this file.",
				name, u, result.Sanitize(file.Name), d.Line("base_url."+name), name, name, strings.ToUpper(name), check.AllowFileCredentialsFlag))
		}
	}
	for name, a := range d.Auth {
		if _, set := opts.Auth[name]; !set {
			opts.Auth[name] = a
		}
	}
	return notices
}

// reportProblems prints every problem (stderr always; the report format on
// stdout too) and exits 2: nothing was evaluated.
func reportProblems(x *IO, out, errOut io.Writer, format, file string, ps []check.Problem) error {
	check.SortProblems(ps)
	for _, p := range ps {
		fmt.Fprintln(errOut, result.SanitizeText(p.String()))
	}
	switch format {
	case "json":
		_ = check.WriteProblemsJSON(out, file, ps)
	case "junit":
		_ = check.WriteProblemsJUnit(out, file, ps)
	case "sarif":
		_ = check.WriteProblemsSARIF(out, file, ps)
	case "github":
		_ = check.WriteProblemsGitHub(out, ps)
		_ = appendStepSummary(x, func(w io.Writer) error { return check.WriteProblemsSummary(w, file, ps) })
	}
	return &exitError{code: check.ExitError, msg: fmt.Sprintf("%d problem%s in %s; no control was run", len(ps), map[bool]string{true: "", false: "s"}[len(ps) == 1], result.Sanitize(file))}
}

// appendStepSummary appends to $GITHUB_STEP_SUMMARY when it is set.
func appendStepSummary(x *IO, write func(io.Writer) error) error {
	path := x.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
