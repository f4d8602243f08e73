package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/cmd/engine/advice"
	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/sqlfront"
)

func newExecCmd(g *globalFlags) *cobra.Command {
	var output, file string
	var showStats, csvSafe bool
	var runTimeout time.Duration
	cmd := &cobra.Command{
		Use:   `exec [-o ` + result.FormatNames("|") + `] "SQL" | -f FILE`,
		Short: "Run one statement, or a script of several separated by ';', and print the results (exit 0 ok, 1 usage/SQL/plan error, 2 provider or network error)",
		Example: `  engine exec "SELECT name, private FROM github.repos.repos WHERE org = 'acme' ORDER BY name"
  engine exec -o json -f query.sql
  engine exec -f script.sql    # several statements: run in order, stopping at the first error`,
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := statementText(args, file, cmd.InOrStdin())
			if err != nil {
				return usageError("%v", err)
			}
			format, eng, opts, err := g.newEngineFor(output)
			if err != nil {
				return err
			}
			if csvSafe && format.Name != "csv" && format.Name != "tsv" {
				return usageError("--csv-safe applies to -o csv and -o tsv, not %s", format.Name)
			}
			ctx, stop := stopContext()
			defer stop()
			width := 0
			if format.Name == "table" {
				width = g.io.Width(cmd.OutOrStdout())
			}
			// A file (-f) may be a script of several statements; an
			// argument is one statement.
			if pieces, err := sqlfront.Split(text); file != "" && err == nil && len(pieces) > 1 {
				ctx, cancel := scriptBounded(ctx, runTimeout)
				defer cancel()
				return runScript(ctx, cmd, g, eng, opts, pieces, format.Name, width, csvSafe, showStats || g.debug)
			}
			// Rows stream from SQLite to stdout (a table holds its first
			// result.TableBufferRows rows, at most result.TableBufferBytes, to size its columns).
			out, err := result.NewStreamWith(cmd.OutOrStdout(), format.Name, result.EncodeOptions{Width: width, SpreadsheetSafe: csvSafe})
			if err != nil {
				return usageError("%v", err)
			}
			notice := noticeWriter(cmd.ErrOrStderr(), output == "json")
			res, writeErr, err := eng.QueryInto(ctx, text, out, engine.QueryOptions{Notice: notice})
			if writeErr != nil {
				return &exitError{code: exitProvider, msg: "error: writing output: " + writeErr.Error()}
			}
			if err != nil {
				return reportError(cmd.ErrOrStderr(), g.io, eng, opts, engine.Classify(err), output == "json")
			}
			if res.Notice != "" {
				notice(res.Notice)
			}
			if wide := out.Overflow(); wide > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: the table is %d characters wide, the terminal %d: -o line prints one \"column = value\" line per cell, or name fewer columns\n", wide, width)
			}
			if showStats || g.debug {
				writeStats(cmd.ErrOrStderr(), res, out.Rows(), output == "json")
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", result.DefaultFormat, "output format: "+result.FormatHelp())
	cmd.Flags().StringVarP(&file, "file", "f", "", "read the statement, or a script of statements separated by ';', from FILE (- for stdin)")
	cmd.Flags().BoolVar(&csvSafe, "csv-safe", false, csvSafeHelp)
	cmd.Flags().DurationVar(&runTimeout, "run-timeout", 0, "with -f, time limit of the whole script: the statement running then ends in error (timeout) and the rest do not run (0: none; each statement has --query-timeout)")
	cmd.Flags().BoolVar(&showStats, "stats", false, `print what the statement cost to stderr: rows, HTTP requests, pages fetched, revalidated (304), served from the cache or shared with an identical request, time and rate-limit budget (with -o json as {"stats":{...}}; also with --debug)`)
	return cmd
}

// csvSafeHelp is the help of exec's and the shell's --csv-safe.
const csvSafeHelp = "for -o csv and tsv opened in a spreadsheet: a text value starting with =, +, -, @, tab or carriage return gets a leading ' so that it is not run as a formula (OWASP's rule; default: values exact)"

