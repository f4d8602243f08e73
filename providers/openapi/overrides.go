package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// ProfileFile is a provider's profile as its file is written: data about
// a document that the document cannot express, one JSON file per provider (GitHub's is
// registry/profiles/github.json; others are given with --provider
// NAME=PATH,profile=FILE; docs/providers.md is the guide). Its run-time
// sections (auth, headers, pagination, rate_limit, errors) are described
// in profile.go; the sections below are about absence and naming, e.g.
//
//	{"absent": {"repos/get-branch-protection":
//	     {"status": 404, "message": "Branch not protected", "reason": "..."}},
//	 "not_absent": {"pulls/check-if-merged": {"reason": "..."}},
//	 "incomplete": {"property": "incomplete_results", "reason": "..."}}
//
// Absent maps an operationId to the one answer that means "no rows for
// this key" (Method.Absent): a status and the exact message, or a message
// pattern, that the provider documents for it, with the reason. A status
// alone is never enough: the same 404 "Not Found" also means "no such
// thing" and "you may not see it".
//
// NotAbsent records operations that were reviewed and deliberately left
// without an absence rule (their "no" cannot be told apart from "not
// visible"), with the reason. It changes nothing in the index; it keeps
// the review next to the data and is checked against the document.
//
// Redirects maps an operationId to advice shown when GitHub answers it
// with a redirect (Method.RedirectAdvice), e.g. the membership check's 302
// for callers who are not org members.
//
// Incomplete names the boolean property by which the provider says, in a
// 2xx answer, that the answer is partial; every method whose 2xx JSON
// response schema declares that property gets Method.IncompleteFlag.
//
// One concept, two forms: ProfileFile is the whole file, read when a
// document is compiled; providers.Profile is the run-time part of it that
// the compiler copies into the index header (the client reads nothing
// else), and the rest becomes methods' data (absences, caps, names).
type ProfileFile struct {
	Absent     map[string]AbsentOverride   `json:"absent"`
	NotAbsent  map[string]Reviewed         `json:"not_absent,omitempty"`
	Redirects  map[string]RedirectOverride `json:"redirects,omitempty"`
	Incomplete *IncompleteOverride         `json:"incomplete,omitempty"`
	// Partial maps an operationId to the marker by which the provider
	// says, in a 2xx answer of that operation, that the answer is cut
	// short (Method.Partial), see PartialOverride.
	Partial map[string]PartialOverride `json:"partial,omitempty"`
	// CountCaps maps an operationId to a count at which the provider
	// stops without a marker (Method.CountCap), see CountCapOverride.
	CountCaps map[string]CountCapOverride `json:"count_caps,omitempty"`
	// ResultCap is the provider's cap on the results of one query
	// (Method.Cap), see ResultCapOverride.
	ResultCap *ResultCapOverride `json:"result_cap,omitempty"`
	// Tables is the naming data of entity tables (see TableNames).
	Tables *TableNames `json:"tables,omitempty"`
	// The run-time profile (profile.go): credentials, default headers,
	// pagination, rate-limit headers, error fields and the "error in a
	// 200" rule.
	Auth       *AuthProfile       `json:"auth,omitempty"`
	Headers    map[string]string  `json:"headers,omitempty"`
	Pagination *PaginationProfile `json:"pagination,omitempty"`
	RateLimit  *RateLimitProfile  `json:"rate_limit,omitempty"`
	Errors     *ErrorsProfile     `json:"errors,omitempty"`
	// Params are parameters set once for every method that takes them
	// (Xero's xero-tenant-id header): a value, or the environment
	// variable that holds it (security.go, providers/presets.go).
	Params map[string]providers.ParamPreset `json:"params,omitempty"`
}

// RedirectOverride is the advice shown when an operation is answered with
// a redirect (which is never followed as data, see providers/client).
type RedirectOverride struct {
	Advice string `json:"advice"`
	Reason string `json:"reason"`
}

// AbsentOverride is the answer meaning "no rows" for one operation.
type AbsentOverride struct {
	Status int `json:"status"`
	// Message is the exact message (GitHub: the body's "message"); Pattern
	// is a Go regexp the whole message must match. Exactly one is set.
	Message string `json:"message,omitempty"`
	Pattern string `json:"pattern,omitempty"`
	Reason  string `json:"reason"`
}

// Reviewed is an operation reviewed and left without an absence rule.
type Reviewed struct {
	Reason string `json:"reason"`
}

// IncompleteOverride names the "partial answer" flag of a provider.
type IncompleteOverride struct {
	Property string `json:"property"`
	Reason   string `json:"reason"`
}

