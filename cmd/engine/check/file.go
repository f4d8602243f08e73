package check

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// File is a loaded control file, or an embedded pack (a control file
// with a pack: header).
type File struct {
	Name     string
	Pack     *PackInfo
	Defaults Defaults
	// Vars are the variables the file declares, by name.
	Vars map[string]*Var
	// Views are the views the file declares (views: name: SELECT ...),
	// which its controls read like the stored ones (engine.Options.Views).
	Views    map[string]string
	Controls []*Control
}

// Defaults are file-level engine settings. Command-line flags and the
// environment win over them.
type Defaults struct {
	BaseURL map[string]string
	Auth    map[string]providers.AuthConfig
	// lines of each provider entry, for problems found later.
	lines map[string]int
}

// Var is one declared variable. A variable without a value must be given
// with --var.
type Var struct {
	Name   string
	Values []string
	List   bool
	Set    bool
	Line   int
}

// Severities a control may declare.
var Severities = []string{"critical", "high", "medium", "low", "info"}

// PackInfo is a pack's header: its name (engine check --pack NAME), a
// title and what it covers.
type PackInfo struct {
	Name, Title, Description string
}

// Control is one check: a SELECT and what its result must look like.
type Control struct {
	ID          string
	Title       string
	Description string
	Remediation string
	// Rationale says why the control matters (a pack's controls all say).
	Rationale string
	Severity  string
	// Maps are the ids of the anchors' checks the control answers, by
	// anchor: cis (the CIS Software Supply Chain benchmark), scorecard
	// (OpenSSF Scorecard), legitify, allstar.
	Maps map[string][]string
	// Needs are what the credential must be granted to read the
	// control's data: classic token scopes ("read:org") and GitHub App
	// permissions ("administration:read").
	Needs  []string
	Expect Expect
	// File is the control file (or pack, "pack:NAME") the control comes
	// from.
	File string
	// SQL is the statement that runs (variables substituted); RawSQL is as
	// written in the file.
	SQL    string
	RawSQL string
	// Line is where the control starts; SQLLine where its sql value starts.
	Line       int
	SQLLine    int
	sqlLiteral bool
	// prepared is the statement Validate planned: Run runs exactly it.
	prepared *engine.Prepared
	// varProblem: Resolve reported this control's variables (unset, quoted
	// or misplaced), so Validate does not report its SQL a second time.
	varProblem bool
	// rawText is Title, Description and Remediation as written, before
	// Resolve substitutes variables into them.
	rawText [3]string
	rawKept bool
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

var (
	topKeys     = []string{"controls", "defaults", "vars", "views", "pack"}
	packKeys    = []string{"name", "title", "description"}
	defaultKeys = []string{"base_url", "auth"}
	authKeys    = []string{"type", "credentialsenvvar"}
	controlKeys = []string{"id", "title", "sql", "expect", "severity", "description", "remediation", "rationale", "maps", "needs"}
	// Anchors are the keys of a control's maps: the benchmarks and tools
	// whose checks a control answers.
	Anchors = []string{"cis", "scorecard", "legitify", "allstar"}
)

// loader collects problems while walking the YAML tree.
type loader struct {
	file     string
	problems []Problem
}

func (l *loader) add(n *yaml.Node, control, format string, args ...any) {
	p := Problem{File: l.file, Control: control, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		p.Line, p.Column = n.Line, n.Column
	}
	l.problems = append(l.problems, p)
}

// Load parses a control file. Every problem found is returned (the File is
// nil only when the YAML itself cannot be read).
func Load(name string, data []byte) (*File, []Problem) {
	l := &loader{file: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, []Problem{yamlProblem(name, err)}
	}
	f := &File{Name: name, Vars: map[string]*Var{}}
	if len(doc.Content) == 0 {
		l.add(nil, "", "the file is empty; expected a top-level controls: list")
		return f, l.problems
	}
	root := doc.Content[0]
	top := l.mapping(root, topKeys, "top level", "")
	if top == nil {
		return f, l.problems
	}
	if n := top["pack"]; n != nil {
		m := l.mapping(n, packKeys, "pack", "")
		f.Pack = &PackInfo{Name: l.str(m["name"], "pack.name", ""), Title: l.str(m["title"], "pack.title", ""), Description: l.str(m["description"], "pack.description", "")}
		if !idPattern.MatchString(f.Pack.Name) {
			l.add(n, "", "pack: a name of letters, digits, '.', '_' and '-' is required")
		}
	}
	if n := top["defaults"]; n != nil {
		f.Defaults = l.defaults(n)
	}
	if n := top["vars"]; n != nil {
		f.Vars = l.vars(n)
	}
	if n := top["views"]; n != nil {
		f.Views = l.views(n)
	}
	cn := top["controls"]
	switch {
	case cn == nil:
		l.add(root, "", "no controls: list")
	case cn.Kind != yaml.SequenceNode:
		l.add(cn, "", "controls must be a list of controls (- id: ...)")
	case len(cn.Content) == 0:
		l.add(cn, "", "controls is empty")
	default:
		seen := map[string]int{}
		for _, item := range cn.Content {
			c := l.control(item)
			if c == nil {
				continue
			}
			if c.ID != "" {
				if first, dup := seen[c.ID]; dup {
					l.add(item, c.ID, "duplicate id (first defined at line %d)", first)
				} else {
					seen[c.ID] = c.Line
				}
			}
			c.File = name
			f.Controls = append(f.Controls, c)
		}
	}
	return f, l.problems
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

func yamlProblem(name string, err error) Problem {
	msg := err.Error()
	p := Problem{File: name}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		fmt.Sscan(m[1], &p.Line)
		msg = msg[len(m[0]):]
	}
	p.Message = "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")
	return p
}

