package main

import (
	"fmt"
	"github.com/enginehq/engine/cmd/engine/internal/advice"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/enginehq/engine/cmd/engine/internal/shell"
	"github.com/enginehq/engine/engine/result"
)

func init() { subcommands = append(subcommands, newShellCmd) }

func newShellCmd(g *globalFlags) *cobra.Command {
	var mode string
	cmd := &cobra.Command{
		Use:   "shell [-o table|csv|json|tsv|line]",
		Short: "Interactive SQL shell (history, completion, .help); with stdin not a terminal, run its statements and stop at the first error (exit 1)",
		Example: `  engine shell
  engine shell < queries.sql`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !validFormat(mode) {
				return &exitError{code: exitUsage, msg: fmt.Sprintf("error: -o %q: use one of %s", mode, strings.Join(result.Formats, ", "))}
			}
			eng, opts, err := g.newEngine()
			if err != nil {
				return err
			}
			interactive := term.IsTerminal(int(os.Stdin.Fd()))
			stdoutTTY := term.IsTerminal(int(os.Stdout.Fd()))
			so := shell.Options{
				Engine:   eng,
				Stdout:   os.Stdout,
				Stderr:   os.Stderr,
				Mode:     mode,
				Progress: interactive && term.IsTerminal(int(os.Stderr.Fd())),
				Width: func() int {
					if !stdoutTTY {
						return 0
					}
					w, _, err := term.GetSize(int(os.Stdout.Fd()))
					if err != nil {
						return 0
					}
					return w
				},
				Credentials: func(name string) advice.Credentials {
					return credentialsOf(eng, opts, name)
				},
			}
			if interactive {
				if p, err := shell.HistoryPath(os.Getenv); err == nil {
					so.HistoryPath = p
				} else {
					fmt.Fprintln(os.Stderr, "warning: history disabled:", err)
				}
				if err := shell.New(so).RunInteractive(); err != nil {
					return &exitError{code: exitUsage, msg: "error: " + err.Error()}
				}
				return nil
			}
			if !shell.New(so).RunScript(os.Stdin, "stdin") {
				return &exitError{code: exitUsage}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&mode, "output", "o", "table", "initial output mode: table, csv, json, tsv, line (.mode changes it)")
	return cmd
}
