package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/cmd/engine/internal/check"
	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/providers"
)

func init() { subcommands = append(subcommands, newCheckCmd) }

type checkFlags struct {
	only     []string
	output   string
	parallel int
	maxRows  int
	vars     []string
}

func newCheckCmd(g *globalFlags) *cobra.Command {
	cf := &checkFlags{}
	cmd := &cobra.Command{
		Use:   "check CONTROLS.yaml [--only ID,...] [-o text|json|junit|github] [--parallel N] [--var NAME=VALUE]",
		Short: "Run compliance controls (exit 0 all pass, 1 any fail, 2 any error: an error is never a pass)",
		Long: `check runs the controls of a YAML file. Each control is a SELECT and an
expectation (empty by default: "this query must return no rows") and ends in
exactly one of pass, fail or error. A provider error (403, rate limit,
timeout...) is an error, never a pass.

The whole file is validated first (unknown keys, duplicate ids, missing or
unplannable SQL, unset variables); any problem is reported with its line and
nothing runs (exit 2). See docs/check.md.`,
		Example: `  engine check examples/controls/github-org.yaml --var org=myorg
  engine check controls.yaml --only no-public-repos,members-2fa -o junit > check.xml
  engine check controls.yaml -o github   # in GitHub Actions`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd, g, cf, args[0])
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&cf.only, "only", nil, "run only these control ids (comma separated, repeatable)")
	f.StringVarP(&cf.output, "output", "o", "text", "report format: "+strings.Join(check.Formats, ", "))
	f.IntVar(&cf.parallel, "parallel", 4, "controls evaluated at once (they share one HTTP client per provider)")
	f.IntVar(&cf.maxRows, "max-rows", check.DefaultMaxRows, "offending rows shown per failed control (the total is always reported)")
	f.StringArrayVar(&cf.vars, "var", nil, "set a control-file variable: NAME=VALUE (repeatable; a list variable takes a,b,c)")
	return cmd
}

// checkExit ends check with code after printing msg; usage mistakes are
// exit 2 too, because nothing was evaluated.
func checkExit(code int, format string, args ...any) error {
	return &exitError{code: code, msg: "error: " + fmt.Sprintf(format, args...)}
}

func runCheck(cmd *cobra.Command, g *globalFlags, cf *checkFlags, path string) error {
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
	data, err := os.ReadFile(path)
	if err != nil {
		return checkExit(check.ExitError, "%v", err)
	}
	file, problems := check.Load(path, data)
	if file == nil {
		return reportProblems(out, errOut, cf.output, path, problems)
	}
	problems = append(problems, file.Resolve(cli)...)
	_, ps := check.Select(file, cf.only)
	problems = append(problems, ps...)

	// A compliance verdict is never based on an unrevalidated cache
	// entry, whatever --cache-ttl, ENGINE_CACHE_TTL or the config file say.
	g.cacheTTL = 0
	opts, err := g.engineOptions()
	if err != nil {
		return checkExit(check.ExitError, "%v", err)
	}
	probe, err := engine.New(opts)
	if err != nil {
		return checkExit(check.ExitError, "%v", err)
	}
	if ps := file.CheckProviders(probe.ProviderNames()); len(ps) > 0 {
		problems = append(problems, ps...)
	} else {
		mergeDefaults(&opts, file.Defaults)
	}
	eng, err := engine.New(opts)
	if err != nil {
		return checkExit(check.ExitError, "%v", err)
	}
	problems = append(problems, check.Validate(eng, file)...)
	if len(problems) > 0 {
		return reportProblems(out, errOut, cf.output, path, problems)
	}
	controls, _ := check.Select(file, cf.only)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep := check.Run(ctx, eng, path, controls, check.RunOptions{Parallel: cf.parallel, MaxRows: cf.maxRows, Secrets: eng.Secrets})
	if err := check.Write(out, rep, cf.output); err != nil {
		return checkExit(check.ExitError, "writing the report: %v", err)
	}
	if cf.output == "github" {
		if err := appendStepSummary(func(w io.Writer) error { return check.WriteStepSummary(w, rep) }); err != nil {
			return checkExit(check.ExitError, "writing the job summary: %v", err)
		}
	}
	if code := rep.ExitCode(); code != check.ExitPass {
		return &exitError{code: code}
	}
	return nil
}

// mergeDefaults puts the file's defaults under the flags and environment:
// a provider already given a base URL or auth there keeps it.
func mergeDefaults(opts *engine.Options, d check.Defaults) {
	for name, u := range d.BaseURL {
		if _, set := opts.BaseURLs[name]; !set {
			if opts.BaseURLs == nil {
				opts.BaseURLs = map[string]string{}
			}
			opts.BaseURLs[name] = u
		}
	}
	for name, a := range d.Auth {
		if _, set := opts.Auth[name]; !set {
			if opts.Auth == nil {
				opts.Auth = map[string]providers.AuthConfig{}
			}
			opts.Auth[name] = a
		}
	}
}

// reportProblems prints every problem (stderr always; the report format on
// stdout too) and exits 2: nothing was evaluated.
func reportProblems(out, errOut io.Writer, format, file string, ps []check.Problem) error {
	check.SortProblems(ps)
	for _, p := range ps {
		fmt.Fprintln(errOut, p.String())
	}
	switch format {
	case "json":
		_ = check.WriteProblemsJSON(out, file, ps)
	case "junit":
		_ = check.WriteProblemsJUnit(out, file, ps)
	case "github":
		_ = check.WriteProblemsGitHub(out, ps)
		_ = appendStepSummary(func(w io.Writer) error { return check.WriteProblemsSummary(w, file, ps) })
	}
	return &exitError{code: check.ExitError, msg: fmt.Sprintf("%d problem%s in %s; no control was run", len(ps), map[bool]string{true: "", false: "s"}[len(ps) == 1], file)}
}

// appendStepSummary appends to $GITHUB_STEP_SUMMARY when it is set.
func appendStepSummary(write func(io.Writer) error) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
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
