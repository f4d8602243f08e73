package main

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/openapi"
	"github.com/enginehq/engine/registry"
)

// pullDefaults are the published descriptions `engine registry pull` knows.
var pullDefaults = map[string]string{
	"github": "https://raw.githubusercontent.com/github/rest-api-description/main/descriptions/api.github.com/api.github.com.json",
}

// pullRequired are the tables and methods a pulled description must keep,
// with the same required parameters as the embedded index: what GitHub
// users rely on (README, examples/controls).
var pullRequired = map[string][]string{
	"github": {
		"repos.repos.list_for_org", "repos.repos.get", "repos.repos.list_for_user",
		"issues.issues.list_for_repo", "issues.issues.get",
		"pulls.pulls.list",
	},
}

func newRegistryPullCmd() *cobra.Command {
	var rawURL string
	var reset bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "pull NAME",
		Short: "Download a built-in provider's published description, validate it and use it instead of the embedded index",
		Long: `Download the published OpenAPI description of a built-in provider (github:
GitHub's rest-api-description on GitHub), compile it with the provider's
built-in profile and validate it: the base URL must be the embedded index's,
the tables users rely on (github.repos.repos, github.issues.issues,
github.pulls.pulls ...) must keep their methods and required parameters, and
it must keep at least half of the embedded tables. Only then is it stored in
the registry directory, where it takes precedence over the embedded index. A
document that fails is refused and the index in use is kept. --reset (or
"engine registry remove NAME") goes back to the embedded index.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			def, known := pullDefaults[name]
			if !known {
				return usageError("engine registry pull knows the built-in providers only (github); for another API use: engine registry add %s PATH|URL", name)
			}
			if reset {
				if rawURL != "" {
					return usageError("--reset and --url do not go together")
				}
				if store, err := registry.OpenStore(""); err == nil {
					if st, ok, _ := store.Get(name); !ok || st.Kind != registry.StoredPulled {
						fmt.Fprintf(cmd.OutOrStdout(), "no pulled description of %s; the embedded index is in use\n", name)
						return nil
					}
				}
				return removeStored(cmd.OutOrStdout(), name)
			}
			if rawURL == "" {
				rawURL = def
			}
			if !registry.IsURL(rawURL) {
				return usageError("--url %q: give an http or https URL", rawURL)
			}
			doc, origin, err := readDocumentArg(rawURL, timeout)
			if err != nil {
				return err
			}
			profile, _ := registry.BuiltinProfile(name)
			index, err := openapi.Compile(name, origin, doc, profile, true)
			if err == nil {
				err = validatePulled(name, index)
			}
			if err != nil {
				return providerErr("the description at %s was refused; the index in use is kept: %v", origin, err)
			}
			store, err := openStoreForWrite()
			if err != nil {
				return err
			}
			st := registry.Stored{Name: name, Kind: registry.StoredPulled, Origin: origin, Fetched: time.Now().UTC()}
			if err := storeCompiled(store, st, doc, profile, index); err != nil {
				return usageError("storing the description of %s: %v", name, err)
			}
			p, _ := providers.Decode(index)
			// The version is the document's text: inert on a terminal.
			fmt.Fprintf(cmd.OutOrStdout(), "pulled %s version %s from %s: %s; sha256 %s\n", name, result.Sanitize(p.Version), result.Sanitize(origin), summary(index), registry.SHA256(doc)[:12])
			return nil
		},
	}
	cmd.Flags().StringVar(&rawURL, "url", "", "where to download the description (default: the provider's published location)")
	cmd.Flags().BoolVar(&reset, "reset", false, "remove the pulled description: the embedded index is used again")
	cmd.Flags().DurationVar(&timeout, "timeout", registry.FetchTimeout, "bound of the download")
	return cmd
}

// validatePulled checks a pulled index against the embedded one of the
// same provider: same base URL (credentials go there), the required
// methods with the same required parameters, and no loss of more than
// half of the tables.
func validatePulled(name string, index []byte) error {
	var embedded *providers.Provider
	for _, e := range registry.Embedded() {
		if e.Name == name {
			data, err := e.Data()
			if err != nil {
				return err
			}
			if embedded, err = providers.Decode(data); err != nil {
				return err
			}
		}
	}
	if embedded == nil {
		return fmt.Errorf("no embedded index of %s to compare with", name)
	}
	p, err := providers.Decode(index)
	if err != nil {
		return err
	}
	if p.BaseURL != embedded.BaseURL {
		return fmt.Errorf("its base URL is %q, not %q: credentials would be sent elsewhere", p.BaseURL, embedded.BaseURL)
	}
	var problems []string
	for _, full := range pullRequired[name] {
		parts := strings.Split(full, ".")
		want, _ := embedded.Resource(parts[0], parts[1])
		got, err := p.Resource(parts[0], parts[1])
		if err != nil {
			return err
		}
		table := name + "." + parts[0] + "." + parts[1]
		if got == nil {
			problems = append(problems, "table "+table+" is missing")
			continue
		}
		gm := got.Method(parts[2])
		if gm == nil {
			problems = append(problems, "method "+table+"."+parts[2]+" is missing")
			continue
		}
		if want != nil {
			if wm := want.Method(parts[2]); wm != nil && strings.Join(requiredParams(wm), ",") != strings.Join(requiredParams(gm), ",") {
				problems = append(problems, fmt.Sprintf("method %s.%s requires (%s), not (%s)", table, parts[2],
					strings.Join(requiredParams(gm), ", "), strings.Join(requiredParams(wm), ", ")))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	if 2*len(p.Resources) < len(embedded.Resources) {
		return fmt.Errorf("it derives %d tables, fewer than half of the embedded index's %d", len(p.Resources), len(embedded.Resources))
	}
	return nil
}

func requiredParams(m *providers.Method) []string {
	var out []string
	for _, p := range m.Params {
		if p.Required {
			out = append(out, p.Name)
		}
	}
	sort.Strings(out)
	return out
}
