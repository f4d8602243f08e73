package pg

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// encode appends the wire form of v as a value of the type oid in format
// (0 text, 1 binary); nil is NULL (the caller writes -1).
func encode(buf []byte, v any, oid uint32, format int16) ([]byte, error) {
	if format == 0 {
		return appendText(buf, v, oid), nil
	}
	switch oid {
	case oidInt8, oidInt4, oidInt2:
		n, ok := asInt(v)
		if !ok {
			return nil, fmt.Errorf("cannot send %v as an integer", v)
		}
		switch oid {
		case oidInt4:
			return binary.BigEndian.AppendUint32(buf, uint32(int32(n))), nil
		case oidInt2:
			return binary.BigEndian.AppendUint16(buf, uint16(int16(n))), nil
		}
		return binary.BigEndian.AppendUint64(buf, uint64(n)), nil
	case oidFloat8, oidFloat4:
		f, ok := asFloat(v)
		if !ok {
			return nil, fmt.Errorf("cannot send %v as a number", v)
		}
		if oid == oidFloat4 {
			return binary.BigEndian.AppendUint32(buf, math.Float32bits(float32(f))), nil
		}
		return binary.BigEndian.AppendUint64(buf, math.Float64bits(f)), nil
	case oidBool:
		b, ok := asBool(v)
		if !ok {
			return nil, fmt.Errorf("cannot send %v as a boolean", v)
		}
		if b {
			return append(buf, 1), nil
		}
		return append(buf, 0), nil
	case oidJSONB:
		return append(append(buf, 1), textOf(v)...), nil
	case oidBytea:
		if b, ok := v.([]byte); ok {
			return append(buf, b...), nil
		}
		return append(buf, textOf(v)...), nil
	}
	// text, varchar, json, unknown: the text itself.
	return append(buf, textOf(v)...), nil
}

// appendText is v in Postgres's text output (booleans t/f, bytea \x hex).
func appendText(buf []byte, v any, oid uint32) []byte {
	if oid == oidBool {
		if b, ok := asBool(v); ok {
			if b {
				return append(buf, 't')
			}
			return append(buf, 'f')
		}
	}
	if b, ok := v.([]byte); ok && oid == oidBytea {
		buf = append(buf, `\x`...)
		return hex.AppendEncode(buf, b)
	}
	return append(buf, textOf(v)...)
}

// textOf is result.Text, but for Postgres's names of the float
// specials.
func textOf(v any) string {
	if f, ok := v.(float64); ok {
		return formatFloat(f)
	}
	return result.Text(v)
}

func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func asInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
			return int64(v), true
		}
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		return n, err == nil
	}
	return 0, false
}

func asFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case int:
		return float64(v), true
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f, err == nil
	}
	return 0, false
}

func asBool(v any) (bool, bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case int64:
		return v != 0, true
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "t", "true", "1", "yes", "on":
			return true, true
		case "f", "false", "0", "no", "off":
			return false, true
		}
	}
	return false, false
}

// decodeParam reads one Bind parameter: its type is the one the client
// declared in Parse (0 or unknown: text), its format text or binary.
func decodeParam(b []byte, oid uint32, format int16) (param, error) {
	if b == nil {
		return nil, nil
	}
	if format == 0 {
		s := string(b)
		switch oid {
		case oidInt2, oidInt4, oidInt8, oidOID:
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("invalid input syntax for type integer: %q", s)
			}
			return n, nil
		case oidFloat4, oidFloat8, oidNumeric:
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("invalid input syntax for type double precision: %q", s)
			}
			return f, nil
		case oidBool:
			v, ok := asBool(s)
			if !ok {
				return nil, fmt.Errorf("invalid input syntax for type boolean: %q", s)
			}
			return v, nil
		}
		return s, nil
	}
	switch oid {
	case oidInt8:
		if len(b) == 8 {
			return int64(binary.BigEndian.Uint64(b)), nil
		}
	case oidInt4, oidOID:
		if len(b) == 4 {
			if oid == oidOID {
				return int64(binary.BigEndian.Uint32(b)), nil
			}
			return int64(int32(binary.BigEndian.Uint32(b))), nil
		}
	case oidInt2:
		if len(b) == 2 {
			return int64(int16(binary.BigEndian.Uint16(b))), nil
		}
	case oidFloat8:
		if len(b) == 8 {
			return math.Float64frombits(binary.BigEndian.Uint64(b)), nil
		}
	case oidFloat4:
		if len(b) == 4 {
			return float64(math.Float32frombits(binary.BigEndian.Uint32(b))), nil
		}
	case oidBool:
		if len(b) == 1 {
			return b[0] != 0, nil
		}
	case oidText, oidVarchar, oidJSON, oidUnknown, 0:
		return string(b), nil
	case oidJSONB:
		if len(b) > 0 && b[0] == 1 {
			return string(b[1:]), nil
		}
	default:
		return nil, errorf(stateFeature, "a parameter of type OID %d in binary format is not supported: send it as text", oid)
	}
	return nil, errorf(stateProtocol, "a binary parameter of type OID %d has %d bytes", oid, len(b))
}