func statementText(args []string, file string, stdin io.Reader) (string, error) {
	switch {
	case file != "" && len(args) > 0:
		return "", fmt.Errorf("give the statement as an argument or with -f, not both")
	case file == "-":
		b, err := io.ReadAll(stdin)
		return withoutBOM(b), err
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", err
		}
		return withoutBOM(b), nil
	case len(args) == 1:
		return args[0], nil
	case len(args) > 1:
		return "", fmt.Errorf("expected one statement in one argument; quote it: engine exec \"SELECT ...\"")
	}
	return "", fmt.Errorf(`no statement: engine exec "SELECT ..." or engine exec -f file.sql (-f - reads it from stdin: echo "SELECT 1" | engine exec -f -)`)
}

// withoutBOM is a file's text without the byte-order mark that editors
// saving "UTF-8 with BOM" put first; a mark anywhere else stays, and the
// engine refuses it by name.
func withoutBOM(b []byte) string {
	return strings.TrimPrefix(string(b), "\ufeff")
}

// reportError prints the error (as the error object of docs/architecture.md when asJSON,
// else in plain words with advice) and returns the exit error.
func reportError(w io.Writer, x *IO, eng *engine.Engine, opts engine.Options, e *engine.Error, asJSON bool) error {
	if asJSON {
		b, _ := json.Marshal(map[string]any{"error": e.Body()})
		fmt.Fprintln(w, string(b))
		return &exitError{code: exitCode(e)}
	}
	var cred advice.Credentials
	if e.Provider != nil {
		cred = credentialsOf(x, eng, opts, e.Provider.Provider)
	}
	return &exitError{code: exitCode(e), msg: advice.Explain(e, cred, time.Now())}
}

// credentialsOf tells error advice whether a provider's requests are
// anonymous and which variable would give them a token.
func credentialsOf(x *IO, eng *engine.Engine, opts engine.Options, name string) advice.Credentials {
	p, creds, err := eng.Catalog().Credentials(name, opts.Auth, x.Getenv)
	if p == nil {
		return advice.Credentials{}
	}
	c := advice.Credentials{}
	if len(p.TokenEnv) > 0 {
		c.TokenEnv = p.TokenEnv[0]
	}
	if p.Profile != nil {
		c.Advice = p.Profile.Credentials
		if app := p.Profile.AppAuth(); app != nil {
			c.App = app.Name
			if e := app.Env; e != nil && len(p.TokenEnv) > 0 { // read only for trusted definitions
				for _, v := range []string{e.AppID, e.PrivateKeyPath, e.PrivateKey} {
					if v != "" {
						c.AppEnv = append(c.AppEnv, v)
					}
				}
			}
		}
	}
	c.Anonymous = err == nil && creds.Anonymous()
	return c
}

// noticeWriter prints a statement's notice (a long wait: a search split
// past GitHub's 1,000-result cap waiting for the search rate window) to
// w, stderr, as its own line: "notice: ..." or, when the output is JSON,
// {"notice":"..."}.
func noticeWriter(w io.Writer, asJSON bool) func(string) {
	return func(msg string) {
		if asJSON {
			b, _ := json.Marshal(map[string]string{"notice": msg})
			fmt.Fprintln(w, string(b))
			return
		}
		fmt.Fprintln(w, "notice: "+msg)
	}
}

// writeStats prints what the statement cost (rows: the result's rows): one line, or {"stats":{...}}
// when the output is JSON.
func writeStats(w io.Writer, res *result.Result, rows int, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(map[string]any{"stats": res.Stats})
		fmt.Fprintln(w, string(b))
		return
	}
	st := res.Stats
	shared := ""
	if st.Shared > 0 {
		shared = fmt.Sprintf(", %d shared", st.Shared)
	}
	line := fmt.Sprintf("stats: %d rows; %d HTTP requests, %d pages (%d fetched, %d revalidated, %d from cache%s), %d ms",
		rows, st.HTTPRequests, st.Pages, st.Fetched, st.Revalidated, st.CacheHits, shared, st.ElapsedMS)
	if len(st.Methods) > 0 {
		line += "; read " + strings.Join(st.Methods, ", ")
	}
	if rl := res.Stats.RateLimitSummary(); rl != "" {
		line += "; " + rl
	}
	fmt.Fprintln(w, line)
}