// mapping checks that n is a mapping with string keys from allowed, each
// at most once, and returns the values by key.
func (l *loader) mapping(n *yaml.Node, allowed []string, what, control string) map[string]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		l.add(n, control, "%s must be a mapping (key: value)", what)
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			l.add(k, control, "%s: keys must be plain names", what)
			continue
		}
		if allowed != nil && !contains(allowed, k.Value) {
			l.add(k, control, "unknown key %q in %s (known: %s)", k.Value, what, strings.Join(allowed, ", "))
			continue
		}
		if _, dup := out[k.Value]; dup {
			l.add(k, control, "duplicate key %q in %s", k.Value, what)
			continue
		}
		out[k.Value] = v
	}
	return out
}

// str reads a scalar string; null reads as "" (absent).
func (l *loader) str(n *yaml.Node, key, control string) string {
	if n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		l.add(n, control, "%s must be a single value, not a list or mapping", key)
		return ""
	}
	return n.Value
}

func (l *loader) defaults(n *yaml.Node) Defaults {
	d := Defaults{BaseURL: map[string]string{}, Auth: map[string]providers.AuthConfig{}, lines: map[string]int{}}
	m := l.mapping(n, defaultKeys, "defaults", "")
	if bn := m["base_url"]; bn != nil {
		for name, v := range l.mapping(bn, nil, "defaults.base_url", "") {
			u := l.str(v, "defaults.base_url."+name, "")
			if u == "" {
				l.add(v, "", "defaults.base_url.%s: expected a URL", name)
				continue
			}
			d.BaseURL[strings.ToLower(name)] = u
			d.lines["base_url."+strings.ToLower(name)] = v.Line
		}
	}
	if an := m["auth"]; an != nil {
		for name, v := range l.mapping(an, nil, "defaults.auth", "") {
			what := "defaults.auth." + name
			e := l.mapping(v, authKeys, what, "")
			if e == nil {
				continue
			}
			a := providers.AuthConfig{Type: providers.AuthType(l.str(e["type"], what+".type", "")), CredentialsEnvVar: l.str(e["credentialsenvvar"], what+".credentialsenvvar", "")}
			switch a.Type {
			case providers.AuthNull:
			case providers.AuthBearer, providers.AuthBasic:
				if a.CredentialsEnvVar == "" {
					l.add(v, "", "%s: type %s needs credentialsenvvar naming the environment variable that holds the secret (secrets never go in control files)", what, a.Type)
					continue
				}
			default:
				l.add(v, "", "%s: unknown type %q (use bearer, basic or null_auth)", what, a.Type)
				continue
			}
			d.Auth[strings.ToLower(name)] = a
			d.lines["auth."+strings.ToLower(name)] = v.Line
		}
	}
	return d
}

