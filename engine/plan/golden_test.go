package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

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
			testutil.Golden(t, strings.TrimSuffix(f, ".sql")+".golden", []byte(got))
		})
	}
}
