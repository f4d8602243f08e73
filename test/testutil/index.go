package testutil

import (
	"bytes"
	"encoding/json"
	"testing"
)

// EditIndexHeader returns a compiled index (openapi.Compile's encoding)
// with its header line, the JSON object before the first newline,
// changed by edit: what someone who can write an index file could plant.
// It fails the test when the index has no JSON header line.
func EditIndexHeader(t testing.TB, index []byte, edit func(h map[string]any)) []byte {
	t.Helper()
	head, body, ok := bytes.Cut(index, []byte("\n"))
	if !ok {
		t.Fatal("index without a header line")
	}
	var h map[string]any
	if err := json.Unmarshal(head, &h); err != nil {
		t.Fatal(err)
	}
	edit(h)
	head, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(head, '\n'), body...)
}
