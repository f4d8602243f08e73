package plan

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the EXPLAIN golden files in testdata/explain")

// TestExplainGolden compares the EXPLAIN text of each statement in
// testdata/explain/*.sql with the .golden file beside it, so that a change
// of method choice, binding, request estimate or SQLite text is a reviewed
// diff. After an intended change run:
//
//	go test ./engine/plan -run TestExplainGolden -update
func TestExplainGolden(t *testing.T) {
	cat := github(t)
	files, err := filepath.Glob(filepath.Join("testdata", "explain", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no statements in testdata/explain (%v)", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sql")
		t.Run(name, func(t *testing.T) {
			q, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			p, err := build(t, cat, strings.TrimSpace(string(q)))
			if err != nil {
				got = "error: " + err.Error() + "\n"
			} else {
				got = p.String()
			}
			golden := strings.TrimSuffix(f, ".sql") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (create it with -update)", err)
			}
			if got != string(want) {
				t.Errorf("EXPLAIN of %s differs from %s (rerun with -update if intended):\ngot\n%s\nwant\n%s", f, golden, got, want)
			}
		})
	}
}
