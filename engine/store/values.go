package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/buger/jsonparser"

	"github.com/enginehq/engine/providers"
)

// scalar converts one value found by jsonparser (strings without their
// quotes) to its SQLite form. The page it comes from was validated whole.
func scalar(v []byte, typ jsonparser.ValueType) (any, error) {
	switch typ {
	case jsonparser.String:
		if bytes.IndexByte(v, '\\') < 0 {
			return string(v), nil
		}
		return jsonparser.ParseString(v)
	case jsonparser.Number:
		return number(v)
	case jsonparser.Boolean:
		if len(v) > 0 && v[0] == 't' {
			return int64(1), nil
		}
		return int64(0), nil
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
// 64 bits, else a float; a number beyond a float's range is an error.
func number(v []byte) (any, error) {
	if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return i, nil
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

// Value converts one JSON value to its SQLite form.
func Value(raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	switch raw[0] {
	case 'n':
		return nil, nil
	case 't':
		return int64(1), nil
	case 'f':
		return int64(0), nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return s, nil
	case '{', '[':
		if !json.Valid(raw) {
			return nil, &DecodeError{Msg: "invalid JSON"}
		}
		if err := checkDepth(raw); err != nil {
			return nil, err
		}
		return string(raw), nil
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
