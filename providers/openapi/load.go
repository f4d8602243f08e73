package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

func readErr(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("file %s does not exist", path)
	}
	return fmt.Errorf("reading %s: %w", path, err)
}

var swaggerKey = regexp.MustCompile(`(?m)^\s*\{?\s*"?swagger"?\s*:\s*["']?([0-9.]+)`)

// ParseDocument decompresses (if gzip) and parses an OpenAPI 3 document
// (a Swagger 2.0 one is converted first, swagger2.go) with external
// references disabled, and checks it lightly: an openapi 3.x version
// field and at least one path.
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
		var err error
		if data, err = fromSwagger2(path, string(m[1]), data); err != nil {
			return nil, err
		}
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loadResolved(loader, data)
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
