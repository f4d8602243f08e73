package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/cmd/engine/advice"
	"github.com/enginehq/engine/cmd/engine/shell"
	"github.com/enginehq/engine/engine/result"
)

func newShellCmd(g *globalFlags) *cobra.Command {
	var mode string
	var csvSafe bool
	cmd := &cobra.Command{
		Use:   "shell [-o " + result.FormatNames("|") + "]",
		Short: "Interactive SQL shell (history, completion, .help); with stdin not a terminal, run its statements and stop at the first error (exit 1)",
		Example: `  engine shell
  engine shell < queries.sql`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			format, eng, opts, err := g.newEngineFor(mode)
			if err != nil {
				return err
			}
			x := g.io
			interactive := x.IsTerminal(x.In)
			stdoutTTY := x.IsTerminal(x.Out)
			so := shell.Options{
				Engine:          eng,
				Stdout:          x.Out,
				Stderr:          x.Err,
				Mode:            format.Name,
				SpreadsheetSafe: csvSafe,
				Progress:        interactive && x.IsTerminal(x.Err),
				Width: func() int {
					if !stdoutTTY {
						return 0
					}
					return x.Width(x.Out)
				},
				Credentials: func(name string) advice.Credentials {
					return credentialsOf(x, eng, opts, name)
				},
			}
			if interactive {
				if p, err := shell.HistoryPath(x.Getenv); err == nil {
					so.HistoryPath = p
				} else {
					fmt.Fprintln(x.Err, "warning: history disabled:", err)
				}
				if err := shell.New(so).RunInteractive(); err != nil {
					return usageError("%v", err)
				}
				return nil
			}
			if !shell.New(so).RunScript(x.In, "stdin") {
				return &exitError{code: exitUsage}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&mode, "output", "o", result.DefaultFormat, "initial output mode (.mode changes it): "+result.FormatHelp())
	cmd.Flags().BoolVar(&csvSafe, "csv-safe", false, csvSafeHelp)
	return cmd
}
