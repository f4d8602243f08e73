// Command indexgen derives a provider index from an OpenAPI 3 description:
//
//	go run ./cmd/indexgen -in ../shared/openapi/github/api.github.com.json.gz -name github -out registry/embedded/github.idx
//
// The input may be JSON or YAML, plain or gzip. The profile (statuses that
// mean "no rows", see openapi.ProfileFile) come from -overrides, or else from
// the provider's profile registry/profiles/NAME.json (compiled into the
// registry package); "-overrides none" uses none. The output is deterministic, so a
// test can check that the committed index is current.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/enginehq/engine/providers/openapi"
	"github.com/enginehq/engine/registry"
	"github.com/enginehq/engine/registry/fsutil"
)

func main() {
	in := flag.String("in", "", "OpenAPI 3 description (JSON or YAML, optionally .gz)")
	name := flag.String("name", "", "provider name, e.g. github")
	out := flag.String("out", "", "index file to write")
	ovPath := flag.String("overrides", "", `overrides file (default: the built-in profile registry/profiles/NAME.json, if any; "none" for none)`)
	flag.Parse()
	if *in == "" || *name == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: indexgen -in DESCRIPTION -name PROVIDER -out FILE.idx [-overrides FILE|none]")
		os.Exit(2)
	}
	data, err := generate(*in, *name, *ovPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "indexgen:", err)
		os.Exit(1)
	}
	if err := writeFile(*out, data); err != nil {
		fmt.Fprintln(os.Stderr, "indexgen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "indexgen: wrote %s (%d bytes)\n", *out, len(data))
}

// generate reads the description and the overrides and returns the index.
func generate(in, name, ovPath string) ([]byte, error) {
	ov, err := loadOverrides(name, ovPath)
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(in)
	if err != nil {
		return nil, err
	}
	doc, err := openapi.ParseDocument(in, raw)
	if err != nil {
		return nil, err
	}
	return openapi.BuildIndex(doc, name, ov)
}

func loadOverrides(name, ovPath string) (*openapi.ProfileFile, error) {
	var data []byte
	var err error
	switch ovPath {
	case "none":
		return nil, nil
	case "":
		var ok bool
		if data, ok = registry.BuiltinProfile(name); !ok {
			return nil, nil
		}
	default:
		data, err = os.ReadFile(ovPath)
	}
	if err != nil {
		return nil, err
	}
	return openapi.ParseProfileFile(data)
}

// writeFile replaces path atomically.
func writeFile(path string, data []byte) error {
	return fsutil.WriteFile(path, data, 0o644, ".indexgen-*")
}
