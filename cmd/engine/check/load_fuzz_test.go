package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// template is a file whose {{org}} takes the fuzzed value.
const template = `vars:
  org:
controls:
  - id: t
    sql: SELECT name FROM github.repos.repos WHERE org = {{org}}
`

// FuzzLoad: Load never panics and either reports problems that point into
// the file or yields controls that are complete (unique valid ids, SQL, a
// valid expectation); Resolve inserts any variable value only as one
// quoted SQL string literal.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(goodFile), "acme")
	f.Add([]byte(template), "x' OR 1=1 --")
	f.Add([]byte("controls: []\n"), "")
	f.Add([]byte("controls:\n  - id: a\n    sql: SELECT 1\n  - id: a\n"), "a\nb")
	f.Add([]byte("\t- : [\n"), "{{org}}")
	f.Add([]byte("controls: &a [*a]\n"), "''")
	f.Add([]byte("\r\r0"), "0")
	if paths, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "controls", "*.yaml")); len(paths) > 0 {
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b, "acme")
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, value string) {
		file, problems := Load("f.yaml", data)
		lines := strings.Count(string(data), "\n") + strings.Count(string(data), "\r") + 1
		for _, p := range problems {
			if p.File != "f.yaml" || p.Message == "" || p.Line < 0 || p.Line > lines+1 {
				t.Fatalf("problem %+v (file has %d lines)", p, lines)
			}
			_ = p.String()
		}
		if file == nil {
			if len(problems) == 0 {
				t.Fatal("no file and no problem")
			}
			return
		}
		if len(problems) == 0 {
			seen := map[string]bool{}
			for _, c := range file.Controls {
				if !idPattern.MatchString(c.ID) || seen[c.ID] || c.RawSQL == "" || c.Line <= 0 {
					t.Fatalf("control %+v loaded without a problem", c)
				}
				if _, err := ParseExpect(c.Expect.String()); err != nil {
					t.Fatalf("expect %v: %v", c.Expect, err)
				}
				seen[c.ID] = true
			}
		}
		file.Resolve(map[string]string{"org": value})

		tf, ps := Load("t.yaml", []byte(template))
		if len(ps) > 0 {
			t.Fatal(ps)
		}
		ps = tf.Resolve(map[string]string{"org": value})
		want := "SELECT name FROM github.repos.repos WHERE org = " + SQLString(value)
		if len(ps) == 0 && tf.Controls[0].SQL != want {
			t.Fatalf("value %q resolved to %q, want %q", value, tf.Controls[0].SQL, want)
		}
		if len(ps) == 0 && strings.ContainsAny(value, "\r\n\x00") {
			t.Fatalf("multi-line value %q accepted", value)
		}
	})
}
