package mcpsurface

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/enginehq/engine/engine/result"
)

// TestWriteRowRoundTrip: the spool's own JSON writer reads back (decodeRow)
// to the values it was given, and agrees with encoding/json on what the
// text means, for escapes, control characters, invalid UTF-8 and the
// line separators.
func TestWriteRowRoundTrip(t *testing.T) {
	cols := []result.Column{{Name: "s", Type: result.TypeText}, {Name: "i", Type: result.TypeInteger}, {Name: "f", Type: result.TypeReal},
		{Name: "b", Type: result.TypeBoolean}, {Name: "n", Type: result.TypeText}, {Name: "j", Type: result.TypeJSON}}
	for _, s := range []string{"", "plain", `q"uote\back`, "tab\tnl\ncr\r\x00\x1f\x7f", "é€😀", "bad\xff\xfeutf8", "sep\u2028\u2029", "<>&", `{"a":[1,"x"]}`} {
		row := []any{s, int64(-42), 2.5, true, nil, `{"k":"` + s + `"}`}
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		n, err := writeRow(w, row)
		if err != nil || w.Flush() != nil || n != b.Len() {
			t.Fatalf("%q: n %d, %d bytes written, %v", s, n, b.Len(), err)
		}
		got, err := decodeRow(b.String(), cols)
		if err != nil {
			t.Fatalf("%q: %v in %s", s, err, b.String())
		}
		want, _ := json.Marshal(row)
		back, _ := decodeRow(string(want), cols)
		if !reflect.DeepEqual(got, back) {
			t.Fatalf("%q: got %#v, encoding/json's reads back %#v", s, got, back)
		}
	}
}
