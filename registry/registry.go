// Package registry owns where provider definitions come from:
//
//   - the embedded default: pre-generated provider indexes compiled into
//     the binary (embedded/*.idx, produced by cmd/indexgen from the OpenAPI
//     descriptions, see the go:generate line below); decoding one costs
//     only its header line, so a cold start never parses OpenAPI;
//   - local files named on the command line with --provider NAME=PATH: an
//     OpenAPI 3 document (JSON or YAML, optionally gzip) or an .idx index;
//   - the store (Store) in the user's data directory: providers kept by
//     `engine registry add NAME PATH|URL` and `engine registry pull NAME`
//     (a pulled provider takes precedence over the embedded index of that
//     name), and the compiled indexes of OpenAPI documents, keyed by the
//     hash of the document (IndexKey), so that a document is parsed once;
//   - Fetch reads a document from an http(s) URL, bounded in size and time.
//
// registry only locates bytes. It must not import providers (or anything
// else in this module): it sits at the bottom of the dependency spine
// cmd -> mcpsurface -> engine -> providers -> registry. Parsing, deriving
// and decoding belong to providers and providers/openapi (openapi.Compile).
package registry

//go:generate go run ../cmd/indexgen -in ../../shared/openapi/github/api.github.com.json.gz -name github -out embedded/github.idx

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
)

// Source kinds.
const (
	// KindIndex is an encoded provider index (providers.Encode output).
	KindIndex = "index"
	// KindOpenAPI is an OpenAPI 3 document to derive a provider from.
	KindOpenAPI = "openapi"
)

// Source is one provider definition: where it is and how to read it.
type Source struct {
	// Name is the provider name (the first part of provider.service.resource).
	Name string
	// Kind is KindIndex or KindOpenAPI.
	Kind string
	// Path is the file path (for embedded sources, the path inside the
	// binary, e.g. "embedded/github.idx").
	Path string
	// Data returns the bytes of the definition.
	Data func() ([]byte, error)
	// Profile is the path of a profile file given with the document
	// (a file named with the document, see FileSource), or "".
	Profile string
	// Stored is set for a provider kept in the user's data directory by
	// `engine registry add` or `pull` (see Store); Path is then where its
	// document came from (a path or URL) and Data reads the stored copy.
	Stored *Stored
	// Embedded is set only by Embedded(): the index compiled into the
	// binary. Only it, and a pulled description that passes the pull's
	// checks, may name the environment variables its credentials are read
	// from; every other index is stripped of them when it is loaded
	// (docs/providers.md, "Credentials").
	Embedded bool
}

// The whole directory is embedded (it always holds README.md), not just
// embedded/*.idx: the generator imports this package, so a missing index
// must not stop the build that regenerates it.
//
//go:embed embedded
var embedded embed.FS

// Provider profiles are data about a provider that its OpenAPI document
// cannot express (absence rules, table naming, and so on), one JSON file
// per provider in profiles/, read by the generator (cmd/indexgen) and by
// anything that compiles that provider's document at run time.
//
//go:embed profiles/*.json
var profiles embed.FS

// BuiltinProfile returns the committed profile of a provider (profiles/NAME.json);
// ok is false when there is none.
func BuiltinProfile(name string) (data []byte, ok bool) {
	data, err := profiles.ReadFile("profiles/" + name + ".json")
	return data, err == nil
}

// Embedded returns the provider indexes compiled into the binary, sorted by
// name. Nothing is read until Data is called.
func Embedded() []Source {
	entries, err := fs.ReadDir(embedded, "embedded")
	if err != nil {
		return nil
	}
	var out []Source
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || e.IsDir() {
			continue
		}
		p := path.Join("embedded", e.Name())
		out = append(out, Source{
			Name:     name,
			Kind:     KindIndex,
			Path:     p,
			Data:     func() ([]byte, error) { return embedded.ReadFile(p) },
			Embedded: true,
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

var providerName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// ValidName reports whether s can name a provider: lower-case letters,
// digits and underscores, starting with a letter (it is the first part of
// a SQL table name).
func ValidName(s string) bool { return providerName.MatchString(s) }

// FileSource is the source of provider name defined by the file at p:
// an OpenAPI 3 document (Kind openapi), or an encoded index when p ends
// in .idx (Kind index); profile is a profile file for the document, or
// "". The files are not read here; Data reads the document. The command
// line's --provider NAME=PATH[,profile=FILE] is parsed in cmd/engine.
func FileSource(name, p, profile string) (Source, error) {
	if !ValidName(name) {
		return Source{}, fmt.Errorf("provider name %q must be lower-case letters, digits and underscores, starting with a letter", name)
	}
	if p == "" {
		return Source{}, fmt.Errorf("the path of provider %s's document is empty", name)
	}
	kind := KindOpenAPI
	if strings.HasSuffix(p, ".idx") {
		kind = KindIndex
		if profile != "" {
			return Source{}, errors.New("a profile applies to an OpenAPI document, not to a compiled .idx index (compile the document with its profile instead)")
		}
	}
	return Source{
		Name:    name,
		Kind:    kind,
		Path:    p,
		Data:    func() ([]byte, error) { return os.ReadFile(p) },
		Profile: profile,
	}, nil
}
