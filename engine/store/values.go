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
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i, nil
		}
		return strconv.ParseFloat(string(v), 64)
	case jsonparser.Boolean:
		if len(v) > 0 && v[0] == 't' {
			return int64(1), nil
		}
		return int64(0), nil
	case jsonparser.Null:
		return nil, nil
	case jsonparser.Object, jsonparser.Array:
		return string(v), nil
	}
	return nil, fmt.Errorf("unexpected JSON value %.20q", v)
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
			return nil, fmt.Errorf("invalid JSON")
		}
		return string(raw), nil
	}
	if i, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return i, nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON value %.20q", raw)
	}
	return f, nil
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
