package mcpsurface_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestToolSnaps compares every tool's declaration (name, description,
// annotations, input and output schema) with its snapshot in
// testdata/toolsnaps/NAME.json (testutil.Golden), as github-mcp-server's
// toolsnaps do: a schema change is a reviewed diff. After an intended change run
//
//	go test ./mcpsurface -run TestToolSnaps -update
//
// and review the diff. A snapshot without a tool fails too.
func TestToolSnaps(t *testing.T) {
	e := newEnv(t, envOpts{})
	lt, err := e.c.S.ListTools(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("testdata", "toolsnaps")
	seen := map[string]bool{}
	for _, tool := range lt.Tools {
		seen[tool.Name+".json"] = true
		got, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		testutil.Golden(t, filepath.Join(dir, tool.Name+".json"), append(got, '\n'))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		if !seen[en.Name()] {
			if testutil.Updating() {
				os.Remove(filepath.Join(dir, en.Name()))
				continue
			}
			t.Errorf("snapshot %s names no tool the server declares", en.Name())
		}
	}
}
