package openapi

import (
	"fmt"
	"iter"
	"maps"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// Entity is what the rows of one method are: the entity key shared by the
// methods of one table, and the base of the name of a table holding it.
type Entity struct {
	// Key identifies the entity: "schema:" + the normalised component
	// name of the item schema, "inline:" + the item's column names for an
	// item schema without a name, "check:" + the operation for a method
	// without a JSON body, "text:" + the operation for a method answering
	// plain text, "value:" + the operation for items that are not objects
	// with known properties.
	Key string
	// Name is the snake_case, singular base name (e.g. "repository").
	Name string
}

// detailPrefixes and detailSuffixes mark detail levels of one entity in
// GitHub's component names: minimal-repository, repository and
// full-repository are one entity; simple-user, public-user, private-user
// likewise; team-simple and team-full are team.
var (
	detailPrefixes = []string{"nullable-", "minimal-", "simple-", "full-", "public-", "private-", "basic-", "base-", "short-", "organization-"}
	detailSuffixes = []string{"-simple", "-full", "-minimal", "-short", "-summary", "-items", "-detailed", "-with-repository", "-with-protection", "-with-metadata", "-with-state"}
)

// NormalizeEntity strips the detail-level prefixes and suffixes of a
// component schema name ("nullable-minimal-repository" gives "repository").
func NormalizeEntity(name string) string {
	for changed := true; changed; {
		changed = false
		for _, s := range detailSuffixes {
			if strings.HasSuffix(name, s) && len(name) > len(s) {
				name, changed = name[:len(name)-len(s)], true
			}
		}
		for _, p := range detailPrefixes {
			if strings.HasPrefix(name, p) && len(name) > len(p) && !changed {
				name, changed = name[len(p):], true
			}
		}
	}
	return name
}

// MethodEntity returns the entity of the rows of a derived method of op
// (see the package documentation, "Entity tables").
func MethodEntity(op *openapi3.Operation, m *providers.Method) Entity {
	name := m.Name
	if m.Shape == providers.ShapeNone {
		return Entity{Key: "check:" + op.OperationID, Name: name}
	}
	if m.Shape == providers.ShapeText {
		return Entity{Key: "text:" + op.OperationID, Name: name}
	}
	ref := itemSchemaRef(op, m)
	if ref != nil && ref.Ref != "" {
		n := NormalizeEntity(ref.Ref[strings.LastIndex(ref.Ref, "/")+1:])
		return Entity{Key: "schema:" + n, Name: SnakeCase(n[strings.LastIndex(n, ".")+1:])}
	}
	if ref != nil && ref.Value != nil {
		if n := altRefName(ref.Value); n != "" {
			return Entity{Key: "schema:" + n, Name: SnakeCase(n)}
		}
	}
	if top := responseSchemaRef(op); m.Shape == providers.ShapeArray && top != nil && top.Ref != "" {
		// A named list of unnamed items ("rule-suites"): its items are
		// the singular ("rule-suite").
		n := NormalizeEntity(strings.TrimSuffix(top.Ref[strings.LastIndex(top.Ref, "/")+1:], "s"))
		return Entity{Key: "schema:" + n, Name: SnakeCase(n)}
	}
	if len(m.Columns) == 0 {
		return Entity{Key: "value:" + op.OperationID, Name: name}
	}
	cols := make([]string, len(m.Columns))
	for i, c := range m.Columns {
		cols[i] = c.Name
	}
	return Entity{Key: "inline:" + strings.Join(cols, ","), Name: name}
}

// altRefName is the common normalised component name of the
// alternatives of a schema without its own name (oneOf of two detail
// levels, allOf around one component), else "".
func altRefName(s *openapi3.Schema) string {
	if s == nil || len(s.Properties) > 0 {
		return ""
	}
	n := ""
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, r := range list {
			if r == nil || r.Ref == "" {
				return ""
			}
			x := NormalizeEntity(r.Ref[strings.LastIndex(r.Ref, "/")+1:])
			if n != "" && x != n {
				return ""
			}
			n = x
		}
	}
	return n
}

