package shell

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/enginehq/engine/cmd/engine/advice"
	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
)

// Prompts.
const (
	Prompt             = "engine> "
	ContinuationPrompt = "   ...> "
)

// Engine is what the shell runs statements on (*engine.Engine).
type Engine interface {
	Catalog
	QueryInto(ctx context.Context, sql string, out *result.Stream, qo engine.QueryOptions) (*result.Result, error, error)
}

// Options configure a shell.
type Options struct {
	Engine Engine
	Stdout io.Writer
	Stderr io.Writer
	// Mode is the initial output mode, a result format (result.FormatNames).
	Mode string
	// SpreadsheetSafe makes the csv and tsv modes safe to open in a
	// spreadsheet (result.SpreadsheetSafe; --csv-safe).
	SpreadsheetSafe bool
	// Width returns the terminal width for tables on stdout (0: no limit).
	Width func() int
	// Progress shows "fetched N pages…" on Stderr while a query runs.
	Progress bool
	// HistoryPath is the history file of interactive sessions ("": none).
	HistoryPath string
	// Credentials tells error explanations whether a provider is anonymous.
	Credentials func(provider string) advice.Credentials
	// Now is the clock for "retry after HH:MM UTC" (default time.Now).
	Now func() time.Time
}

// Shell is one session's state.
type Shell struct {
	opts     Options
	out      io.Writer // results: stdout or the .output file
	outFile  *os.File
	console  io.Writer // footers and notices
	mode     string
	expanded bool
	timer    bool
	split    splitter
	sigint   chan os.Signal
	// stopped is done once a script is told to stop (SIGTERM): the
	// statement running is cancelled, and none after it runs.
	stopped context.Context
	depth   int // nesting of .read
}

// New makes a shell.
func New(opts Options) *Shell {
	if opts.Mode == "" {
		opts.Mode = "table"
	}
	if opts.Width == nil {
		opts.Width = func() int { return 0 }
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Credentials == nil {
		opts.Credentials = func(string) advice.Credentials { return advice.Credentials{} }
	}
	return &Shell{opts: opts, out: opts.Stdout, console: opts.Stdout, mode: opts.Mode, timer: true}
}

// errQuit ends a session (.quit, .exit).
var errQuit = errors.New("quit")

// errFailed marks a statement or command that failed (already reported).
var errFailed = errors.New("failed")

// catchInterrupts routes SIGINT to the shell for the whole session: during
// a query it cancels the query; elsewhere it is ignored (at the prompt the
// terminal is in raw mode and Ctrl-C arrives as a key instead).
func (s *Shell) catchInterrupts() func() {
	s.sigint = make(chan os.Signal, 1)
	signal.Notify(s.sigint, os.Interrupt)
	return func() { signal.Stop(s.sigint); s.closeOutput() }
}

// RunScript runs statements and meta commands read from r until the end
// or the first error (psql's ON_ERROR_STOP). It returns whether all
// succeeded. Footers and notices go to stderr so stdout holds only data.
func (s *Shell) RunScript(r io.Reader, name string) bool {
	defer s.catchInterrupts()()
	// SIGTERM (a CI job cancelled) stops a script as exec -f stops: the
	// statement running is cancelled and says so. (The interactive shell
	// leaves SIGTERM to end the process.)
	var stop context.CancelFunc
	s.stopped, stop = signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	s.console = s.opts.Stderr
	err := s.runReader(r, name)
	return err == nil || errors.Is(err, errQuit)
}

// execute runs one statement and prints its result or its error.
func (s *Shell) execute(sql string) error {
	ctx, cancel := context.WithCancel(cmp.Or(s.stopped, context.Background()))
	defer cancel()
	select { // drop an interrupt that arrived before this statement
	case <-s.sigint:
	default:
	}
	var cancelled bool
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-s.sigint:
			cancelled = true
			cancel()
		case <-stop:
		}
	}()
	prog := &progress{w: s.opts.Stderr, done: !s.opts.Progress}
	// Rows stream from SQLite to the output (a table holds its first
	// result.TableBufferRows rows, at most result.TableBufferBytes, to size its columns).
	out, err := s.stream()
	if err != nil {
		fmt.Fprintln(s.opts.Stderr, "error:", err)
		return errFailed
	}
	res, writeErr, err := s.opts.Engine.QueryInto(ctx, sql, out, engine.QueryOptions{Progress: prog.update, Notice: prog.notice,
		Columns: func([]result.Column) error {
			prog.clear()
			return nil
		}})
	close(stop)
	<-watched
	prog.clear()
	if writeErr != nil {
		fmt.Fprintln(s.opts.Stderr, "error: writing the result:", writeErr)
		return errFailed
	}
	if err != nil {
		if cancelled || (s.stopped != nil && s.stopped.Err() != nil) {
			fmt.Fprintln(s.opts.Stderr, "query cancelled")
			return errFailed
		}
		var ee *engine.Error
		if !errors.As(err, &ee) {
			ee = engine.Classify(err)
		}
		var cred advice.Credentials
		if ee.Provider != nil {
			cred = s.opts.Credentials(ee.Provider.Provider)
		}
		// The message may quote the API: show its control characters escaped.
		fmt.Fprintln(s.opts.Stderr, result.SanitizeText(advice.Explain(ee, cred, s.opts.Now())))
		return errFailed
	}
	if res.Notice != "" {
		fmt.Fprintln(s.console, result.SanitizeText(res.Notice))
	}
	if wide := out.Overflow(); wide > 0 {
		fmt.Fprintf(s.console, "note: the table is %d characters wide, the terminal %d: \\x shows one \"column = value\" line per cell (or .mode line), or name fewer columns\n", wide, s.opts.Width())
	}
	fmt.Fprintln(s.console, footer(res, out.Rows(), s.timer))
	return nil
}

// stream is the writer of the next result in the current mode.
func (s *Shell) stream() (*result.Stream, error) {
	format := s.mode
	if s.expanded && format == "table" {
		format = "line"
	}
	width := 0
	if s.outFile == nil && format == "table" {
		width = s.opts.Width()
	}
	return result.NewStreamWith(s.out, format, result.EncodeOptions{Width: width, SpreadsheetSafe: s.opts.SpreadsheetSafe})
}
