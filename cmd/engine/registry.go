package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
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
				{Name: "base_url", Type: result.TypeText},
			}}
			skipped := skippedResult()
			for _, name := range eng.ProviderNames() {
				p, err := eng.Provider(name)
				if err != nil {
					return usageError("%v", err)
				}
				o := sourceOf(eng, opts.Sources, name)
				base, _ := eng.BaseURL(name)
				res.Rows = append(res.Rows, []any{name, p.Version, o.source, o.via, o.fetched, o.compiled, o.hash, int64(len(p.Services())), int64(len(p.Resources)), int64(p.Methods()), base})
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

// listOrigin is where a provider of `engine registry list` comes from.
type listOrigin struct{ source, via, fetched, compiled, hash string }

// sourceOf describes the source of provider name (the last of sources
// with that name wins, as in the engine's catalog). Call it after the
// provider is loaded, so that its compiled index is known.
func sourceOf(eng *engine.Engine, sources []registry.Source, name string) listOrigin {
	var src registry.Source
	for _, s := range sources {
		if s.Name == name {
			src = s
		}
	}
	var o listOrigin
	switch {
	case src.Stored != nil:
		o.source = src.Stored.Origin
		if src.Stored.Kind == registry.StoredAdded {
			o.via = "registry add"
		} else {
			o.via = "registry pull"
		}
		o.fetched = src.Stored.Fetched.UTC().Format(time.RFC3339)
	case strings.HasPrefix(src.Path, "embedded/") && src.Kind == registry.KindIndex:
		o.source, o.via = "embedded", "embedded"
	default:
		o.source, o.via = src.Path, "--provider"
	}
	if org, ok := eng.ProviderOrigin(name); ok {
		o.hash = org.DocumentSHA256[:12]
		o.compiled = org.Compiled.UTC().Format(time.RFC3339)
	} else if src.Kind == registry.KindIndex && src.Data != nil {
		if data, err := src.Data(); err == nil {
			o.hash = registry.SHA256(data)[:12] // the index itself
		}
	}
	return o
}

func skippedResult() *result.Result {
	return &result.Result{Columns: []result.Column{
		{Name: "provider", Type: result.TypeText}, {Name: "operation", Type: result.TypeText},
		{Name: "path", Type: result.TypeText}, {Name: "reason", Type: result.TypeText},
	}}
}

// addSkipped adds the GET operations of p that are not tables.
func addSkipped(res *result.Result, p *providers.Provider) {
	for _, s := range p.Skipped {
		res.Rows = append(res.Rows, []any{p.Provider, s.OperationID, "GET " + s.Path, s.Reason})
	}
}

// writeList writes the providers and, with verbose, the GET operations
// that are not tables: in the text formats as a second table after a
// blank line, in JSON as {"providers": [...], "skipped": [...]}.
func writeList(w io.Writer, res, skipped *result.Result, format string, verbose bool) error {
	if !verbose {
		return result.Write(w, res, format, 0)
	}
	if format == "json" {
		var a, b bytes.Buffer
		if err := result.Write(&a, res, format, 0); err != nil {
			return err
		}
		if err := result.Write(&b, skipped, format, 0); err != nil {
			return err
		}
		_, err := fmt.Fprintf(w, "{\"providers\":%s,\"skipped\":%s}\n", bytes.TrimSpace(a.Bytes()), bytes.TrimSpace(b.Bytes()))
		return err
	}
	if err := result.Write(w, res, format, 0); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nGET operations that are not tables (%d):\n", len(skipped.Rows))
	return result.Write(w, skipped, format, 0)
}
