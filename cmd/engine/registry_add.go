package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/openapi"
	"github.com/enginehq/engine/registry"
)

// registryWarned makes an unusable registry directory one warning per
// process.
var registryWarned sync.Once

// openRegistry opens the user's registry store (registry.Store) and
// returns it with its providers as sources. A store that cannot be used
// (not the engine's, not private) is one warning on stderr: commands then
// run without stored providers and compile --provider documents on each
// start.
func openRegistry(stderr io.Writer) (*registry.Store, []registry.Source) {
	store, err := registry.OpenStore("")
	if err != nil {
		registryWarned.Do(func() { fmt.Fprintf(stderr, "warning: provider registry disabled: %v\n", err) })
		return nil, nil
	}
	srcs, err := store.Sources()
	if err != nil {
		registryWarned.Do(func() { fmt.Fprintf(stderr, "warning: provider registry: %v\n", err) })
	}
	return store, srcs
}

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

func addRegistryCommands(cmd *cobra.Command, g *globalFlags) {
	cmd.AddCommand(newRegistryAddCmd(), newRegistryRemoveCmd(), newRegistryPullCmd())
}

// providerErr is a failure to fetch or store a description: exit 2.
func providerErr(format string, args ...any) error {
	return &exitError{code: exitProvider, msg: "error: " + fmt.Sprintf(format, args...)}
}

// readDocumentArg reads PATH or URL (bounded in size and time); origin is
// what the store records (an absolute path, or the URL without
// credentials or query).
func readDocumentArg(arg string, timeout time.Duration) (data []byte, origin string, err error) {
	if registry.IsURL(arg) {
		data, err = registry.Fetch(context.Background(), arg, 0, timeout)
		if err != nil {
			return nil, "", providerErr("%v", err)
		}
		return data, registry.RedactURL(arg), nil
	}
	data, err = registry.ReadDocument(arg, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, "", usageError("file %s does not exist", arg)
		}
		return nil, "", usageError("reading %s: %v", arg, err)
	}
	abs, aerr := filepath.Abs(arg)
	if aerr != nil {
		abs = arg
	}
	return data, abs, nil
}

func openStoreForWrite() (*registry.Store, error) {
	store, err := registry.OpenStore("")
	if err != nil {
		return nil, usageError("%v", err)
	}
	return store, nil
}

// storeCompiled stores the document (and the profile of an added
// provider), the compiled index and the manifest, in that order: the
// manifest, written last, is what makes the provider exist. The index key
// is the one the engine computes when it loads the provider
// (engine.Origin.IndexKey): a pulled provider's profile is the built-in
// one, hashed but not stored.
func storeCompiled(store *registry.Store, st registry.Stored, doc, profile, index []byte) error {
	var err error
	if st.Document, err = store.PutBlob(doc); err != nil {
		return err
	}
	profileSHA := ""
	if profile != nil {
		profileSHA = registry.SHA256(profile)
		if st.Kind == registry.StoredAdded {
			if st.Profile, err = store.PutBlob(profile); err != nil {
				return err
			}
		}
	}
	key := registry.IndexKey(openapi.CompilerID(), st.Name, st.Document, profileSHA)
	if err := store.PutIndex(key, index, time.Now()); err != nil {
		return err
	}
	return store.Put(st)
}

func summary(index []byte) string {
	p, err := providers.Decode(index)
	if err != nil {
		return ""
	}
	methods := 0
	for _, r := range p.Resources {
		methods += r.Methods
	}
	s := fmt.Sprintf("%d services, %d tables, %d methods", len(p.Services()), len(p.Resources), methods)
	if len(p.Skipped) > 0 {
		s += fmt.Sprintf(" (%d GET operations are not tables: engine registry list --verbose)", len(p.Skipped))
	}
	return s
}

