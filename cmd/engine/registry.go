package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/registry"
)

func newRegistryCmd(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{Use: "registry", Short: "Inspect provider definitions"}
	var output string
	list := &cobra.Command{
		Use:   "list",
		Short: "List providers with version, source and resource count",
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, opts, err := g.newEngine()
			if err != nil {
				return err
			}
			origin := map[string]string{}
			for _, s := range opts.Sources {
				origin[s.Name] = s.Kind + ":" + s.Path
				if s.Path == "" || s.Kind == registry.KindIndex && len(s.Path) > 9 && s.Path[:9] == "embedded/" {
					origin[s.Name] = "embedded"
				}
			}
			res := &result.Result{Columns: []result.Column{
				{Name: "provider", Type: result.TypeText}, {Name: "version", Type: result.TypeText},
				{Name: "source", Type: result.TypeText}, {Name: "services", Type: result.TypeInteger},
				{Name: "resources", Type: result.TypeInteger}, {Name: "methods", Type: result.TypeInteger},
			}}
			for _, name := range eng.ProviderNames() {
				p, err := eng.Provider(name)
				if err != nil {
					return usageError("%v", err)
				}
				methods := 0
				for _, r := range p.Resources {
					methods += r.Methods
				}
				res.Rows = append(res.Rows, []any{name, p.Version, origin[name], int64(len(p.Services())), int64(len(p.Resources)), int64(methods)})
			}
			if err := result.Write(cmd.OutOrStdout(), res, output, 0); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			return nil
		},
	}
	list.Flags().StringVarP(&output, "output", "o", result.DefaultFormat, "output format: "+result.FormatHelp())
	cmd.AddCommand(list)
	return cmd
}