// PartialOverride is one operation's "cut short" marker: the body path
// of a property and the JSON value that marks the answer as partial
// (GitHub's git tree: {"property": "truncated", "value": true}; a file
// over 1 MB: {"property": "encoding", "value": "none"}), why, and what the
// user can do instead.
type PartialOverride struct {
	Property string          `json:"property"`
	Value    json.RawMessage `json:"value"`
	Reason   string          `json:"reason"`
	Advice   string          `json:"advice"`
}

// CountCapOverride is one operation's count cap: where GitHub stops
// without saying so ({"property": "files", "max": 300} on a comparison;
// {"max": 3000} on a pull request's files, the call's rows), why, what
// to do instead, and whether reaching it is a documented window said as
// a notice (events) rather than an error.
type CountCapOverride struct {
	Property string `json:"property,omitempty"`
	Max      int    `json:"max"`
	Reason   string `json:"reason"`
	Advice   string `json:"advice,omitempty"`
	Notice   bool   `json:"notice,omitempty"`
}

// ResultCapOverride is a provider's cap on the results of one query
// (GitHub search serves the first 1,000 matches of any search), the body
// path of the match count, and per operationId how a query of that
// operation is split into date ranges (or, without split, why it cannot
// be), e.g.
//
//	"result_cap": {"max": 1000, "total": "total_count", "reason": "...",
//	  "operations": {
//	    "search/repos": {"split": {"param": "q", "qualifier": "created", "key": ["id"], "from": "2007-10-01"}},
//	    "search/code":  {"reason": "code search has no date qualifier", "advice": "narrow the search with repo:, path:, ..."}}}
type ResultCapOverride struct {
	Max        int                     `json:"max"`
	Total      string                  `json:"total"`
	Reason     string                  `json:"reason"`
	Operations map[string]CapOperation `json:"operations"`
}

// CapOperation is one capped operation: Split, or the Reason it cannot
// be split; Advice says how to narrow its queries.
type CapOperation struct {
	Split  *providers.CapSplit `json:"split,omitempty"`
	Reason string              `json:"reason,omitempty"`
	Advice string              `json:"advice,omitempty"`
}

// check validates the result_cap section.
func (rc *ResultCapOverride) check() error {
	if rc == nil {
		return nil
	}
	if rc.Max <= 0 || rc.Total == "" || rc.Reason == "" || len(rc.Operations) == 0 {
		return fmt.Errorf("overrides: result_cap: max (> 0), total, reason and operations are required")
	}
	for _, op := range sortedOps(rc.Operations) {
		c := rc.Operations[op]
		sp := c.Split
		switch {
		case sp == nil && c.Reason == "":
			return fmt.Errorf("overrides: result_cap.operations %s: give \"split\" or the \"reason\" its queries cannot be split", op)
		case sp == nil:
			continue
		case sp.Param == "" || sp.Qualifier == "" || len(sp.Key) == 0:
			return fmt.Errorf("overrides: result_cap.operations %s: split needs param, qualifier and key", op)
		case strings.ContainsAny(sp.Qualifier, " :\t"):
			return fmt.Errorf("overrides: result_cap.operations %s: split.qualifier %q must be a bare qualifier name (e.g. created)", op, sp.Qualifier)
		}
		if _, err := time.Parse(time.DateOnly, sp.From); err != nil {
			return fmt.Errorf("overrides: result_cap.operations %s: split.from %q must be a date (YYYY-MM-DD)", op, sp.From)
		}
	}
	return nil
}

