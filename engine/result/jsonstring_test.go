package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// WriteJSONString writes what encoding/json writes (HTML escaping off).
func FuzzWriteJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `quote " and \ slash`, "tab\tnew\nline\r", "<b>&amp;</b>", "é ü 日本", "\u2028\u2029", "bad \xff utf8 \xe2\x82", "\x00\b\f\x1f\x7f", "\u0080\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		n := WriteJSONString(&got, s)
		if got.String()+"\n" != want.String() || n != got.Len() {
			t.Fatalf("WriteJSONString(%q) = %s (%d bytes), encoding/json %s", s, got.String(), n, want.String())
		}
	})
}