// itemSchemaRef returns the schema reference of one item of m's answer:
// the array's items, the wrapped property's items, or the object itself.
func itemSchemaRef(op *openapi3.Operation, m *providers.Method) *openapi3.SchemaRef {
	ref := responseSchemaRef(op)
	if ref == nil || ref.Value == nil {
		return nil
	}
	s := ref.Value
	switch m.Shape {
	case providers.ShapeArray:
		if s.Items != nil {
			return s.Items
		}
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
			for _, r := range list {
				if r != nil && r.Value != nil && r.Value.Items != nil {
					return r.Value.Items
				}
			}
		}
		return nil
	case providers.ShapeWrapped:
		var find func(s *openapi3.Schema, depth int) *openapi3.SchemaRef
		find = func(s *openapi3.Schema, depth int) *openapi3.SchemaRef {
			if s == nil || depth > maxDepth {
				return nil
			}
			if p := s.Properties[m.ItemKey]; p != nil && p.Value != nil {
				if p.Value.Items != nil {
					return p.Value.Items
				}
				for _, r := range p.Value.AllOf {
					if r != nil && r.Value != nil && r.Value.Items != nil {
						return r.Value.Items
					}
				}
			}
			for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
				for _, r := range list {
					if r != nil {
						if x := find(r.Value, depth+1); x != nil {
							return x
						}
					}
				}
			}
			return nil
		}
		return find(s, 0)
	}
	return ref
}

// responseSchemaRef is responseSchema's choice, as a reference.
func responseSchemaRef(op *openapi3.Operation) *openapi3.SchemaRef {
	if mt := successMedia(op); mt != nil {
		return mt.Schema
	}
	return nil
}

// group is the methods of one subcategory (service/resource pair of the
// naming rule) before they are split by entity.
type group struct {
	service, name string
	methods       []*providers.Method
	ops           []*openapi3.Operation
	entities      []Entity
}

// splitEntities turns each group into one table per entity and names the
// tables (package documentation, "Entity tables"). names holds the
// overrides' naming data (may be nil).
func splitEntities(name string, groups []*group, tn *TableNames) ([]*providers.Resource, error) {
	type table struct {
		g       *group
		ent     Entity
		methods []*providers.Method
		ops     []*openapi3.Operation
		name    string
		main    bool
	}
	var tables []*table
	taken := map[string]*table{} // service.name -> table
	for _, g := range groups {
		byKey := map[string]*table{}
		var order []*table
		for i, m := range g.methods {
			e := g.entities[i]
			t := byKey[e.Key]
			if t == nil {
				t = &table{g: g, ent: e}
				byKey[e.Key] = t
				order = append(order, t)
			}
			t.methods = append(t.methods, m)
			t.ops = append(t.ops, g.ops[i])
		}
		main := mainEntity(g, order2ents(order, func(t *table) (Entity, int, string) {
			return t.ent, len(t.methods), shortestPath(t.methods)
		}), tn)
		for _, t := range order {
			if t.ent.Key == main {
				t.name, t.main = g.name, true
				taken[g.service+"."+t.name] = t
			}
		}
		tables = append(tables, order...)
	}
	// Name the other tables for their entity; a name already taken in the
	// service gets the group's name as a prefix.
	for _, t := range tables {
		if t.main {
			continue
		}
		if n, ok := tn.nameFor(t.g.service, t.g.name, t.ent.Key); ok {
			t.name = n
		} else if n, ok := tn.entityName(t.ent); ok {
			t.name = n
		} else if strings.HasPrefix(t.ent.Key, "schema:") {
			t.name = Plural(entityBase(t.g.service, t.ent.Name))
		} else if strings.HasPrefix(t.ent.Key, "check:") || strings.HasPrefix(t.ent.Key, "text:") {
			t.name = t.ent.Name
		} else {
			t.name = methodBase(t.g.service, t.ent.Name, t.methods)
		}
	}
	sort.SliceStable(tables, func(i, j int) bool { return tables[i].main && !tables[j].main })
	var out []*providers.Resource
	for _, t := range tables {
		if !t.main {
			if prev := taken[t.g.service+"."+t.name]; prev != nil {
				if _, explicit := tn.nameFor(t.g.service, t.g.name, t.ent.Key); explicit {
					return nil, fmt.Errorf("provider %s: table %s.%s (%s of %s) clashes with the table of %s of %s; choose another name in the overrides", name, t.g.service, t.name, t.ent.Key, t.g.name, prev.ent.Key, prev.g.name)
				}
				if strings.HasPrefix(t.ent.Key, "schema:") {
					t.name = t.g.name + "_" + t.name
				} else {
					t.name = t.ent.Name // the method's own name
				}
			}
			if prev := taken[t.g.service+"."+t.name]; prev != nil && tn != nil {
				return nil, fmt.Errorf("provider %s: table %s.%s (%s of %s) clashes with the table of %s of %s; name one of them in the overrides (tables.names)", name, t.g.service, t.name, t.ent.Key, t.g.name, prev.ent.Key, prev.g.name)
			}
			// A document without overrides (--provider) is never refused
			// for a clash: the later table gets a number.
			for base, i := t.name, 2; taken[t.g.service+"."+t.name] != nil; i++ {
				t.name = base + "_" + strconv.Itoa(i)
			}
			taken[t.g.service+"."+t.name] = t
		}
		r := &providers.Resource{Provider: name, Service: t.g.service, Name: writable(t.name)}
		r.Summary, r.Docs = describeTable(t.methods, t.ops)
		for _, m := range t.methods {
			base := m.Name
			for i := 2; r.Method(m.Name) != nil; i++ {
				m.Name = base + "_" + strconv.Itoa(i)
			}
			r.Methods = append(r.Methods, m)
		}
		out = append(out, r)
	}
	return out, nil
}

