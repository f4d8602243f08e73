package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

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
	if profile != nil && st.Kind == registry.StoredAdded {
		if st.Profile, err = store.PutBlob(profile); err != nil {
			return err
		}
	}
	key := openapi.IndexKey(st.Name, st.Document, openapi.ProfileSHA(profile))
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
	s := fmt.Sprintf("%d services, %d tables, %d methods", len(p.Services()), len(p.Resources), p.Methods())
	if len(p.Skipped) > 0 {
		s += fmt.Sprintf(" (%d GET operations are not tables: engine registry list --verbose)", len(p.Skipped))
	}
	return s
}

// checkBaseURL validates a base URL given for a provider (where names
// the setting: --base-url, its variable or the config's key): an
// absolute http(s) URL without credentials, query or fragment, whose host
// is not a placeholder. The URL itself is shown without its credentials.
func checkBaseURL(where, raw string) error {
	u, err := url.Parse(raw)
	if err == nil && u.User != nil {
		u.User = nil
		return fmt.Errorf("%s %q: a base URL carries no credentials (user:password@); give them with --auth or the provider's variables (README \"Configuration\")", where, result.SanitizeText(u.String()))
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%s %q: give an absolute http(s) URL without credentials, query or fragment, e.g. https://acme.atlassian.net", where, result.SanitizeText(raw))
	}
	if ph := providers.PlaceholderHost(raw); ph != "" {
		return fmt.Errorf("%s %q: %q is a placeholder; give your own host", where, result.SanitizeText(raw), result.SanitizeText(ph))
	}
	return nil
}

// addBaseURL is the base URL registry add keeps for provider name: the
// last --base-url given as a plain URL or as NAME=URL for this name
// (the config file's base-url entries of other providers are not its).
func addBaseURL(name string, given []string) string {
	out := ""
	for _, v := range given {
		if n, u, ok := strings.Cut(v, "="); ok && registry.ValidName(n) && !strings.Contains(n, ":") {
			if n == name {
				out = u
			}
			continue
		}
		out = v
	}
	return out
}

func newRegistryAddCmd() *cobra.Command {
	var profilePath string
	var baseURLs []string
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
			baseURL := addBaseURL(name, baseURLs)
			if baseURL != "" {
				if err := checkBaseURL("--base-url", baseURL); err != nil {
					return usageError("%v", err)
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
			st := registry.Stored{Name: name, Kind: registry.StoredAdded, Origin: origin, ProfileOrigin: profileOrigin, Fetched: time.Now().UTC(),
				BaseURL: strings.TrimRight(baseURL, "/")}
			if err := storeCompiled(store, st, doc, profile, index); err != nil {
				return usageError("provider %s not added: %v", name, err)
			}
			verb := "added"
			if existed {
				verb = "replaced"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s provider %s from %s: %s; sha256 %s\n", verb, name, result.Sanitize(origin), summary(index), registry.SHA256(doc)[:12])
			if st.BaseURL != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "base URL %s\n", result.Sanitize(st.BaseURL))
			} else if p, err := providers.Decode(index); err == nil && providers.PlaceholderHost(p.BaseURL) != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "note: the description's server URL %s is a placeholder; add it again with --base-url URL (or give --base-url %s=URL to each command)\n", result.Sanitize(p.BaseURL), name)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&profilePath, "profile", "", "profile file for the document (absence rules, table names)")
	cmd.Flags().StringArrayVar(&baseURLs, "base-url", nil, "the provider's base URL, kept with it (your own host where the description's servers name a placeholder such as your-domain.atlassian.net); --base-url NAME=URL on a command still wins")
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
		p, _ := registry.BuiltinProfile(st.Name)
		profileSHA = openapi.ProfileSHA(p)
	}
	if err := store.RemoveIndex(openapi.IndexKey(st.Name, st.Document, profileSHA)); err != nil {
		return usageError("removing provider %s: %v", name, err)
	}
	if st.Kind == registry.StoredPulled {
		fmt.Fprintf(stdout, "removed the pulled description of %s; the embedded index is used again\n", name)
	} else {
		fmt.Fprintf(stdout, "removed provider %s\n", name)
	}
	return nil
}
