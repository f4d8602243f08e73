package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/buger/jsonparser"

	"github.com/enginehq/engine/providers"
)

// emptyItem is the single item of a ShapeNone success.
var emptyItem = json.RawMessage(`{}`)

// decodeItems extracts the items of a 2xx body according to the method's
// shape. contentType is the response's Content-Type: a method whose one
// item is declared a string takes a text/* body whole, as ShapeText does
// (servers such as Kubernetes answer a log as text/plain whatever the
// Accept). The error is a plain message; the caller wraps it as a decode
// ProviderError.
func decodeItems(m *providers.Method, status int, body []byte, contentType string) ([]json.RawMessage, error) {
	if m.Shape == providers.ShapeNone {
		return []json.RawMessage{emptyItem}, nil
	}
	b := bytes.TrimSpace(body)
	if status == http.StatusNoContent && len(b) == 0 {
		return nil, nil
	}
	if m.Shape == providers.ShapeText || m.Shape == providers.ShapeObject && m.ValueType == providers.TypeText && textual(contentType) {
		// The whole text is the one item, as a JSON string (invalid
		// UTF-8 shows as U+FFFD).
		item, err := json.Marshal(string(body))
		if err != nil {
			return nil, err
		}
		return []json.RawMessage{item}, nil
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("response body is empty, expected %s", describeShape(m))
	}
	if err := validJSON(b); err != nil {
		return nil, fmt.Errorf("response body is not valid JSON: %v", err)
	}
	shape := m.Shape
	if shape == "" { // undeclared: arrays are lists, anything else one item
		shape = providers.ShapeObject
		if b[0] == '[' {
			shape = providers.ShapeArray
		}
	}
	switch shape {
	case providers.ShapeArray:
		return decodeArray(b, "response body")
	case providers.ShapeObject:
		if b[0] != '{' && !m.ValueColumn() {
			return nil, fmt.Errorf("expected a JSON object, got %s", jsonKind(b))
		}
		if m.ItemKey != "" && b[0] == '{' {
			// One entity in a wrapper ({"data": {...}}): that entity is
			// the one item; a wrapper without it is not an answer.
			raw, typ, _, err := jsonparser.Get(b, pathParts(m.ItemKey)...)
			if err != nil || typ == jsonparser.NotExist || len(raw) == 0 {
				return nil, fmt.Errorf("response object has no %q object", m.ItemKey)
			}
			if typ != jsonparser.Object {
				return nil, fmt.Errorf("expected property %q to be a JSON object, got a JSON %s", m.ItemKey, typ)
			}
			return []json.RawMessage{json.RawMessage(bytes.Clone(raw))}, nil
		}
		return []json.RawMessage{json.RawMessage(bytes.Clone(b))}, nil
	case providers.ShapeWrapped:
		if b[0] != '{' {
			return nil, fmt.Errorf("expected a JSON object with key %q, got %s", m.ItemKey, jsonKind(b))
		}
		// The body is valid JSON (checked above): find the key in one pass.
		raw, typ, _, err := jsonparser.Get(b, pathParts(m.ItemKey)...) // "categories.items": one level down
		if err != nil || typ == jsonparser.NotExist {
			if tc, _, _, err := jsonparser.Get(b, "total_count"); err == nil && string(tc) == "0" {
				return nil, nil
			}
			return nil, fmt.Errorf("response object has no %q array", m.ItemKey)
		}
		if typ == jsonparser.Null {
			return nil, nil
		}
		if typ != jsonparser.Array {
			return nil, fmt.Errorf("expected property %q to be a JSON array, got %s", m.ItemKey, jsonKind(raw))
		}
		return decodeArray(raw, fmt.Sprintf("property %q", m.ItemKey))
	}
	return nil, fmt.Errorf("method %s has unknown response shape %q", m.OperationID, m.Shape)
}

// textual reports whether a Content-Type is text/*.
func textual(contentType string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "text/")
}

func decodeArray(b []byte, what string) ([]json.RawMessage, error) {
	if b[0] != '[' {
		return nil, fmt.Errorf("expected %s to be a JSON array, got %s", what, jsonKind(b))
	}
	// b is valid JSON (decodeItems checked it), so the items are split in
	// one pass without copying or validating again. Strings come back
	// without their quotes; they are put back.
	items := []json.RawMessage{}
	var failed error
	_, err := jsonparser.ArrayEach(b, func(v []byte, typ jsonparser.ValueType, _ int, err error) {
		switch {
		case err != nil:
			failed = err
		case typ == jsonparser.String:
			items = append(items, json.RawMessage(`"`+string(v)+`"`))
		default:
			items = append(items, json.RawMessage(v))
		}
	})
	if err == nil {
		err = failed
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not a valid JSON array: %v", what, err)
	}
	return items, nil
}

// validJSON reports the decoder's error for an invalid document (json.Valid
// says only yes or no).
func validJSON(b []byte) error {
	if json.Valid(b) {
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		if err.Error() == "unexpected end of JSON input" {
			return fmt.Errorf("unexpected EOF (truncated body)")
		}
		return err
	}
	return fmt.Errorf("invalid JSON")
}

func jsonKind(b []byte) string {
	switch b[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

func describeShape(m *providers.Method) string {
	switch m.Shape {
	case providers.ShapeArray:
		return "a JSON array"
	case providers.ShapeWrapped:
		return fmt.Sprintf("a JSON object with key %q", m.ItemKey)
	}
	return "a JSON object"
}
