package openapi

import (
	"fmt"
	"os"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// Helpers only the tests use: they derive a provider from a document
// with the package's parsing and derivation (the engine itself goes
// through Compile and providers.Decode).

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
// nil), whose token variables are never read.
func loadData(name, path string, data []byte, o *ProfileFile) (*providers.Provider, error) {
	doc, err := ParseDocument(path, data)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", name, err)
	}
	_, p, err := encode(doc, name, o, false)
	return p, err
}

// Derive is DeriveTables without overrides.
func Derive(doc *openapi3.T, name string) (providers.Header, []*providers.Resource, error) {
	return DeriveTables(doc, name, nil)
}
