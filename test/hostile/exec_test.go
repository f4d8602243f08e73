package hostile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
)

// exitFor is exec's exit code for an error kind (docs/architecture.md: 1 for SQL and
// plan errors; 2 for provider errors, and timeouts are reported like
// network failures).
var exitFor = map[string]int{"sql": 1, "plan": 1, "timeout": 2, "provider": 2}

// errorOf decodes exec's -o json error object, {"error": engine.ErrorBody},
// from stderr (the line that holds it: --debug adds lines of its own).
func errorOf(t *testing.T, stderr string) engine.ErrorBody {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.HasPrefix(line, `{"error"`) {
			continue
		}
		var body struct {
			Error engine.ErrorBody `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &body); err != nil {
			t.Fatalf("stderr is not the JSON error object: %v\n%.500s", err, stderr)
		}
		return body.Error
	}
	t.Fatalf("stderr holds no JSON error object:\n%.500s", stderr)
	return engine.ErrorBody{}
}

func TestHostileExec(t *testing.T) {
	fake := fakegithub.ForTest(t)
	sb := newSandbox(t)
	cases := corpus(sb.tmp)
	if len(cases) < 40 {
		t.Fatalf("corpus has %d statements", len(cases))
	}
	for _, h := range cases {
		if h.script {
			continue // exec -f runs a script statement by statement
		}
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			r := sb.execStdin(t, fake, h)
			if r.Code != exitFor[h.kind] {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %.500s", r.Code, exitFor[h.kind], r.Stdout, r.Stderr)
			}
			if strings.TrimSpace(r.Stdout) != "" {
				t.Fatalf("rows printed: %.500s", r.Stdout)
			}
			e := errorOf(t, r.Stderr)
			if string(e.Kind) != h.kind || e.HTTPStatus != h.status || len(e.Message) < 10 || len(e.Message) > 2000 {
				t.Fatalf("error %+v; want kind %s status %d and a short clear message", e, h.kind, h.status)
			}
			if h.path != "" && !strings.Contains(e.Message, h.path+"?") {
				t.Fatalf("the value was not escaped into one path segment %s: %s", h.path, e.Message)
			}
		})
	}
	t.Cleanup(func() {
		sb.assertEmpty(t)
		for _, r := range fake.Requests() {
			if !strings.HasPrefix(r.Path, "/orgs/") {
				t.Errorf("a request left /orgs/: %s", r.Path)
			}
		}
	})
}