func newRegistryAddCmd() *cobra.Command {
	var profilePath string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "add NAME PATH|URL",
		Short: "Compile an OpenAPI 3 document into a provider kept in your data directory",
		Long: `Compile an OpenAPI 3 document (JSON or YAML, optionally gzip; a file or an
http(s) URL) into a provider named NAME, kept in the registry directory
($XDG_DATA_HOME/engine/registry-v1, else ~/.local/share/engine/registry-v1).
The document is validated first (it parses, and at least one GET becomes a
table); nothing is stored otherwise. The provider is then available in
every command without --provider. Credentials come only from --auth NAME
(never from GITHUB_TOKEN). Adding NAME again replaces it; "engine registry
remove NAME" removes it.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, arg := args[0], args[1]
			if !registry.ValidName(name) {
				return usageError("provider name %q must be lower-case letters, digits and underscores, starting with a letter", name)
			}
			for _, e := range registry.Embedded() {
				if e.Name == name {
					return usageError("%s is a built-in provider; refresh its description with: engine registry pull %s", name, name)
				}
			}
			var profile []byte
			profileOrigin := ""
			if profilePath != "" {
				var err error
				if profile, err = registry.ReadDocument(profilePath, 1<<20); err != nil {
					return usageError("--profile: %v", err)
				}
				profileOrigin, _ = filepath.Abs(profilePath)
			}
			doc, origin, err := readDocumentArg(arg, timeout)
			if err != nil {
				return err
			}
			index, err := openapi.Compile(name, origin, doc, profile, false)
			if err != nil {
				return usageError("provider %s not added: %v", name, err)
			}
			store, err := openStoreForWrite()
			if err != nil {
				return err
			}
			_, existed, _ := store.Get(name)
			st := registry.Stored{Name: name, Kind: registry.StoredAdded, Origin: origin, ProfileOrigin: profileOrigin, Fetched: time.Now().UTC()}
			if err := storeCompiled(store, st, doc, profile, index); err != nil {
				return usageError("provider %s not added: %v", name, err)
			}
			verb := "added"
			if existed {
				verb = "replaced"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s provider %s from %s: %s; sha256 %s\n", verb, name, origin, summary(index), registry.SHA256(doc)[:12])
			return nil
		},
	}
	cmd.Flags().StringVar(&profilePath, "profile", "", "profile file for the document (absence rules, table names)")
	cmd.Flags().DurationVar(&timeout, "timeout", registry.FetchTimeout, "bound of a download")
	return cmd
}

func newRegistryRemoveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a provider added or pulled into your data directory (a pulled built-in goes back to the embedded index)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return removeStored(cmd.OutOrStdout(), args[0])
		},
	}
}

func removeStored(stdout io.Writer, name string) error {
	store, err := registry.OpenStore("")
	if err != nil {
		return usageError("%v", err)
	}
	st, ok, err := store.Remove(name)
	if err != nil {
		return usageError("removing provider %s: %v", name, err)
	}
	if !ok {
		return usageError("no provider %s in the registry directory %s (engine registry list shows where each provider comes from)", name, store.Dir())
	}
	// The compiled index of this engine goes too; ones of other engine
	// builds are evicted by size.
	profileSHA := st.Profile
	if st.Kind == registry.StoredPulled {
		if p, ok := registry.BuiltinProfile(st.Name); ok {
			profileSHA = registry.SHA256(p)
		}
	}
	if err := store.RemoveIndex(registry.IndexKey(openapi.CompilerID(), st.Name, st.Document, profileSHA)); err != nil {
		return usageError("removing provider %s: %v", name, err)
	}
	if st.Kind == registry.StoredPulled {
		fmt.Fprintf(stdout, "removed the pulled description of %s; the embedded index is used again\n", name)
	} else {
		fmt.Fprintf(stdout, "removed provider %s\n", name)
	}
	return nil
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
			fmt.Fprintf(cmd.OutOrStdout(), "pulled %s version %s from %s: %s; sha256 %s\n", name, p.Version, origin, summary(index), registry.SHA256(doc)[:12])
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
