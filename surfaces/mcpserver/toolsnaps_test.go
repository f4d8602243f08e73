package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/toolsnaps from the tools the server declares")

// TestToolSnaps compares every tool's declaration (name, description,
// annotations, input and output schema) with its snapshot in
// testdata/toolsnaps/NAME.json, as github-mcp-server's toolsnaps do: a
// schema change is a reviewed diff. After an intended change run
//
//	go test ./mcpserver -run TestToolSnaps -update
//
// and review the diff. A snapshot without a tool fails too.
func TestToolSnaps(t *testing.T) {
	e := newEnv(t, envOpts{})
	lt, err := e.c.S.ListTools(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("testdata", "toolsnaps")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, tool := range lt.Tools {
		seen[tool.Name+".json"] = true
		got, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join(dir, tool.Name+".json")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("tool %s has no snapshot (%v): run go test ./mcpserver -run TestToolSnaps -update and review it", tool.Name, err)
			continue
		}
		if !bytes.Equal(normalize(t, want), normalize(t, got)) {
			t.Errorf("tool %s differs from %s: run go test ./mcpserver -run TestToolSnaps -update and review the diff\ngot:\n%s", tool.Name, path, got)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		if !seen[en.Name()] {
			if *update {
				os.Remove(filepath.Join(dir, en.Name()))
				continue
			}
			t.Errorf("snapshot %s names no tool the server declares", en.Name())
		}
	}
}

// normalize re-encodes JSON so that only content, not layout, is compared.
func normalize(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	out, _ := json.Marshal(v)
	return out
}