// ParseProfileFile decodes and checks an overrides file. Unknown fields, a
// missing reason, an absence without a message or pattern (or with both,
// or with a pattern that does not compile), and statuses that can never
// mean absence (anything but 4xx other than 401, 403 and 429) are refused.
func ParseProfileFile(data []byte) (*ProfileFile, error) {
	var o ProfileFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return nil, fmt.Errorf("overrides: %w", err)
	}
	for op, a := range o.Absent {
		if a.Reason == "" {
			return nil, fmt.Errorf("overrides: absent %s: a reason is required", op)
		}
		if s := a.Status; s == 401 || s == 403 || s == 429 || s < 400 || s > 499 {
			return nil, fmt.Errorf("overrides: absent %s: status %d cannot mean \"no rows\" (only 4xx other than 401, 403 and 429)", op, s)
		}
		switch {
		case (a.Message == "") == (a.Pattern == ""):
			return nil, fmt.Errorf("overrides: absent %s: give exactly one of \"message\" (the exact message the provider documents for \"absent\") or \"pattern\"; a status alone cannot tell \"absent\" from \"not found\" or \"not visible\"", op)
		case a.Pattern != "":
			if _, err := regexp.Compile(a.Pattern); err != nil {
				return nil, fmt.Errorf("overrides: absent %s: pattern: %w", op, err)
			}
		}
		if _, dup := o.NotAbsent[op]; dup {
			return nil, fmt.Errorf("overrides: %s is listed both in absent and in not_absent", op)
		}
	}
	for op, r := range o.NotAbsent {
		if r.Reason == "" {
			return nil, fmt.Errorf("overrides: not_absent %s: a reason is required", op)
		}
	}
	for op, r := range o.Redirects {
		if r.Advice == "" || r.Reason == "" {
			return nil, fmt.Errorf("overrides: redirects %s: advice and reason are required", op)
		}
	}
	if in := o.Incomplete; in != nil && (in.Property == "" || in.Reason == "") {
		return nil, fmt.Errorf("overrides: incomplete: property and reason are required")
	}
	if err := o.ResultCap.check(); err != nil {
		return nil, err
	}
	if err := o.Tables.check(); err != nil {
		return nil, err
	}
	if err := o.checkProfile(); err != nil {
		return nil, err
	}
	return &o, nil
}

// Apply sets Method.Absent, Method.RedirectAdvice and Method.IncompleteFlag on the derived
// resources. Every operation named must be a GET of doc, and an absence
// status must be one the operation documents.
func (o *ProfileFile) Apply(doc *openapi3.T, resources []*providers.Resource) error {
	if o == nil {
		return nil
	}
	byOp := methodsByOperation(resources)
	for _, op := range sortedOps(o.NotAbsent) {
		if byOp[op] == nil {
			return fmt.Errorf("overrides: not_absent %s: no GET operation with that operationId", op)
		}
	}
	for _, op := range sortedOps(o.Absent) {
		m := byOp[op]
		if m == nil {
			return fmt.Errorf("overrides: absent %s: no GET operation with that operationId", op)
		}
		a := o.Absent[op]
		op := getOperation(doc, m.Path)
		if op == nil || op.Responses == nil || op.Responses.Value(strconv.Itoa(a.Status)) == nil {
			return fmt.Errorf("overrides: absent %s: the operation does not document status %d", m.OperationID, a.Status)
		}
		m.Absent = []providers.AbsentRule{{Status: a.Status, Message: a.Message, Pattern: a.Pattern}}
	}
	for _, op := range sortedOps(o.Partial) {
		if byOp[op] == nil {
			return fmt.Errorf("overrides: partial %s: no GET operation with that operationId", op)
		}
		po := o.Partial[op]
		var v any
		if po.Property == "" || po.Reason == "" || json.Unmarshal(po.Value, &v) != nil || v == nil {
			return fmt.Errorf("overrides: partial %s: property, value (a JSON value, not null) and reason are required", op)
		}
		val, _ := json.Marshal(v)
		for _, r := range resources {
			for _, m := range r.Methods {
				if m.OperationID == op {
					m.Partial = &providers.PartialMarker{Property: po.Property, Value: string(val), Reason: po.Reason, Advice: po.Advice}
				}
			}
		}
	}
	for _, op := range sortedOps(o.CountCaps) {
		if byOp[op] == nil {
			return fmt.Errorf("overrides: count_caps %s: no GET operation with that operationId", op)
		}
		cc := o.CountCaps[op]
		if cc.Max < 1 || cc.Reason == "" {
			return fmt.Errorf("overrides: count_caps %s: max (a positive count) and reason are required", op)
		}
		for _, r := range resources {
			for _, m := range r.Methods {
				if m.OperationID == op {
					m.CountCap = &providers.CountCap{Property: cc.Property, Max: cc.Max, Reason: cc.Reason, Advice: cc.Advice, Notice: cc.Notice}
				}
			}
		}
	}
	for _, op := range sortedOps(o.Redirects) {
		m := byOp[op]
		if m == nil {
			return fmt.Errorf("overrides: redirects %s: no GET operation with that operationId", op)
		}
		m.RedirectAdvice = o.Redirects[op].Advice
	}
	if rc := o.ResultCap; rc != nil {
		for _, op := range sortedOps(rc.Operations) {
			m := byOp[op]
			if m == nil {
				return fmt.Errorf("overrides: result_cap.operations %s: no GET operation with that operationId", op)
			}
			c := rc.Operations[op]
			if sp := c.Split; sp != nil {
				if p := m.ParamByKey(sp.Param); p == nil || p.In != providers.InQuery {
					return fmt.Errorf("overrides: result_cap.operations %s: split.param %q is not a query parameter of the operation", op, sp.Param)
				}
				cp := *sp
				cp.Key = append([]string(nil), sp.Key...)
				c.Split = &cp
			}
			advice := c.Advice
			if c.Split == nil {
				advice = "the engine cannot split it into smaller queries: " + c.Reason
				if c.Advice != "" {
					advice += "; " + c.Advice
				}
			}
			m.Cap = &providers.ResultCap{Max: rc.Max, Total: rc.Total, Split: c.Split, Advice: advice}
		}
	}
	if in := o.Incomplete; in != nil {
		for _, r := range resources {
			for _, m := range r.Methods {
				if op := getOperation(doc, m.Path); op != nil && hasBooleanProperty(op, in.Property) {
					m.IncompleteFlag = in.Property
				}
			}
		}
	}
	return nil
}

