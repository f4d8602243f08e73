package openapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"
)

// fromSwagger2 converts a Swagger 2.0 (OpenAPI 2) description, JSON or
// YAML, to OpenAPI 3 with kin-openapi's openapi2conv: host, basePath and
// schemes become servers, securityDefinitions securitySchemes, body and
// formData parameters request bodies, definitions components.schemas. The
// result is JSON, loaded as any OpenAPI 3 description is.
func fromSwagger2(path, version string, data []byte) ([]byte, error) {
	if version != "2.0" && version != "2" {
		return nil, fmt.Errorf("%s: swagger %s is no version this reads (Swagger 2.0, OpenAPI 3.0 and 3.1 are)", path, version)
	}
	var doc2 openapi2.T
	if json.Unmarshal(data, &doc2) != nil {
		doc2 = openapi2.T{}
		if _, err := yaml.Unmarshal(data, &doc2, yaml.DecodeOpts{DisableTimestamps: true}); err != nil {
			return nil, fmt.Errorf("%s: not a loadable Swagger 2.0 document: %v", path, err)
		}
	}
	if len(doc2.Paths) == 0 {
		return nil, fmt.Errorf("%s: the document has no paths", path)
	}
	doc3, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("%s: converting Swagger 2.0 to OpenAPI 3: %v (convert it with swagger2openapi and give that file)", path, err)
	}
	// schemes [http, https] make two servers: the engine reads the
	// first, so https comes first
	plain := func(s *openapi3.Server) int {
		if strings.HasPrefix(s.URL, "https:") {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(doc3.Servers, func(a, b *openapi3.Server) int { return plain(a) - plain(b) })
	out, err := json.Marshal(doc3)
	if err != nil {
		return nil, fmt.Errorf("%s: converting Swagger 2.0 to OpenAPI 3: %v", path, err)
	}
	return out, nil
}