type entStat struct {
	ent      Entity
	methods  int
	shortest string
}

func order2ents[T any](ts []T, f func(T) (Entity, int, string)) []entStat {
	out := make([]entStat, len(ts))
	for i, t := range ts {
		e, n, p := f(t)
		out[i] = entStat{e, n, p}
	}
	return out
}

func shortestPath(ms []*providers.Method) string {
	best := ""
	for _, m := range ms {
		if best == "" || len(m.Path) < len(best) || (len(m.Path) == len(best) && m.Path < best) {
			best = m.Path
		}
	}
	return best
}

// mainEntity picks the entity whose table keeps the group's name: the one
// the overrides name; else the entity whose name is the group's name
// (singular or plural, or its last words); else, among entities with rows
// (not checks), the one with most methods, ties to the shortest path.
// A group whose override names no entity keeps no table under its name.
func mainEntity(g *group, ents []entStat, tn *TableNames) string {
	if key, ok := tn.mainFor(g); ok {
		return key
	}
	for _, e := range ents {
		if strings.HasPrefix(e.ent.Key, "schema:") && sameName(g.name, SnakeCase(e.ent.Name)) {
			return e.ent.Key
		}
	}
	best := -1
	for i, e := range ents {
		if strings.HasPrefix(e.ent.Key, "check:") || strings.HasPrefix(e.ent.Key, "text:") {
			continue
		}
		if best < 0 || e.methods > ents[best].methods || (e.methods == ents[best].methods && len(e.shortest) < len(ents[best].shortest)) {
			best = i
		}
	}
	if best < 0 {
		return ents[0].ent.Key
	}
	return ents[best].ent.Key
}

// entityBase is the snake_case entity name without the words that repeat
// the service (actions-hosted-runner in actions gives hosted_runner) and
// without the suffix _search_result_item (repo-search-result-item gives
// repo).
func entityBase(service, entity string) string {
	e := strings.TrimSuffix(SnakeCase(entity), "_search_result_item")
	for _, p := range []string{service + "_", strings.TrimSuffix(service, "s") + "_"} {
		if strings.HasPrefix(e, p) && len(e) > len(p) {
			return e[len(p):]
		}
	}
	return e
}

