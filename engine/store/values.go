package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/buger/jsonparser"

	"github.com/enginehq/engine/providers"
)

// cell converts one value found by jsonparser (strings without their
// quotes) to its SQLite form in a column of type col (a providers type).
// The page it comes from was validated whole.
//
// A JSON column holds the JSON text of every value but null: an object
// or array as is, a string with its quotes ("cus_123" is stored as
// '"cus_123"'), a number as written, a boolean as true or false; so
// SQLite's JSON functions read every value of the column (json_extract
// of a path into a string is NULL, not an error) and every value keeps
// its JSON type. Other columns hold strings as TEXT, integers as INTEGER,
// other numbers as REAL (see number for integers beyond 64 bits), and
// booleans as 0/1 (as true/false text in a TEXT column).
func cell(v []byte, typ jsonparser.ValueType, col string) (any, error) {
	if col == providers.TypeJSON {
		switch typ {
		case jsonparser.Null:
			return nil, nil
		case jsonparser.String:
			return `"` + string(v) + `"`, nil
		case jsonparser.Object, jsonparser.Array:
			if err := checkDepth(v); err != nil {
				return nil, err
			}
		}
		return string(v), nil
	}
	switch typ {
	case jsonparser.String:
		if bytes.IndexByte(v, '\\') < 0 {
			return string(v), nil
		}
		return jsonparser.ParseString(v)
	case jsonparser.Number:
		return number(v)
	case jsonparser.Boolean:
		return boolean(v[0] == 't', col), nil
	case jsonparser.Null:
		return nil, nil
	case jsonparser.Object, jsonparser.Array:
		if err := checkDepth(v); err != nil {
			return nil, err
		}
		return string(v), nil
	}
	return nil, &DecodeError{Msg: fmt.Sprintf("unexpected JSON value %.20q", v)}
}

// boolean is a JSON boolean in a column of type col: true/false text in
// a TEXT column (where 1 would read as a number), else 1/0.
func boolean(b bool, col string) any {
	if col == providers.TypeText {
		return strconv.FormatBool(b)
	}
	if b {
		return int64(1)
	}
	return int64(0)
}

// MaxJSONDepth is the deepest nesting SQLite's JSON functions read; a
// deeper response value would make json_extract fail as if the user's
// SQL were wrong, so it is refused when loaded, as the provider's fault.
const MaxJSONDepth = 1000

// DecodeError is a response value that SQLite cannot hold faithfully (a
// number beyond a 64-bit float, JSON nested deeper than MaxJSONDepth):
// the provider's response is at fault, not the statement.
type DecodeError struct {
	Property string // "" for a whole item
	Msg      string
}

func (e *DecodeError) Error() string {
	if e.Property != "" {
		return "property " + e.Property + ": " + e.Msg
	}
	return e.Msg
}

// number converts a JSON number: an integer when it is one that fits in
// 64 bits, else a float; a number beyond a float's range is an error. An
// integer beyond 64 bits is kept exact: its decimal digits as a BLOB,
// which no column affinity converts (as TEXT, an INTEGER or REAL column
// would turn it into a rounded float); it reads back as a string.
func number(v []byte) (any, error) {
	i, err := strconv.ParseInt(string(v), 10, 64)
	if err == nil {
		return i, nil
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return bytes.Clone(v), nil // an integer beyond 64 bits, kept exact
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return nil, &DecodeError{Msg: fmt.Sprintf("the number %.40s is out of the range of a 64-bit float", v)}
		}
		return nil, &DecodeError{Msg: fmt.Sprintf("invalid JSON number %.40q", v)}
	}
	return f, nil
}

// checkDepth refuses JSON nested deeper than MaxJSONDepth. A value
// shorter than 2*MaxJSONDepth bytes cannot be, so most are not scanned.
func checkDepth(v []byte) error {
	if len(v) <= 2*MaxJSONDepth {
		return nil
	}
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	if deepest > MaxJSONDepth {
		return &DecodeError{Msg: fmt.Sprintf("JSON nested %d levels deep; SQLite's JSON functions read at most %d", deepest, MaxJSONDepth)}
	}
	return nil
}

// Value converts one JSON value (a whole item) to its SQLite form in a
// column of type col, by the rules of cell.
func Value(raw json.RawMessage, col string) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	switch raw[0] {
	case 'n':
		return nil, nil
	case '{', '[':
		if !json.Valid(raw) {
			return nil, &DecodeError{Msg: "invalid JSON"}
		}
		if err := checkDepth(raw); err != nil {
			return nil, err
		}
		return string(raw), nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		if col != providers.TypeJSON {
			return s, nil
		}
	}
	if col == providers.TypeJSON {
		return string(raw), nil // the JSON text of a string too, quotes and all
	}
	if raw[0] == 't' || raw[0] == 'f' {
		return boolean(raw[0] == 't', col), nil
	}
	return number(raw)
}

// ParamValue converts a bound parameter value to its column form.
func ParamValue(p providers.Param, v string) any {
	switch p.Type {
	case providers.TypeInteger:
		if i, err := strconv.ParseInt(v, 10, 64); err == nil {
			return i
		}
	case providers.TypeReal:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	case providers.TypeBoolean:
		switch v {
		case "true", "1":
			return int64(1)
		case "false", "0":
			return int64(0)
		}
	}
	return v
}
