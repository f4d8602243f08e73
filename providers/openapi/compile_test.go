package openapi_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/openapi"
	"github.com/enginehq/engine/registry"
)

func TestCompileGzipBombRefused(t *testing.T) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	defer openapi.SetDecompressLimit(1 << 20)()
	zw.Write(make([]byte, 1<<20+1))
	zw.Close()
	_, err := openapi.Compile("p", "bomb.json.gz", b.Bytes(), nil, false)
	if err == nil || !strings.Contains(err.Error(), "decompresses to more than") {
		t.Fatalf("gzip bomb: %v", err)
	}
}

// Only the built-in provider's own description reads GITHUB_TOKEN (see
// test/registry TestRegistryPullGitHub); the same document and profile
// compiled for --provider or registry add do not.
func TestCompileNoTokenEnvUnlessBuiltin(t *testing.T) {
	// The subset of GitHub's description (x-github extensions, GitHub's
	// profile applies) keeps this fast; TestGitHubCounts derives the whole.
	doc, err := os.ReadFile("../../../shared/openapi/github/api.github.com.subset.json")
	if err != nil {
		t.Fatal(err)
	}
	full, _ := registry.BuiltinProfile("github")
	var sections map[string]json.RawMessage
	if err := json.Unmarshal(full, &sections); err != nil {
		t.Fatal(err)
	}
	// The naming and absence entries name operations the subset lacks (an
	// entry that matches nothing is an error): keep auth and the rest.
	for _, k := range []string{"tables", "absent", "not_absent", "redirects", "result_cap", "partial", "count_caps"} {
		delete(sections, k)
	}
	profile, err := json.Marshal(sections)
	if err != nil {
		t.Fatal(err)
	}
	for _, builtin := range []bool{false, true} {
		idx, err := openapi.Compile("github", "api.github.com.subset.json", doc, profile, builtin)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := providers.Decode(idx)
		if len(p.Resources) == 0 {
			t.Fatalf("builtin=%v: no tables", builtin)
		}
		if got := len(p.TokenEnv) > 0; got != builtin {
			t.Errorf("builtin=%v: TokenEnv %v: the profile's token variables must be read only for a built-in", builtin, p.TokenEnv)
		}
	}
}