// methodBase names a table of unnamed rows after its method: the method
// name without a leading get_ or list_ and without a trailing
// _for_authenticated_user, _for_org, _for_repo ... (what the WHERE keys
// say anyway), without words repeating the service; when nothing is left,
// the last non-parameter segment of the method's path.
func methodBase(service, name string, ms []*providers.Method) string {
	n := name
	for _, p := range []string{"get_", "list_"} {
		n = strings.TrimPrefix(n, p)
	}
	for _, s := range []string{"_for_authenticated_user", "_for_organization", "_for_enterprise", "_for_repository", "_for_org", "_for_repo", "_for_user"} {
		n = strings.TrimSuffix(n, s)
	}
	if n == "" || n == "get" || n == "list" {
		segs := pathSegments(ms[0].Path)
		if len(segs) == 0 {
			return name
		}
		n = segs[len(segs)-1]
	}
	return entityBase(service, n)
}

// sameName reports whether a table name and an entity name name the same
// thing: equal, one the plural of the other, or the table name ends with
// the entity's plural ("workflow_runs" and "run").
func sameName(table, entity string) bool {
	pl := Plural(entity)
	return table == entity || table == pl || Plural(table) == pl
}

// Plural is the English plural of a snake_case name's last word.
func Plural(s string) string {
	switch {
	case s == "" || strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") || strings.HasSuffix(s, "_data") || s == "code" || strings.HasSuffix(s, "_code") || strings.HasSuffix(s, "info") || strings.HasSuffix(s, "metadata") || strings.HasSuffix(s, "ed"):
		return s
	case strings.HasSuffix(s, "ss") || strings.HasSuffix(s, "sh") || strings.HasSuffix(s, "ch") || strings.HasSuffix(s, "x"):
		return s + "es"
	case strings.HasSuffix(s, "y") && len(s) > 1 && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// TableNames is the naming data of the overrides file ("tables"): which
// entity keeps a group's name when the rule cannot tell, names for
// entities (global) and for single tables, each with a reason.
//
//	{"main":     {"orgs.members": {"entity": "schema:user", "reason": "..."}},
//	 "entities": {"schema:repo-search-result-item": {"name": "repos", "reason": "..."}},
//	 "names":    {"repos.repos schema:language": {"name": "languages", "reason": "..."}}}
//
// An entity of "" in main keeps no table under the group's name. Every
// entry must be used by the document (a stale entry is an error).
type TableNames struct {
	Main     map[string]MainOverride `json:"main,omitempty"`
	Entities map[string]NameOverride `json:"entities,omitempty"`
	Names    map[string]NameOverride `json:"names,omitempty"`
	// Rows says, per operationId, what the rows of an answer are when the
	// shape rule (package documentation, "Shapes and columns") reads it
	// wrong: "object" (the answer is one row), "array" (its items) or
	// "wrapped" with Key, the dotted path of the item array
	// ("categories.items").
	Rows map[string]RowsOverride `json:"rows,omitempty"`

	used map[string]bool
}

// MainOverride names the entity whose table keeps the group's name.
type MainOverride struct {
	Entity string `json:"entity,omitempty"`
	// Operation names the entity by one of its operations (for entities
	// without a schema name).
	Operation string `json:"operation,omitempty"`
	Reason    string `json:"reason"`
}

// RowsOverride is the shape of one operation's answer, with the reason.
type RowsOverride struct {
	Shape  providers.Shape `json:"shape"`
	Key    string          `json:"key,omitempty"`
	Reason string          `json:"reason"`
}

// applyRows sets the shape the overrides give op's method m, with the
// columns of its rows; an override the response schema cannot hold is an
// error.
func (tn *TableNames) applyRows(op *openapi3.Operation, m *providers.Method) error {
	if tn == nil || op.OperationID == "" {
		return nil
	}
	o, ok := tn.Rows[op.OperationID]
	if !ok {
		return nil
	}
	tn.use("rows " + op.OperationID)
	s, ok := responseSchema(op)
	if !ok {
		return fmt.Errorf("overrides: tables.rows %s: the operation has no JSON success answer", op.OperationID)
	}
	switch o.Shape {
	case providers.ShapeObject:
		m.Shape, m.ItemKey, m.Columns = o.Shape, "", nil
		if ps := properties(s, 0); ps != nil {
			m.Columns = ps.columns()
		}
	case providers.ShapeArray:
		if !isArray(s) {
			return fmt.Errorf("overrides: tables.rows %s: shape array, but the answer's schema is not an array", op.OperationID)
		}
		m.Shape, m.ItemKey, m.Columns = o.Shape, "", columnsOf(itemsOf(s))
	case providers.ShapeWrapped:
		cur := s
		for _, part := range strings.Split(o.Key, ".") {
			ps := properties(cur, 0)
			if ps == nil || len(ps.byName[part]) != 1 {
				cur = nil
				break
			}
			cur = ps.byName[part][0]
		}
		if cur == nil || !isArray(cur) {
			return fmt.Errorf("overrides: tables.rows %s: the answer's schema has no array at %q", op.OperationID, o.Key)
		}
		m.Shape, m.ItemKey, m.Columns = o.Shape, o.Key, columnsOf(itemsOf(cur))
	}
	return nil
}

// NameOverride is a table (or entity base) name with its reason.
type NameOverride struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

func (tn *TableNames) use(k string) {
	if tn.used == nil {
		tn.used = map[string]bool{}
	}
	tn.used[k] = true
}

func (tn *TableNames) mainFor(g *group) (string, bool) {
	if tn == nil {
		return "", false
	}
	o, ok := tn.Main[g.service+"."+g.name]
	if !ok {
		return "", false
	}
	if o.Operation != "" {
		for i, m := range g.methods {
			if m.OperationID == o.Operation {
				tn.use("main " + g.service + "." + g.name)
				return g.entities[i].Key, true
			}
		}
		return "", false // unused: reported as stale
	}
	tn.use("main " + g.service + "." + g.name)
	return o.Entity, true
}

func (tn *TableNames) nameFor(service, group, key string) (string, bool) {
	if tn == nil {
		return "", false
	}
	k := service + "." + group + " " + key
	o, ok := tn.Names[k]
	if ok {
		tn.use("names " + k)
	}
	return o.Name, ok
}

func (tn *TableNames) entityName(e Entity) (string, bool) {
	if tn != nil {
		if o, ok := tn.Entities[e.Key]; ok {
			tn.use("entities " + e.Key)
			return o.Name, true
		}
	}
	return "", false
}

// check validates the entries (names snake_case, reasons given).
func (tn *TableNames) check() error {
	if tn == nil {
		return nil
	}
	for k, o := range tn.Main {
		if o.Reason == "" || (o.Entity != "" && o.Operation != "") {
			return fmt.Errorf("overrides: tables.main %s: a reason and at most one of entity and operation are required", k)
		}
	}
	for op, o := range tn.Rows {
		switch {
		case o.Reason == "":
			return fmt.Errorf("overrides: tables.rows %s: a reason is required", op)
		case o.Shape != providers.ShapeObject && o.Shape != providers.ShapeArray && o.Shape != providers.ShapeWrapped:
			return fmt.Errorf("overrides: tables.rows %s: shape %q: give object (one row), array or wrapped (with key)", op, o.Shape)
		case (o.Shape == providers.ShapeWrapped) != (o.Key != ""):
			return fmt.Errorf("overrides: tables.rows %s: a key (the dotted path of the item array) goes with shape wrapped, and only with it", op)
		}
	}
	for what, m := range map[string]map[string]NameOverride{"entities": tn.Entities, "names": tn.Names} {
		for k, o := range m {
			if o.Reason == "" || o.Name == "" || SnakeCase(o.Name) != o.Name {
				return fmt.Errorf("overrides: tables.%s %s: a snake_case name and a reason are required", what, k)
			}
		}
	}
	return nil
}

// unused lists the entries the document did not use.
func (tn *TableNames) unused() []string {
	if tn == nil {
		return nil
	}
	var out []string
	for section, keys := range map[string]iter.Seq[string]{
		"main": maps.Keys(tn.Main), "entities": maps.Keys(tn.Entities), "names": maps.Keys(tn.Names), "rows": maps.Keys(tn.Rows),
	} {
		for k := range keys {
			if !tn.used[section+" "+k] {
				out = append(out, section+" "+k)
			}
		}
	}
	sort.Strings(out)
	return out
}
