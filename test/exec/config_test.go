package exec_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestConfigFile: settings come from the config file unless the
// environment or the command line gives them (flag > env > file).
func TestConfigFile(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(cfg, []byte("max-requests: 5\nmcp_max_rows: 3\n"), 0o600)
	q := `EXPLAIN SELECT name FROM github.repos.repos WHERE org IN ('a','b','c','d','e','f')`

	r := testutil.Run(t, execEnv(t, "ENGINE_CONFIG="+cfg), "", "exec", q)
	if r.Code != 1 || !strings.Contains(r.Stderr, "limit of 5") {
		t.Fatalf("config file not applied: %d %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t, "ENGINE_CONFIG="+cfg, "ENGINE_MAX_REQUESTS=10"), "", "exec", q)
	if r.Code != 0 {
		t.Fatalf("environment should win over the config file: %d %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t, "ENGINE_CONFIG="+cfg), "", "exec", "--max-requests", "10", q)
	if r.Code != 0 {
		t.Fatalf("the flag should win over the config file: %d %s", r.Code, r.Stderr)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("max-reqests: 5\n"), 0o600)
	r = testutil.Run(t, execEnv(t), "", "--config", bad, "exec", q)
	if r.Code != 1 || !strings.Contains(r.Stderr, "unknown settings max-reqests") {
		t.Fatalf("a misspelt setting must be an error: %d %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t), "", "--config", filepath.Join(t.TempDir(), "missing.yaml"), "exec", q)
	if r.Code != 1 || !strings.Contains(r.Stderr, "missing.yaml") {
		t.Fatalf("a named config file that is missing must be an error: %d %s", r.Code, r.Stderr)
	}
}
