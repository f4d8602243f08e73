package openapi_test

import (
	"bytes"
	"compress/gzip"
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
	doc, err := os.ReadFile("../../../shared/openapi/github/api.github.com.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	profile, _ := registry.BuiltinProfile("github")
	idx, err := openapi.Compile("github", "api.github.com.json.gz", doc, profile, false)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := providers.Decode(idx)
	if len(p.TokenEnv) > 0 || len(p.Resources) != 371 {
		t.Errorf("TokenEnv %v, %d tables", p.TokenEnv, len(p.Resources))
	}
}
