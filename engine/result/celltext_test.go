package result

import (
	"bytes"
	"testing"
)

// A JSON column holds JSON text: -o json gives its values as JSON values
// (a string stays a string, whatever it looks like), the text formats show
// a string as itself and anything else as its JSON text.
func TestJSONColumnCells(t *testing.T) {
	cols := []Column{{Name: "j", Type: TypeJSON}, {Name: "t", Type: TypeText}}
	rows := [][]any{{`"cus_1"`, `"x"`}, {`"42"`, "42"}, {`"null"`, nil}, {`{"a": 1}`, "{}"}, {`true`, "true"}, {`"tab\there"`, ""}}
	var b bytes.Buffer
	if err := Write(&b, &Result{Columns: cols, Rows: rows}, "json", 0); err != nil {
		t.Fatal(err)
	}
	want := "[\n  {\"j\": \"cus_1\", \"t\": \"\\\"x\\\"\"},\n  {\"j\": \"42\", \"t\": \"42\"},\n  {\"j\": \"null\", \"t\": null},\n  {\"j\": {\"a\":1}, \"t\": \"{}\"},\n  {\"j\": true, \"t\": \"true\"},\n  {\"j\": \"tab\\there\", \"t\": \"\"}\n]\n"
	if b.String() != want {
		t.Errorf("json:\n got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	if err := Write(&b, &Result{Columns: cols, Rows: rows}, "csv", 0); err != nil {
		t.Fatal(err)
	}
	if want := "j,t\ncus_1,\"\"\"x\"\"\"\n42,42\nnull,\n\"{\"\"a\"\": 1}\",{}\ntrue,true\ntab\there,\n"; b.String() != want {
		t.Errorf("csv:\n got %q\nwant %q", b.String(), want)
	}
	if got := TSVRow(cols, rows[5]); got != `tab\there`+"\t" {
		t.Errorf("tsv %q", got)
	}
}
