package mcpsurface

import (
	"bufio"
	"encoding/json"
	"strconv"

	"github.com/enginehq/engine/engine/result"
)

// writeRow writes row as a JSON array (the spool's line format, read back
// by decodeRow) straight into w, and returns the bytes written. Strings
// are escaped in place, run by run, so a large value is never copied into
// an encoding of its own (json.Marshal would build the whole encoding,
// growing it by doubling, then copy it).
func writeRow(w *bufio.Writer, row []any) (int, error) {
	n := 1
	w.WriteByte('[') //nolint:errcheck // the first error sticks in w
	for i, v := range row {
		if i > 0 {
			w.WriteByte(',') //nolint:errcheck
			n++
		}
		switch x := v.(type) {
		case nil:
			n += writeRaw(w, "null")
		case bool:
			n += writeRaw(w, strconv.FormatBool(x))
		case int64:
			n += writeRaw(w, strconv.FormatInt(x, 10))
		case string:
			n += result.WriteJSONString(w, x)
		default:
			b, err := json.Marshal(x) // floats (json's shortest exact form)
			if err != nil {
				return n, err
			}
			m, _ := w.Write(b)
			n += m
		}
	}
	w.WriteByte(']') //nolint:errcheck
	return n + 1, nil
}

func writeRaw(w *bufio.Writer, s string) int {
	m, _ := w.WriteString(s)
	return m
}
