package check

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
)

// The error kinds the docs list are the engine's (engine.Kinds), in its
// order: docs/check.md names them where it describes an errored control,
// docs/architecture.md in its error contract. A kind added to the engine
// fails this test until both lists name it.
func TestDocKindsAreTheEngines(t *testing.T) {
	var want []string
	for _, k := range engine.Kinds() {
		want = append(want, string(k))
	}
	quoted := regexp.MustCompile("`([a-z_]+)`")
	for _, doc := range []struct{ path, lead, end string }{
		{"../../../docs/check.md", "`kind` (", ")"},
		{"../../../docs/architecture.md", "`kind` is one of ", "."},
	} {
		b, err := os.ReadFile(doc.path)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ") // as the lines wrap
		_, rest, ok := strings.Cut(text, doc.lead)
		if !ok {
			t.Errorf("%s: no list of error kinds after %q", doc.path, doc.lead)
			continue
		}
		list, _, _ := strings.Cut(rest, doc.end)
		var got []string
		for _, m := range quoted.FindAllStringSubmatch(list, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s lists the error kinds %v; the engine's (engine.Kinds) are %v: write them in that order", doc.path, got, want)
		}
	}
}
