package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// Overrides is data about a document that the document cannot express. It
// is committed next to the generator, e.g.
//
//	{"absent": {"repos/get-branch-protection": {"statuses": [404], "reason": "..."}}}
//
// Absent maps an operationId to the HTTP statuses that mean "no rows for
// this key" (Method.AbsentStatuses), with the reason they do.
type Overrides struct {
	Absent map[string]AbsentOverride `json:"absent"`
}

// AbsentOverride lists statuses meaning "no rows" for one operation.
type AbsentOverride struct {
	Statuses []int  `json:"statuses"`
	Reason   string `json:"reason"`
}

// ParseOverrides decodes and checks an overrides file. Unknown fields, a
// missing reason, and statuses that can never mean absence (anything but
// 4xx other than 401, 403 and 429) are refused.
func ParseOverrides(data []byte) (*Overrides, error) {
	var o Overrides
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return nil, fmt.Errorf("overrides: %w", err)
	}
	for op, a := range o.Absent {
		if len(a.Statuses) == 0 {
			return nil, fmt.Errorf("overrides: absent %s: no statuses", op)
		}
		if a.Reason == "" {
			return nil, fmt.Errorf("overrides: absent %s: a reason is required", op)
		}
		for _, s := range a.Statuses {
			if s == 401 || s == 403 || s == 429 || s < 400 || s > 499 {
				return nil, fmt.Errorf("overrides: absent %s: status %d cannot mean \"no rows\" (only 4xx other than 401, 403 and 429)", op, s)
			}
		}
	}
	return &o, nil
}

// Apply sets Method.AbsentStatuses on the derived resources. Every listed
// operation must be a GET of doc that documents each listed status.
func (o *Overrides) Apply(doc *openapi3.T, resources []*providers.Resource) error {
	if o == nil || len(o.Absent) == 0 {
		return nil
	}
	byOp := map[string]*providers.Method{}
	for _, r := range resources {
		for _, m := range r.Methods {
			if m.OperationID != "" {
				byOp[m.OperationID] = m
			}
		}
	}
	ops := make([]string, 0, len(o.Absent))
	for op := range o.Absent {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		m := byOp[op]
		if m == nil {
			return fmt.Errorf("overrides: absent %s: no GET operation with that operationId", op)
		}
		var declared *openapi3.Responses
		if item := doc.Paths.Value(m.Path); item != nil && item.Get != nil {
			declared = item.Get.Responses
		}
		statuses := append([]int(nil), o.Absent[op].Statuses...)
		sort.Ints(statuses)
		for _, s := range statuses {
			if declared == nil || declared.Value(strconv.Itoa(s)) == nil {
				return fmt.Errorf("overrides: absent %s: the operation does not document status %d", op, s)
			}
		}
		m.AbsentStatuses = statuses
	}
	return nil
}

// BuildIndex derives the provider name from doc, applies the overrides (may
// be nil) and returns the encoded index. The output is deterministic.
func BuildIndex(doc *openapi3.T, name string, o *Overrides) ([]byte, error) {
	h, resources, err := Derive(doc, name)
	if err != nil {
		return nil, err
	}
	if err := o.Apply(doc, resources); err != nil {
		return nil, err
	}
	return providers.Encode(h, resources)
}
