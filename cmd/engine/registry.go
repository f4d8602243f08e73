package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/engine/result"
)

func newRegistryCmd(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{Use: "registry", Short: "Inspect, add, pull and remove provider definitions"}
	var output string
	var verbose bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List providers with version, source (embedded, file path or URL), fetch and compile times, hash and counts",
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, opts, err := g.newEngine()
			if err != nil {
				return err
			}
			res := &result.Result{Columns: []result.Column{
				{Name: "provider", Type: result.TypeText}, {Name: "version", Type: result.TypeText},
				{Name: "source", Type: result.TypeText}, {Name: "via", Type: result.TypeText},
				{Name: "fetched", Type: result.TypeText}, {Name: "compiled", Type: result.TypeText},
				{Name: "sha256", Type: result.TypeText}, {Name: "services", Type: result.TypeInteger},
				{Name: "resources", Type: result.TypeInteger}, {Name: "methods", Type: result.TypeInteger},
			}}
			skipped := skippedResult()
			for _, name := range eng.ProviderNames() {
				p, err := eng.Provider(name)
				if err != nil {
					return usageError("%v", err)
				}
				methods := 0
				for _, r := range p.Resources {
					methods += r.Methods
				}
				o := sourceOf(eng, opts.Sources, name)
				res.Rows = append(res.Rows, []any{name, p.Version, o.source, o.via, o.fetched, o.compiled, o.hash, int64(len(p.Services())), int64(len(p.Resources)), int64(methods)})
				addSkipped(skipped, p)
			}
			if err := writeList(cmd.OutOrStdout(), res, skipped, output, verbose); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			return nil
		},
	}
	list.Flags().StringVarP(&output, "output", "o", result.DefaultFormat, "output format: "+result.FormatHelp())
	list.Flags().BoolVar(&verbose, "verbose", false, "also list the GET operations that are not tables, with the reason")
	cmd.AddCommand(list)
	addRegistryCommands(cmd, g)
	return cmd
}