func getOperation(doc *openapi3.T, path string) *openapi3.Operation {
	if item := doc.Paths.Value(path); item != nil {
		return item.Get
	}
	return nil
}

// hasBooleanProperty reports whether the operation's 2xx JSON response is
// an object declaring a boolean property name.
func hasBooleanProperty(op *openapi3.Operation, name string) bool {
	s, ok := responseSchema(op)
	if !ok || s == nil {
		return false
	}
	p := s.Properties[name]
	return p != nil && p.Value != nil && p.Value.Type != nil && p.Value.Type.Is("boolean")
}

func sortedOps[V any](m map[string]V) []string {
	ops := make([]string, 0, len(m))
	for op := range m {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}

// AbsenceTable renders, as a markdown table, exactly which answers count
// as "no rows" (docs/check.md embeds it between markers; a test keeps the
// two equal).
func (o *ProfileFile) AbsenceTable() string {
	var b strings.Builder
	b.WriteString("| operation | status | message | why |\n|---|---|---|---|\n")
	if o == nil {
		return b.String()
	}
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, op := range sortedOps(o.Absent) {
		a := o.Absent[op]
		msg := "exactly `" + a.Message + "`"
		if a.Pattern != "" {
			msg = "matching `" + a.Pattern + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %d | %s | %s |\n", op, a.Status, cell(msg), cell(a.Reason))
	}
	return b.String()
}

// NotAbsentTable renders the operations reviewed and left without an
// absence rule, with the reason.
func (o *ProfileFile) NotAbsentTable() string {
	var b strings.Builder
	b.WriteString("| operation | why its 404 is an error |\n|---|---|\n")
	if o == nil {
		return b.String()
	}
	for _, op := range sortedOps(o.NotAbsent) {
		fmt.Fprintf(&b, "| `%s` | %s |\n", op, strings.ReplaceAll(o.NotAbsent[op].Reason, "|", `\|`))
	}
	return b.String()
}

// BuildIndex derives the provider name from doc, applies the overrides (may
// be nil) and returns the encoded index. The output is deterministic. It
// trusts the profile's token variables (auth.token_env): it compiles the
// profiles committed in registry/profiles (cmd/indexgen); a document
// loaded with --provider gets credentials only from --auth (see Compile).
func BuildIndex(doc *openapi3.T, name string, o *ProfileFile) ([]byte, error) {
	h, resources, err := derive(doc, name, o, true)
	if err != nil {
		return nil, err
	}
	return providers.Encode(h, resources)
}

// derive derives the tables of doc and applies the profile o (may be nil);
// trusted says whether the profile's token variables may be read.
func derive(doc *openapi3.T, name string, o *ProfileFile, trusted bool) (providers.Header, []*providers.Resource, error) {
	var tn *TableNames
	if o != nil {
		tn = o.Tables
	}
	h, resources, err := DeriveTables(doc, name, tn)
	if err != nil {
		return h, nil, err
	}
	if err := o.Apply(doc, resources); err != nil {
		return h, nil, fmt.Errorf("provider %s: %w", name, err)
	}
	if err := applyProfile(o, &h, resources, trusted); err != nil {
		return h, nil, fmt.Errorf("provider %s: %w", name, err)
	}
	schemeAdvice(&h) // security.go
	return h, resources, nil
}

// methodsByOperation indexes the resources' methods by operationId.
func methodsByOperation(resources []*providers.Resource) map[string]*providers.Method {
	byOp := map[string]*providers.Method{}
	for _, r := range resources {
		for _, m := range r.Methods {
			if m.OperationID != "" {
				byOp[m.OperationID] = m
			}
		}
	}
	return byOp
}
