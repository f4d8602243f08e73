package providers

import (
	"cmp"
	"regexp"
	"slices"
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

// Where a parameter, or an apiKey (SecurityScheme.In), goes: OpenAPI's "in".
const (
	InPath  = "path"
	InQuery = "query"
	// InHeader: a request header the method declares (X-Api-Version);
	// bound from WHERE like a query parameter.
	InHeader = "header"
	// InCookie: only where an apiKey goes (SecurityScheme.In), as
	// OpenAPI's "in" has it; no parameter is bound to a cookie.
	InCookie = "cookie"
)

// Column is one top-level property of a method's items.
type Column struct {
	// Name is the SQL name: the API name as written, with a suffix when
	// two names of one table are equal ignoring case (see
	// openapi.AssignSQLNames). SQL matches it ignoring case.
	Name string `json:"n"`
	Type string `json:"t"`
	// API is the JSON key of the property in the items as the provider
	// writes it, when it differs from Name (e.g. "organizerKey" for the
	// column organizerKey_2 of a table that also has OrganizerKey).
	API string `json:"a,omitempty"`
}

// Key is the JSON key of the column in the provider's items.
func (c Column) Key() string { return cmp.Or(c.API, c.Name) }

// Param is one API parameter of a method.
type Param struct {
	Name     string `json:"n"`
	In       string `json:"in"`
	Required bool   `json:"req,omitempty"`
	Type     string `json:"t,omitempty"`
	// API is the parameter's name as the provider spells it (in the path
	// template and the query string), when it differs from Name, the SQL
	// name (only when a suffix told apart two names equal ignoring case).
	API string `json:"a,omitempty"`
	// AlsoQuery marks a path parameter whose value is also sent as the
	// query parameter of the same name, which the method declares too
	// (Trello's /tokens/{token}?token=).
	AlsoQuery bool `json:"q,omitempty"`
	// Slashes marks a path parameter whose value is a path of several
	// segments (OpenAPI's x-multi-segment: GitHub's contents path, a git
	// ref): its slashes are sent as written, each segment escaped, and
	// empty, "." and ".." segments are refused before any request. Every
	// other path parameter is one segment, its slashes escaped.
	Slashes bool `json:"sl,omitempty"`
	// Enum lists the values the description allows, as the API reads
	// them (strings as written, integers in decimal), when the parameter
	// is a string or integer with an enum; nil: any value.
	Enum []string `json:"e,omitempty"`
	// Default is the value the API assumes when the parameter is not
	// sent, as the description declares it (a scalar), or "".
	Default string `json:"d,omitempty"`
	// Preset is the value set once for the provider (the profile's or
	// the config's params, presets.go), sent when WHERE binds none; such
	// a parameter is never required. Set when the resource is decoded,
	// never stored in an index.
	Preset string `json:"-"`
}

// Allows reports whether v is a value the parameter takes: any value
// without an enum, else one of Enum exactly (an API reads "Open" and
// "open" as different values).
func (p Param) Allows(v string) bool {
	return len(p.Enum) == 0 || slices.Contains(p.Enum, v)
}

// Key is the parameter's name for the API.
func (p Param) Key() string { return cmp.Or(p.API, p.Name) }

// Method is one GET operation a resource can be read with.
type Method struct {
	// Name is the operation name in snake_case without its service prefix,
	// e.g. "list_for_org" for operationId "repos/list-for-org".
	Name string `json:"name"`
	// OperationID is the document's operationId.
	OperationID string `json:"op"`
	// Summary is the first sentence of the operation's summary ("List
	// repositories for the authenticated user"), or "": which rows of the
	// table the method reads (the table's own is Resource.Summary).
	Summary string  `json:"sum,omitempty"`
	Path    string  `json:"path"`
	Params  []Param `json:"params,omitempty"`
	Shape   Shape   `json:"shape"`
	// ItemKey names the array property of a wrapped response.
	ItemKey string `json:"key,omitempty"`
	// Paginated is true when the method takes page/per_page (or is a list
	// that answers with Link headers).
	Paginated bool `json:"pg,omitempty"`
	// Paging says how to get further pages when they are not announced
	// by Link headers (cursor, next URL or offset in the body); nil means
	// Link headers only, and an answer that says there is more without
	// one is an error (see providers/client).
	Paging  *Paging  `json:"paging,omitempty"`
	Columns []Column `json:"cols,omitempty"`
	// ValueType is the type of the value column that holds whole items
	// when they are not objects with properties (ValueColumn): TEXT,
	// INTEGER, REAL or BOOLEAN when the schema says every item is that
	// scalar, else "" (JSON).
	ValueType string `json:"vt,omitempty"`
	// Accept is the Accept header the method's success answer is
	// declared with when that is not application/json (e.g.
	// "application/jwk-set+json", "text/plain"); "" means
	// application/json.
	Accept string `json:"accept,omitempty"`
	// Absent lists the answers that mean "no rows for this key" rather than
	// an error: a status together with the exact message (or a message
	// pattern) the provider documents, e.g. 404 "Branch not protected" on
	// branch protection. A status alone never means absence; neither does
	// any answer reached through a redirect. Never 401, 403, 429 or 5xx.
	Absent []AbsentRule `json:"absent,omitempty"`
	// IncompleteFlag names a top-level boolean property of a 2xx body that,
	// when true, says the answer is partial (GitHub search:
	// "incomplete_results"). Such an answer is an error of kind
	// "incomplete", never rows.
	IncompleteFlag string `json:"incomplete,omitempty"`
	// Partial is the marker by which the provider says, in a 2xx answer
	// of this method, that the answer is cut short (GitHub's git tree
	// "truncated": true); such an answer is an error of kind
	// "incomplete", never rows. nil: none.
	Partial *PartialMarker `json:"partial,omitempty"`
	// CountCap is a count at which the provider stops serving an answer
	// of this method without saying so (GitHub: a pull request's files at
	// 3,000, a directory's entries at 1,000, a comparison's files at 300);
	// an answer that reaches it is an error of kind "incomplete", or, for a
	// window the provider documents (events), a notice. nil: none.
	CountCap *CountCap `json:"count_cap,omitempty"`
	// RedirectAdvice is added to the error when the method is answered with
	// a redirect that is not followed (e.g. GitHub's membership check
	// redirects callers who are not org members to the public-membership
	// check).
	RedirectAdvice string `json:"redirect,omitempty"`
	// Cap says the provider serves at most a fixed number of the answer's
	// results, whatever its pages (GitHub search: the first 1,000), while
	// the body counts every match; nil: no cap.
	Cap *ResultCap `json:"cap,omitempty"`
	// Auth is the operation's security requirements (else the
	// document's) over Header.Security's schemes: alternatives, each the
	// names of the schemes it needs together; an empty alternative allows
	// an anonymous request. nil: the method needs no credentials
	// (security.go, Credentials.ForMethod).
	Auth [][]string `json:"auth,omitempty"`
}

// ResultCap is a method's result cap (Method.Cap). When the first page's
// Total is larger than Max, the answer is complete only if the engine
// gets every match: by splitting the query (Split) or not at all (an
// error of kind "incomplete"), never the first Max as if they were all.
type ResultCap struct {
	// Max is the most results the provider serves of one query.
	Max int `json:"max"`
	// Total is the body path of the number of matches ("total_count").
	Total string `json:"total"`
	// Split, when set, is how one query becomes several whose matches
	// each fit under Max; nil: the query cannot be split.
	Split *CapSplit `json:"split,omitempty"`
	// Advice says how to narrow a query that cannot be split (or split
	// further), shown in the error.
	Advice string `json:"advice,omitempty"`
}

// CapSplit splits a capped query into date ranges: the date qualifier
// Qualifier ("created") is added to the query parameter Param ("q") as
// Qualifier:FROM..TO, the ranges bisected until each one's matches fit.
type CapSplit struct {
	Param     string `json:"param"`
	Qualifier string `json:"qualifier"`
	// Key lists the item paths that identify a result ("id"; commits:
	// "repository.id" and "sha"): results seen in two ranges are kept once.
	Key []string `json:"key"`
	// From is the earliest date (YYYY-MM-DD) the provider has data of
	// (GitHub: 2007-10-01): ranges lie between it and now, with an
	// open-ended range after; none is asked for before it.
	From string `json:"from"`
	// Field is the item path holding the qualifier's date ("created_at"):
	// the first page's items tell where the matches begin, so the split
	// starts there, in as many ranges as the count needs, instead of
	// bisecting from From. "": bisect from From.
	Field string `json:"field,omitempty"`
}

// AbsentRule is one answer that means "no rows": Status and either the
// exact Message (compared after trimming spaces) or Pattern, a Go regexp
// that must match the whole message.
type AbsentRule struct {
	Status  int    `json:"status"`
	Message string `json:"message,omitempty"`
	Pattern string `json:"pattern,omitempty"`
}

// Matches reports whether an answer with this status and message is the
// documented absence.
func (r AbsentRule) Matches(status int, message string) bool {
	if status != r.Status {
		return false
	}
	message = strings.TrimSpace(message)
	switch {
	case r.Message != "":
		return message == r.Message
	case r.Pattern != "":
		re, err := regexp.Compile(`^(?:` + r.Pattern + `)$`)
		return err == nil && re.MatchString(message)
	}
	return false // a rule without a message never matches
}

// Resource groups the GET methods of one service/resource pair.
type Resource struct {
	Provider string    `json:"provider"`
	Service  string    `json:"service"`
	Name     string    `json:"name"`
	Methods  []*Method `json:"methods"`
	// Summary is one line saying what a row is and how the table is read.
	Summary string `json:"summary,omitempty"`
	// Docs maps a column to the first sentence of its description in the
	// provider's document.
	Docs map[string]string `json:"docs,omitempty"`
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

// ValueColumn reports whether the method's rows hold each item whole in
// one column named ValueName: items that are not objects with known
// properties (string lists, free-form maps, a plain string body).
func (m *Method) ValueColumn() bool {
	return len(m.Columns) == 0 && m.Shape != ShapeNone
}

// ValueName is the column of whole items (ValueColumn).
const ValueName = "value"

// ValueColumnType is the type of the value column: ValueType, else JSON.
func (m *Method) ValueColumnType() string {
	return cmp.Or(m.ValueType, TypeJSON)
}

// Param returns the parameter with the given SQL name, or nil. SQL
// names are compared ignoring case (they are unique ignoring case within
// a method); an exact match wins.
func (m *Method) Param(name string) *Param {
	if i := lookup(len(m.Params), func(i int) string { return m.Params[i].Name }, name); i >= 0 {
		return &m.Params[i]
	}
	return nil
}

// ParamByKey returns the parameter the API calls key (Param.Key), or nil.
func (m *Method) ParamByKey(key string) *Param {
	for i := range m.Params {
		if m.Params[i].Key() == key {
			return &m.Params[i]
		}
	}
	return nil
}

// Column returns the column with the given SQL name (compared ignoring
// case, an exact match winning), or nil.
func (m *Method) Column(name string) *Column {
	if i := lookup(len(m.Columns), func(i int) string { return m.Columns[i].Name }, name); i >= 0 {
		return &m.Columns[i]
	}
	return nil
}

// lookup returns the index among n names (nameAt) of the one equal to
// name, else of the first equal ignoring case, else -1.
func lookup(n int, nameAt func(int) string, name string) int {
	found := -1
	for i := 0; i < n; i++ {
		switch at := nameAt(i); {
		case at == name:
			return i
		case found < 0 && strings.EqualFold(at, name):
			found = i
		}
	}
	return found
}

// IsAbsent reports whether an answer with this status and message (the
// provider's error message, e.g. GitHub's "message") is declared to mean
// "no rows".
func (m *Method) IsAbsent(status int, message string) bool {
	for _, r := range m.Absent {
		if r.Matches(status, message) {
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

// Shape is how a method's successful answer holds its items.
type Shape string

// Response shapes of a method.
const (
	// ShapeArray: the body is a JSON array of items.
	ShapeArray Shape = "array"
	// ShapeObject: the body is one item.
	ShapeObject Shape = "object"
	// ShapeWrapped: the body is an object whose ItemKey property holds the
	// array of items (e.g. {"total_count": 3, "workflow_runs": [...]}).
	ShapeWrapped Shape = "wrapped"
	// ShapeNone: the method answers without a JSON body (e.g. 204 checks);
	// a success yields one row holding only the bound parameters.
	ShapeNone Shape = "none"
	// ShapeText: the body is plain text (text/plain, e.g. a log); a
	// success yields one row whose value column holds the whole text.
	ShapeText Shape = "text"
)

// CountCap is a method's count cap (Method.CountCap): the body path of an
// array whose elements are counted over every page of a call ("files" of
// a commit), or "" for the call's rows; Max, the count at which the
// provider stops; why (Reason) and what to do instead (Advice). Notice:
// reaching it is the provider's documented window (events), said as a
// notice beside complete rows, not an error.
type CountCap struct {
	Property string `json:"property,omitempty"`
	Max      int    `json:"max"`
	Reason   string `json:"reason"`
	Advice   string `json:"advice,omitempty"`
	Notice   bool   `json:"notice,omitempty"`
}

// PartialMarker is a method's "cut short" marker (Method.Partial): the
// body path of a property and the JSON text of the value that marks the
// answer partial, why the provider cuts it (Reason) and what to do
// instead (Advice).
type PartialMarker struct {
	Property string `json:"property"`
	Value    string `json:"value"`
	Reason   string `json:"reason"`
	Advice   string `json:"advice,omitempty"`
}
