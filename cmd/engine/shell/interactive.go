package shell

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/chzyer/readline"
)

// Banner is printed once before the first prompt.
const Banner = `engine shell: SQL over REST APIs. End statements with ";". ".help" for help, Ctrl-D to quit.`

// RunInteractive reads from the terminal with line editing, history and
// completion until Ctrl-D or .quit. Errors never end the session.
func (s *Shell) RunInteractive() error {
	defer s.catchInterrupts()()
	var mu sync.Mutex
	pending := ""
	comp := newCompleter(s.opts.Engine, func() string {
		mu.Lock()
		defer mu.Unlock()
		return pending
	})
	cfg := &readline.Config{
		Prompt:                 Prompt,
		AutoComplete:           comp,
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		HistoryLimit:           historyLimit,
		Stdout:                 s.opts.Stdout,
		Stderr:                 s.opts.Stderr,
	}
	if s.opts.HistoryPath != "" {
		if err := prepareHistory(s.opts.HistoryPath); err != nil {
			fmt.Fprintf(s.opts.Stderr, "warning: history disabled: %v\n", err)
		} else {
			cfg.HistoryFile = s.opts.HistoryPath
		}
	}
	fmt.Fprintln(s.opts.Stdout, Banner)
	rl, err := readline.NewEx(cfg)
	if err != nil {
		return err
	}
	defer rl.Close()
	var lines []string // raw lines of the input being read, for history
	setPending := func() {
		mu.Lock()
		pending = s.split.Text()
		mu.Unlock()
		if s.split.Pending() {
			rl.SetPrompt(ContinuationPrompt)
		} else {
			rl.SetPrompt(Prompt)
		}
	}
	for {
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			s.split.Reset()
			lines = nil
			setPending()
			continue
		case errors.Is(err, io.EOF):
			fmt.Fprintln(s.opts.Stdout)
			return nil
		case err != nil:
			return err
		}
		if !s.split.Pending() {
			if cmd := bareWord(line); isMeta(cmd) {
				_ = rl.SaveHistory(strings.TrimSpace(line))
				if err := s.meta(cmd); errors.Is(err, errQuit) {
					return nil
				}
				continue
			}
		}
		lines = append(lines, line)
		stmts := s.split.Feed(line)
		if !s.split.Pending() {
			if h := historyEntry(lines); h != "" {
				_ = rl.SaveHistory(h)
			}
			lines = nil
		}
		for _, st := range stmts {
			_ = s.execute(st) // reported; the session goes on
		}
		setPending()
	}
}