// newEngineFor is newEngine for a command that prints results in the
// output format named by -o.
func (g *globalFlags) newEngineFor(output string) (*result.Format, *engine.Engine, engine.Options, error) {
	format, err := result.LookupFormat(output)
	if err != nil {
		return nil, nil, engine.Options{}, usageError("-o: %v", err)
	}
	eng, opts, err := g.newEngine()
	return format, eng, opts, err
}

// runScript runs a script's statements in order, each through the
// engine's Prepare and Run (Engine.QueryInto) like a statement of its
// own, printing each result as it comes: in table and the other text
// formats after a header line "-- statement N: TEXT", with -o json as one
// JSON array per statement, one after the other (jq reads them as a
// stream; no header, so the output stays JSON). It stops
// at the first error, which names the statement's number; the exit code
// is that error's.
func runScript(ctx context.Context, cmd *cobra.Command, g *globalFlags, eng *engine.Engine, opts engine.Options, pieces []sqlfront.Piece, format string, width int, csvSafe, stats bool) error {
	w := cmd.OutOrStdout()
	asJSON := format == "json"
	notice := noticeWriter(cmd.ErrOrStderr(), asJSON)
	for i, p := range pieces {
		if !asJSON {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "-- statement %d: %s\n", i+1, result.SanitizeText(oneLineText(p.Text, 100)))
		}
		out, err := result.NewStreamWith(w, format, result.EncodeOptions{Width: width, SpreadsheetSafe: csvSafe})
		if err != nil {
			return usageError("%v", err)
		}
		res, writeErr, err := eng.QueryInto(ctx, p.Text, out, engine.QueryOptions{Notice: notice})
		if writeErr != nil {
			return &exitError{code: exitProvider, msg: "error: writing output: " + writeErr.Error()}
		}
		if err != nil {
			e := *engine.Classify(err)
			if rt := scriptTimedOut(ctx); rt != nil {
				e = *rt
			}
			e.Err = fmt.Errorf("statement %d of %d: %w", i+1, len(pieces), e.Err)
			if !asJSON && i+1 < len(pieces) {
				fmt.Fprintf(cmd.ErrOrStderr(), "stopped at statement %d of %d; the statements after it did not run\n", i+1, len(pieces))
			}
			return reportError(cmd.ErrOrStderr(), g.io, eng, opts, &e, asJSON)
		}
		if res.Notice != "" {
			notice(res.Notice)
		}
		if stats {
			writeStats(cmd.ErrOrStderr(), res, out.Rows(), asJSON)
		}
	}
	return nil
}

// oneLineText is a statement on one line, cut after n bytes.
func oneLineText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

// scriptRunTimeout is the cause of a script stopped by --run-timeout.
type scriptRunTimeout struct{ limit time.Duration }

func (e *scriptRunTimeout) Error() string {
	return fmt.Sprintf("the script's time limit (--run-timeout %s) ran out; the statements after this one did not run. Raise --run-timeout, or split the script", e.limit)
}

// scriptBounded puts --run-timeout (0: none) on a script's context.
func scriptBounded(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, limit, &scriptRunTimeout{limit: limit})
}

// scriptTimedOut is the error of a statement that the script's time
// limit stopped, or nil.
func scriptTimedOut(ctx context.Context) *engine.Error {
	var rt *scriptRunTimeout
	if ctx.Err() == nil || !errors.As(context.Cause(ctx), &rt) {
		return nil
	}
	return &engine.Error{Kind: engine.KindTimeout, Err: rt, Pos: -1, Setting: engine.SettingRunTimeout}
}
