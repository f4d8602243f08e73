package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

// Load opens a provider source: an encoded index (only its header is
// decoded) or an OpenAPI document (parsed and derived).
func Load(src registry.Source) (*providers.Provider, error) {
	switch src.Kind {
	case registry.KindIndex:
		data, err := readSource(src)
		if err != nil {
			return nil, err
		}
		p, err := providers.Decode(data)
		if err != nil {
			return nil, fmt.Errorf("provider %s (%s): %w", src.Name, src.Path, err)
		}
		if src.Name != "" && p.Provider != src.Name {
			return nil, fmt.Errorf("provider %s (%s): the index describes provider %q", src.Name, src.Path, p.Provider)
		}
		return p, nil
	case registry.KindOpenAPI:
		data, err := readSource(src)
		if err != nil {
			return nil, err
		}
		profile, err := SourceProfile(src)
		if err != nil {
			return nil, fmt.Errorf("provider %s: %w", src.Name, err)
		}
		var o *ProfileFile
		if profile != nil {
			if o, err = ParseProfileFile(profile); err != nil {
				return nil, fmt.Errorf("provider %s: profile %s: %w", src.Name, src.Profile, err)
			}
		}
		return loadData(src.Name, src.Path, data, o)
	default:
		return nil, fmt.Errorf("provider %s (%s): unknown source kind %q", src.Name, src.Path, src.Kind)
	}
}

func readSource(src registry.Source) ([]byte, error) {
	if src.Data != nil {
		data, err := src.Data()
		if err != nil {
			return nil, fmt.Errorf("provider %s: %w", src.Name, readErr(src.Path, err))
		}
		return data, nil
	}
	data, err := os.ReadFile(src.Path)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", src.Name, readErr(src.Path, err))
	}
	return data, nil
}

func readErr(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("file %s does not exist", path)
	}
	return fmt.Errorf("reading %s: %w", path, err)
}

// LoadFile reads an OpenAPI 3 document (JSON or YAML, gzip-compressed when
// the path ends in .gz or the content is gzip) and derives a provider named
// name from its GET operations.
func LoadFile(name, path string) (*providers.Provider, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", name, readErr(path, err))
	}
	return LoadData(name, path, data)
}

// LoadData is LoadFile for content already read; path is used in messages
// only.
func LoadData(name, path string, data []byte) (*providers.Provider, error) {
	return loadData(name, path, data, nil)
}

// loadData derives a provider from a document with its profile o (may be
// nil). The profile's token variables are never read (untrusted: only
// --auth gives a --provider document credentials).
func loadData(name, path string, data []byte, o *ProfileFile) (*providers.Provider, error) {
	doc, err := ParseDocument(path, data)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", name, err)
	}
	h, resources, err := derive(doc, name, o, false)
	if err != nil {
		return nil, err
	}
	return providers.NewProvider(h, resources)
}

var swaggerKey = regexp.MustCompile(`(?m)^\s*\{?\s*"?swagger"?\s*:\s*["']?([0-9.]+)`)

// ParseDocument decompresses (if gzip) and parses an OpenAPI 3 document
// with external references disabled, and checks it lightly: an openapi
// 3.x version field and at least one path.
func ParseDocument(path string, data []byte) (*openapi3.T, error) {
	if strings.HasSuffix(path, ".gz") || isGzip(data) {
		var err error
		if data, err = gunzip(path, data); err != nil {
			return nil, err
		}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the file is empty", path)
	}
	head := data
	if len(head) > 4096 {
		head = head[:4096]
	}
	if m := swaggerKey.FindSubmatch(head); m != nil {
		return nil, fmt.Errorf("%s: this is a Swagger %s (OpenAPI 2) document; only OpenAPI 3 is supported (convert it, e.g. with swagger2openapi)", path, m[1])
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(data)
	if isExternalRefError(err) {
		// $refs to files the document does not include: load the rest
		// (extrefs.go).
		if d, err2 := loadWithoutExternalRefs(data); err2 == nil {
			doc, err = d, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not a loadable OpenAPI 3 document: %w", path, err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		found := doc.OpenAPI
		if found == "" {
			found = "no openapi field"
		}
		return nil, fmt.Errorf("%s: not an OpenAPI 3 document (%s)", path, found)
	}
	if doc.Paths == nil || doc.Paths.Len() == 0 {
		return nil, fmt.Errorf("%s: the document has no paths", path)
	}
	return doc, nil
}