var varName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (l *loader) vars(n *yaml.Node) map[string]*Var {
	out := map[string]*Var{}
	for name, v := range l.mapping(n, nil, "vars", "") {
		if !varName.MatchString(name) {
			l.add(v, "", "vars: %q is not a valid variable name (letters, digits, _)", name)
			continue
		}
		vr := &Var{Name: name, Line: v.Line}
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
		case v.Kind == yaml.ScalarNode:
			vr.Values, vr.Set = []string{v.Value}, true
		case v.Kind == yaml.SequenceNode:
			vr.List, vr.Set = true, len(v.Content) > 0
			for _, e := range v.Content {
				if e.Kind != yaml.ScalarNode {
					l.add(e, "", "vars.%s: list items must be single values", name)
					continue
				}
				vr.Values = append(vr.Values, e.Value)
			}
		default:
			l.add(v, "", "vars.%s: expected a value, a list of values, or nothing (required: --var %s=...)", name, name)
			continue
		}
		out[name] = vr
	}
	return out
}

func (l *loader) control(n *yaml.Node) *Control {
	c := &Control{Line: n.Line}
	m := l.mapping(n, controlKeys, "control", peekID(n))
	if m == nil {
		return nil
	}
	c.ID = l.str(m["id"], "id", "")
	switch {
	case m["id"] == nil || c.ID == "":
		l.add(n, "", "control without an id")
	case !idPattern.MatchString(c.ID):
		l.add(m["id"], c.ID, "id %q: use letters, digits, '.', '_' and '-' (no spaces)", c.ID)
	}
	id := c.ID
	c.Title = l.str(m["title"], "title", id)
	if c.Title == "" {
		c.Title = c.ID
	}
	c.Description = l.str(m["description"], "description", id)
	c.Remediation = l.str(m["remediation"], "remediation", id)
	c.Rationale = l.str(m["rationale"], "rationale", id)
	if mn := m["maps"]; mn != nil {
		c.Maps = map[string][]string{}
		for anchor, v := range l.mapping(mn, Anchors, "maps", id) {
			ids := l.strs(v, "maps."+anchor, id)
			if len(ids) == 0 {
				l.add(v, id, "maps.%s: give the anchor's check ids (a value or a list)", anchor)
			}
			c.Maps[anchor] = ids
		}
	}
	if nn := m["needs"]; nn != nil {
		c.Needs = l.strs(nn, "needs", id)
		for _, need := range c.Needs {
			if !needPattern.MatchString(need) {
				l.add(nn, id, "needs: %q is neither a token scope (read:org, repo) nor an App permission (administration:read)", need)
			}
		}
	}
	c.Severity = strings.ToLower(l.str(m["severity"], "severity", id))
	if c.Severity != "" && !contains(Severities, c.Severity) {
		l.add(m["severity"], id, "severity %q: use one of %s", c.Severity, strings.Join(Severities, ", "))
	}
	e, err := ParseExpect(l.str(m["expect"], "expect", id))
	if err != nil {
		l.add(m["expect"], id, "%v", err)
	}
	c.Expect = e
	sn := m["sql"]
	c.RawSQL = strings.TrimSpace(l.str(sn, "sql", id))
	if c.RawSQL == "" {
		l.add(n, id, "missing sql")
	} else {
		c.SQLLine = sn.Line
		c.sqlLiteral = sn.Style&yaml.LiteralStyle != 0
	}
	return c
}

