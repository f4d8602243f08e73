package providers

import (
	"sort"
	"strings"
)

// Column types as they appear in SQLite and in results. Booleans are stored
// as 0/1 integers and reported as BOOLEAN; objects and arrays are JSON text.
const (
	TypeText    = "TEXT"
	TypeInteger = "INTEGER"
	TypeReal    = "REAL"
	TypeBoolean = "BOOLEAN"
	TypeJSON    = "JSON"
)

// Parameter locations.
const (
	InPath  = "path"
	InQuery = "query"
)

// Response shapes of a method.
const (
	// ShapeArray: the body is a JSON array of items.
	ShapeArray = "array"
	// ShapeObject: the body is one item.
	ShapeObject = "object"
	// ShapeWrapped: the body is an object whose ItemKey property holds the
	// array of items (e.g. {"total_count": 3, "workflow_runs": [...]}).
	ShapeWrapped = "wrapped"
	// ShapeNone: the method answers without a JSON body (e.g. 204 checks);
	// a success yields one row holding only the bound parameters.
	ShapeNone = "none"
)

// Column is one top-level property of a method's items.
type Column struct {
	Name string `json:"n"`
	Type string `json:"t"`
}

// Param is one API parameter of a method.
type Param struct {
	Name     string `json:"n"`
	In       string `json:"in"`
	Required bool   `json:"req,omitempty"`
	Type     string `json:"t,omitempty"`
}

// Method is one GET operation a resource can be read with.
type Method struct {
	// Name is the operation name in snake_case without its service prefix,
	// e.g. "list_for_org" for operationId "repos/list-for-org".
	Name string `json:"name"`
	// OperationID is the document's operationId.
	OperationID string  `json:"op"`
	Path        string  `json:"path"`
	Params      []Param `json:"params,omitempty"`
	Shape       string  `json:"shape"`
	// ItemKey names the array property of a wrapped response.
	ItemKey string `json:"key,omitempty"`
	// Paginated is true when the method takes page/per_page (or is a list
	// that answers with Link headers).
	Paginated bool     `json:"pg,omitempty"`
	Columns   []Column `json:"cols,omitempty"`
	// AbsentStatuses lists HTTP statuses that mean "no rows for this key"
	// rather than an error (e.g. 404 on branch protection). Never 401, 403,
	// 429 or 5xx.
	AbsentStatuses []int `json:"absent,omitempty"`
}

// Resource groups the GET methods of one service/resource pair.
type Resource struct {
	Provider string    `json:"provider"`
	Service  string    `json:"service"`
	Name     string    `json:"name"`
	Methods  []*Method `json:"methods"`
}

// FullName is provider.service.resource.
func (r *Resource) FullName() string {
	return r.Provider + "." + r.Service + "." + r.Name
}

// Method returns the method with the given name, or nil.
func (r *Resource) Method(name string) *Method {
	for _, m := range r.Methods {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Required returns the names of the method's required parameters.
func (m *Method) Required() []string {
	req, _ := m.ParamNames()
	return req
}

// ParamNames returns the names of the required and of the optional
// parameters, each in the method's order.
func (m *Method) ParamNames() (required, optional []string) {
	for _, p := range m.Params {
		if p.Required {
			required = append(required, p.Name)
		} else {
			optional = append(optional, p.Name)
		}
	}
	return required, optional
}

// Param returns the named parameter, or nil.
func (m *Method) Param(name string) *Param {
	for i := range m.Params {
		if m.Params[i].Name == name {
			return &m.Params[i]
		}
	}
	return nil
}

// Column returns the named column, or nil.
func (m *Method) Column(name string) *Column {
	for i := range m.Columns {
		if m.Columns[i].Name == name {
			return &m.Columns[i]
		}
	}
	return nil
}

// IsAbsent reports whether status is declared to mean "no rows".
func (m *Method) IsAbsent(status int) bool {
	for _, s := range m.AbsentStatuses {
		if s == status {
			return true
		}
	}
	return false
}

// ResourceInfo is the cheap summary of a resource, available without
// decoding its methods.
type ResourceInfo struct {
	Service string `json:"s"`
	Name    string `json:"r"`
	Methods int    `json:"m"`
}

// SplitName splits "a.b.c" into its parts, lower-cased.
func SplitName(name string) []string {
	parts := strings.Split(name, ".")
	for i := range parts {
		parts[i] = strings.ToLower(strings.TrimSpace(parts[i]))
	}
	return parts
}

// sortResources orders resources by service then name.
func sortResources(rs []*Resource) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Service != rs[j].Service {
			return rs[i].Service < rs[j].Service
		}
		return rs[i].Name < rs[j].Name
	})
}