// needPattern is a token scope (repo, read:org, admin:repo_hook) or an
// App permission with its access (administration:read,
// organization_administration:write).
var needPattern = regexp.MustCompile(`^[a-z][a-z_]*(:[a-z_]+)?$`)

// strs reads a value or a list of values.
func (l *loader) strs(n *yaml.Node, key, control string) []string {
	if n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		return []string{n.Value}
	}
	if n.Kind != yaml.SequenceNode {
		l.add(n, control, "%s must be a value or a list of values", key)
		return nil
	}
	var out []string
	for _, e := range n.Content {
		if e.Kind != yaml.ScalarNode {
			l.add(e, control, "%s: list items must be single values", key)
			continue
		}
		out = append(out, e.Value)
	}
	return out
}

// peekID is the control's id, if it has a plain one, for naming the
// control in problems found while reading it.
func peekID(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], n.Content[i+1]; k.Value == "id" && v.Kind == yaml.ScalarNode {
			return v.Value
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// CheckProviders reports defaults naming providers that do not exist.
func (f *File) CheckProviders(known []string) []Problem {
	var ps []Problem
	keys := make([]string, 0, len(f.Defaults.lines))
	for k := range f.Defaults.lines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		_, name, _ := strings.Cut(k, ".")
		if !contains(known, name) {
			ps = append(ps, Problem{File: f.Name, Line: f.Defaults.lines[k],
				Message: fmt.Sprintf("defaults.%s: no such provider (known: %s)", k, strings.Join(known, ", "))})
		}
	}
	return ps
}

// Line is the line of a defaults entry ("base_url.github", "auth.github"),
// or 0.
func (d Defaults) Line(key string) int { return d.lines[key] }

// AllowFileCredentialsFlag is the flag that lets a control file's defaults
// name a credentials variable and receive credentials at its base URL.
const AllowFileCredentialsFlag = "--allow-file-credentials"

// CredentialProblems reports every defaults.auth entry that names a
// credentials variable. A control file is repository content (a pull
// request can change it), so unless the invoking command line or
// environment allows it (AllowFileCredentialsFlag), it may not choose which
// secret of the environment is sent: that would let it send any variable
// (AWS_SECRET_ACCESS_KEY, ...) to the provider's host, or to its own.
func (f *File) CredentialProblems() []Problem {
	names := make([]string, 0, len(f.Defaults.Auth))
	for name := range f.Defaults.Auth {
		names = append(names, name)
	}
	sort.Strings(names)
	var ps []Problem
	for _, name := range names {
		a := f.Defaults.Auth[name]
		if a.CredentialsEnvVar == "" {
			continue
		}
		ps = append(ps, Problem{File: f.Name, Line: f.Defaults.lines["auth."+name], Message: fmt.Sprintf(
			"defaults.auth.%s names the credentials variable %s: a control file may not choose which secret is sent "+
				"(it is repository content); give --auth on the command line instead, or pass %s if you trust this file",
			name, a.CredentialsEnvVar, AllowFileCredentialsFlag)})
	}
	return ps
}

// views reads views: a mapping of view names to their SELECT. The
// statements are the engine's to check, with the controls that read them.
func (l *loader) views(n *yaml.Node) map[string]string {
	m := l.mapping(n, nil, "views", "")
	out := map[string]string{}
	for name, v := range m {
		if !sqlfront.ValidViewName(name) {
			l.add(v, "", "view name %q: use lower-case letters, digits and _, starting with a letter or _", name)
			continue
		}
		q := strings.TrimSpace(l.str(v, "views."+name, ""))
		if q == "" {
			l.add(v, "", "view %s needs its SELECT, e.g. %s: SELECT ... FROM github.repos.repos", name, name)
			continue
		}
		out[name] = strings.TrimSuffix(q, ";")
	}
	return out
}
