package pg

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"sync"

	"modernc.org/sqlite"

	"github.com/enginehq/engine/engine/catalog"
	"github.com/enginehq/engine/engine/result"
)

// The system catalog: the pg_catalog and information_schema tables that
// psql's \dt and \d, drivers and BI schema browsers read, answered from
// the provider catalog. Each database (provider) has its own in-memory
// SQLite database, made at its first such query, with the two schemas
// attached under their Postgres names, so that their queries run in
// SQLite once the few Postgres spellings SQLite lacks are rewritten
// (rewriteSystem). It is read-only (PRAGMA query_only) once filled.

// Postgres type OIDs of the engine's column types.
const (
	oidBool    = 16
	oidBytea   = 17
	oidInt8    = 20
	oidInt2    = 21
	oidInt4    = 23
	oidText    = 25
	oidOID     = 26
	oidJSON    = 114
	oidFloat4  = 700
	oidFloat8  = 701
	oidUnknown = 705
	oidVarchar = 1043
	oidNumeric = 1700
	oidJSONB   = 3802
)

// pgType is a column type as Postgres names it.
type pgType struct {
	oid     uint32
	name    string // pg_type.typname
	sqlName string // format_type, information_schema data_type
	size    int16
}

var (
	typeText  = pgType{oidText, "text", "text", -1}
	typeInt8  = pgType{oidInt8, "int8", "bigint", 8}
	typeFloat = pgType{oidFloat8, "float8", "double precision", 8}
	typeBool  = pgType{oidBool, "bool", "boolean", 1}
	typeJSON  = pgType{oidJSON, "json", "json", -1}
	typeBytea = pgType{oidBytea, "bytea", "bytea", -1}
)

var pgTypes = []pgType{typeText, typeInt8, typeFloat, typeBool, typeJSON, typeBytea,
	{oidInt2, "int2", "smallint", 2}, {oidInt4, "int4", "integer", 4}, {oidOID, "oid", "oid", 4},
	{oidFloat4, "float4", "real", 4}, {oidVarchar, "varchar", "character varying", -1},
	{oidNumeric, "numeric", "numeric", -1}, {oidJSONB, "jsonb", "jsonb", -1}, {oidUnknown, "unknown", "unknown", -2}}

// typeOf is the Postgres type of an engine column type ("" and NULL:
// text).
func typeOf(t string) pgType {
	switch t {
	case result.TypeInteger:
		return typeInt8
	case result.TypeReal:
		return typeFloat
	case result.TypeBoolean:
		return typeBool
	case result.TypeJSON:
		return typeJSON
	case result.TypeBlob:
		return typeBytea
	}
	return typeText
}

// typeOfValue is the Postgres type of a value (a column typed by its
// values).
func typeOfValue(v any) pgType {
	switch v.(type) {
	case int64, int:
		return typeInt8
	case float64:
		return typeFloat
	case bool:
		return typeBool
	case []byte:
		return typeBytea
	}
	return typeText
}

func typeByOID(oid uint32) (pgType, bool) {
	for _, t := range pgTypes {
		if t.oid == oid {
			return t, true
		}
	}
	return pgType{}, false
}

// Fixed OIDs of the system catalog.
const (
	nsPgCatalog  = 11
	nsPublic     = 2200
	nsInfoSchema = 13000
	firstNsOID   = 16384 // the provider's services
	firstRelOID  = 100000
)

// systemWords are the names that make a statement the system catalog's:
// its schemas and the functions drivers call at connect.
var systemFuncs = map[string]bool{
	"version": true, "current_schema": true, "current_schemas": true, "current_database": true,
	"current_user": true, "session_user": true, "current_setting": true, "current_catalog": true,
	"pg_backend_pid": true, "user": false,
}

// isSystem reports whether a statement reads the system catalog: it names
// pg_catalog, information_schema or a pg_ relation or function, or it has
// no FROM and calls one of the functions drivers call at connect.
func isSystem(text string) bool {
	toks := significant(lex(text))
	hasFrom, callsSystem := false, false
	for i, t := range toks {
		w := strings.ToLower(t.text)
		if t.kind != tokWord {
			continue
		}
		switch {
		case w == "pg_catalog" || w == "information_schema":
			return true
		case strings.HasPrefix(w, "pg_"):
			return true
		case w == "from":
			hasFrom = true
		case systemFuncs[w]:
			followedByParen := i+1 < len(toks) && toks[i+1].text == "("
			if followedByParen || w == "current_user" || w == "session_user" || w == "current_catalog" || w == "current_schema" {
				callsSystem = true
			}
		}
	}
	return callsSystem && !hasFrom
}

// noParenFuncs are the SQL functions Postgres calls without parentheses.
var noParenFuncs = map[string]bool{"current_user": true, "session_user": true, "current_catalog": true, "current_schema": true, "user": false}

// rewriteSystem rewrites the Postgres spellings of a system query that
// SQLite lacks: casts (::type) and COLLATE clauses are dropped, the regular
// expression operators (~, ~*, !~, !~*, OPERATOR(pg_catalog.~)) become
// REGEXP, function calls get the pgsys_ prefix they are registered under
// (pg_catalog. dropped), ILIKE becomes LIKE.
func rewriteSystem(text string) string {
	toks := lex(text)
	var b strings.Builder
	sig := func(i int) int { return firstCode(toks, i) } // next significant token at or after i
	name := func(j int) int {                            // past a dotted name word(.word)* at j
		for j < len(toks) && (toks[j].kind == tokWord || toks[j].kind == tokQuoted) {
			j++
			if k := sig(j); k < len(toks) && toks[k].text == "." {
				j = sig(k + 1)
				continue
			}
			break
		}
		return j
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		w := strings.ToLower(t.text)
		switch {
		case t.kind == tokPunct && t.text == "::":
			// skip the type name: word(.word)*, then (n) and [] suffixes
			j := name(sig(i + 1))
			for {
				k := sig(j)
				if k < len(toks) && toks[k].text == "[" {
					if e := sig(k + 1); e < len(toks) && toks[e].text == "]" {
						j = e + 1
						continue
					}
				}
				if k < len(toks) && toks[k].text == "(" && w == "::" {
					e := k
					for e < len(toks) && toks[e].text != ")" {
						e++
					}
					if e < len(toks) {
						j = e + 1
						continue
					}
				}
				break
			}
			i = j - 1
		case t.kind == tokWord && w == "array" && arraySubquery(toks, sig(i+1)) > 0:
			// ARRAY(SELECT ...): the catalog holds no arrays (psql's \d+
			// appends a table's toast options to its reloptions so)
			b.WriteString("NULL")
			i = arraySubquery(toks, sig(i+1))
		case t.kind == tokWord && w == "collate":
			j := name(sig(i + 1))
			b.WriteString(" ")
			i = j - 1
		case t.kind == tokWord && w == "operator":
			// OPERATOR(pg_catalog.~)
			j := sig(i + 1)
			if j < len(toks) && toks[j].text == "(" {
				e := j
				for e < len(toks) && toks[e].text != ")" {
					e++
				}
				op := ""
				for _, x := range toks[j+1 : min(e, len(toks))] {
					if x.kind == tokPunct && x.text != "." {
						op += x.text
					}
				}
				b.WriteString(regexOp(op))
				i = e
				continue
			}
			b.WriteString(t.text)
		case t.kind == tokPunct && (t.text == "~" || t.text == "~*" || t.text == "!~" || t.text == "!~*"):
			b.WriteString(regexOp(t.text))
		case t.kind == tokString && (t.text[0] == 'E' || t.text[0] == 'e'):
			b.WriteString("'" + strings.ReplaceAll(unescapeE(t.text[2:len(t.text)-1]), "'", "''") + "'")
		case t.kind == tokWord && w == "ilike":
			b.WriteString("LIKE")
		case t.kind == tokWord && w == "pg_catalog":
			// pg_catalog.fn( -> pgsys_fn(
			j := sig(i + 1)
			if j < len(toks) && toks[j].text == "." {
				k := sig(j + 1)
				if k < len(toks) && toks[k].kind == tokWord {
					if p := sig(k + 1); p < len(toks) && toks[p].text == "(" {
						b.WriteString("pgsys_" + strings.ToLower(toks[k].text))
						i = k
						continue
					}
				}
			}
			b.WriteString(t.text)
		case t.kind == tokWord:
			j := sig(i + 1)
			prev := ""
			for p := i - 1; p >= 0; p-- {
				if toks[p].kind != tokSpace && toks[p].kind != tokComment {
					prev = toks[p].text
					break
				}
			}
			switch {
			case prev != "." && j < len(toks) && toks[j].text == "(" && registered[w]:
				b.WriteString("pgsys_" + w)
			case prev != "." && noParenFuncs[w] && (j >= len(toks) || toks[j].text != "("):
				b.WriteString("pgsys_" + w + "()")
			default:
				b.WriteString(t.text)
			}
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}

// arraySubquery returns the index of the ")" that closes an ARRAY(SELECT
// ...) whose "(" is toks[open], or 0 when toks[open] opens no subquery.
func arraySubquery(toks []token, open int) int {
	if open >= len(toks) || toks[open].text != "(" {
		return 0
	}
	if k := firstCode(toks, open+1); k >= len(toks) || !strings.EqualFold(toks[k].text, "select") {
		return 0
	}
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i].text {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return 0
}

// firstCode is the index of the first token at or after i that is no
// space or comment.
func firstCode(toks []token, i int) int {
	for i < len(toks) && (toks[i].kind == tokSpace || toks[i].kind == tokComment) {
		i++
	}
	return i
}

func regexOp(op string) string {
	switch op {
	case "~":
		return " REGEXP "
	case "~*":
		return " REGEXP '(?i)' || "
	case "!~":
		return " NOT REGEXP "
	case "!~*":
		return " NOT REGEXP '(?i)' || "
	}
	return " " + op + " "
}

// registered are the functions of the system catalog (registered with
// SQLite as pgsys_NAME; only system queries are rewritten to call them).
var registered = map[string]bool{}

var registerOnce sync.Once

// session is what the functions of one system query read.
type session struct {
	database, user string
	settings       func(name string) (string, bool)
}

// sessions passes the session to the registered functions: SQLite calls
// them on the system database's one connection, one query at a time.
var (
	sessionMu sync.Mutex
	current   session
)

func registerFunctions(version string) {
	registerOnce.Do(func() {
		text := func(v string) (driver.Value, error) { return v, nil }
		fns := map[string]struct {
			n int32
			f func(args []driver.Value) (driver.Value, error)
		}{
			"version":             {0, func([]driver.Value) (driver.Value, error) { return text(versionString(version)) }},
			"current_schema":      {0, func([]driver.Value) (driver.Value, error) { return text(currentSchema()) }},
			"current_schemas":     {1, func([]driver.Value) (driver.Value, error) { return text("{" + currentSchema() + "}") }},
			"current_database":    {0, func([]driver.Value) (driver.Value, error) { return text(current.database) }},
			"current_catalog":     {0, func([]driver.Value) (driver.Value, error) { return text(current.database) }},
			"current_user":        {0, func([]driver.Value) (driver.Value, error) { return text(current.user) }},
			"session_user":        {0, func([]driver.Value) (driver.Value, error) { return text(current.user) }},
			"user":                {0, func([]driver.Value) (driver.Value, error) { return text(current.user) }},
			"pg_backend_pid":      {0, func([]driver.Value) (driver.Value, error) { return int64(1), nil }},
			"pg_table_is_visible": {1, func([]driver.Value) (driver.Value, error) { return true, nil }},
			"pg_type_is_visible":  {1, func([]driver.Value) (driver.Value, error) { return true, nil }},
			"pg_get_userbyid":     {1, func([]driver.Value) (driver.Value, error) { return text("engine") }},
			"pg_encoding_to_char": {1, func([]driver.Value) (driver.Value, error) { return text("UTF8") }},
			"has_table_privilege": {-1, func([]driver.Value) (driver.Value, error) { return true, nil }},
			"has_schema_privilege": {-1, func([]driver.Value) (driver.Value, error) {
				return true, nil
			}},
			"has_database_privilege": {-1, func([]driver.Value) (driver.Value, error) { return true, nil }},
			"pg_table_size":          {1, func([]driver.Value) (driver.Value, error) { return int64(0), nil }},
			"pg_relation_size":       {-1, func([]driver.Value) (driver.Value, error) { return int64(0), nil }},
			"pg_total_relation_size": {1, func([]driver.Value) (driver.Value, error) { return int64(0), nil }},
			"pg_size_pretty":         {1, func([]driver.Value) (driver.Value, error) { return text("0 bytes") }},
			"pg_get_expr":            {-1, func([]driver.Value) (driver.Value, error) { return nil, nil }},
			"obj_description":        {-1, func(a []driver.Value) (driver.Value, error) { return description(a) }},
			"col_description":        {2, func([]driver.Value) (driver.Value, error) { return nil, nil }},
			"shobj_description":      {2, func([]driver.Value) (driver.Value, error) { return nil, nil }},
			"array_to_string":        {-1, func([]driver.Value) (driver.Value, error) { return text("") }},
			"current_setting": {-1, func(a []driver.Value) (driver.Value, error) {
				name, _ := a[0].(string)
				if v, ok := current.settings(strings.ToLower(name)); ok {
					return v, nil
				}
				if len(a) > 1 {
					return nil, nil // missing_ok
				}
				return nil, fmt.Errorf("unrecognized configuration parameter %q", name)
			}},
			"format_type": {2, func(a []driver.Value) (driver.Value, error) {
				oid, _ := a[0].(int64)
				if t, ok := typeByOID(uint32(oid)); ok {
					return t.sqlName, nil
				}
				return "???", nil
			}},
		}
		for name, fn := range fns {
			registered[name] = true
			f := fn.f
			sqlite.MustRegisterScalarFunction("pgsys_"+name, fn.n, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
				return f(args)
			})
		}
		// REGEXP and the other SQL functions are engine/store's, registered
		// once for every surface.
	})
}

func description(args []driver.Value) (driver.Value, error) {
	return nil, nil
}

func currentSchema() string {
	if v, ok := current.settings("search_path"); ok {
		for _, s := range strings.Split(v, ",") {
			s = strings.Trim(strings.TrimSpace(s), `"`)
			if s != "" && s != "$user" {
				return s
			}
		}
	}
	return "public"
}

// versionString is what version() answers: a Postgres version first
// (drivers and BI tools parse it), then the engine's.
func versionString(v string) string {
	return fmt.Sprintf("PostgreSQL %s (engine %s, SQL over REST APIs; not a PostgreSQL server)", serverVersion, v)
}

// serverVersion is the Postgres version the endpoint reports
// (server_version): the protocol and catalog it answers as.
const serverVersion = "15.0"

// systemDB is the system catalog of one database (provider).
type systemDB struct {
	db *sql.DB
	mu sync.Mutex
}

// systemDBs makes each database's system catalog once.
type systemDBs struct {
	mu  sync.Mutex
	dbs map[string]*systemDB
	cat *catalog.Catalog
}

func (s *systemDBs) get(ctx context.Context, database string) (*systemDB, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.dbs[database]; ok {
		return d, nil
	}
	d, err := newSystemDB(ctx, s.cat, database)
	if err != nil {
		return nil, err
	}
	if s.dbs == nil {
		s.dbs = map[string]*systemDB{}
	}
	s.dbs[database] = d
	return d, nil
}

// maintenanceDB is the database a client connects to when it names none
// of its own (psql -l, tools' defaults): it holds no schemas, and its
// pg_database lists the providers.
const maintenanceDB = "postgres"

func newSystemDB(ctx context.Context, cat *catalog.Catalog, database string) (*systemDB, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	fail := func(err error) (*systemDB, error) {
		db.Close()
		return nil, fmt.Errorf("system catalog: %w", err)
	}
	stmts := []string{
		`ATTACH DATABASE ':memory:' AS pg_catalog`,
		`ATTACH DATABASE ':memory:' AS information_schema`,
		`CREATE TABLE pg_catalog.pg_namespace (oid INTEGER, nspname TEXT, nspowner INTEGER, nspacl TEXT)`,
		`CREATE TABLE pg_catalog.pg_class (oid INTEGER, relname TEXT, relnamespace INTEGER, relkind TEXT, relowner INTEGER, relam INTEGER,
			reltuples REAL, relchecks INTEGER, relhasindex BOOLEAN, relhasrules BOOLEAN, relhastriggers BOOLEAN, relrowsecurity BOOLEAN,
			relforcerowsecurity BOOLEAN, relispartition BOOLEAN, reloptions TEXT, reltablespace INTEGER, reloftype INTEGER,
			relpersistence TEXT, relreplident TEXT, reltoastrelid INTEGER, relpartbound TEXT, relnatts INTEGER, relacl TEXT, reltype INTEGER)`,
		`CREATE TABLE pg_catalog.pg_attribute (attrelid INTEGER, attname TEXT, atttypid INTEGER, attnum INTEGER, attlen INTEGER, atttypmod INTEGER,
			attnotnull BOOLEAN, attisdropped BOOLEAN, atthasdef BOOLEAN, attidentity TEXT, attgenerated TEXT, attcollation INTEGER, attstattarget INTEGER,
			attstorage TEXT, attcompression TEXT)`,
		`CREATE TABLE pg_catalog.pg_type (oid INTEGER, typname TEXT, typnamespace INTEGER, typlen INTEGER, typtype TEXT, typbasetype INTEGER,
			typcategory TEXT, typelem INTEGER, typarray INTEGER, typrelid INTEGER, typnotnull BOOLEAN, typdelim TEXT, typtypmod INTEGER, typcollation INTEGER)`,
		`CREATE TABLE pg_catalog.pg_am (oid INTEGER, amname TEXT, amtype TEXT)`,
		`CREATE TABLE pg_catalog.pg_database (oid INTEGER, datname TEXT, datdba INTEGER, encoding INTEGER, datcollate TEXT, datctype TEXT, datallowconn BOOLEAN, datistemplate BOOLEAN, datacl TEXT, daticulocale TEXT, datlocprovider TEXT)`,
		`CREATE TABLE pg_catalog.pg_roles (oid INTEGER, rolname TEXT, rolsuper BOOLEAN, rolcanlogin BOOLEAN)`,
		`CREATE TABLE pg_catalog.pg_user (usesysid INTEGER, usename TEXT, usesuper BOOLEAN)`,
		`CREATE TABLE pg_catalog.pg_settings (name TEXT, setting TEXT)`,
		`CREATE TABLE pg_catalog.pg_description (objoid INTEGER, classoid INTEGER, objsubid INTEGER, description TEXT)`,
		`CREATE TABLE pg_catalog.pg_index (indexrelid INTEGER, indrelid INTEGER, indisprimary BOOLEAN, indisunique BOOLEAN)`,
		`CREATE TABLE pg_catalog.pg_constraint (oid INTEGER, conname TEXT, conrelid INTEGER, contype TEXT, conkey TEXT)`,
		`CREATE TABLE pg_catalog.pg_inherits (inhrelid INTEGER, inhparent INTEGER, inhseqno INTEGER)`,
		`CREATE TABLE pg_catalog.pg_proc (oid INTEGER, proname TEXT, pronamespace INTEGER)`,
		`CREATE TABLE pg_catalog.pg_attrdef (oid INTEGER, adrelid INTEGER, adnum INTEGER, adbin TEXT)`,
		`CREATE TABLE pg_catalog.pg_collation (oid INTEGER, collname TEXT, collnamespace INTEGER)`,
		`CREATE TABLE pg_catalog.pg_policy (oid INTEGER, polname TEXT, polrelid INTEGER, polcmd TEXT, polpermissive BOOLEAN, polroles TEXT, polqual TEXT, polwithcheck TEXT)`,
		`CREATE TABLE pg_catalog.pg_statistic_ext (oid INTEGER, stxrelid INTEGER, stxname TEXT, stxnamespace INTEGER, stxkeys TEXT, stxkind TEXT, stxstattarget INTEGER)`,
		`CREATE TABLE pg_catalog.pg_publication (oid INTEGER, pubname TEXT, puballtables BOOLEAN)`,
		`CREATE TABLE pg_catalog.pg_publication_rel (oid INTEGER, prpubid INTEGER, prrelid INTEGER)`,
		`CREATE TABLE pg_catalog.pg_publication_namespace (oid INTEGER, pnpubid INTEGER, pnnspid INTEGER)`,
		`CREATE TABLE pg_catalog.pg_trigger (oid INTEGER, tgrelid INTEGER, tgname TEXT, tgisinternal BOOLEAN, tgenabled TEXT, tgparentid INTEGER)`,
		`CREATE TABLE pg_catalog.pg_rewrite (oid INTEGER, rulename TEXT, ev_class INTEGER)`,
		`CREATE TABLE pg_catalog.pg_foreign_table (ftrelid INTEGER, ftserver INTEGER, ftoptions TEXT)`,
		`CREATE TABLE pg_catalog.pg_partitioned_table (partrelid INTEGER)`,
		`CREATE TABLE pg_catalog.pg_tablespace (oid INTEGER, spcname TEXT)`,
		`CREATE TABLE pg_catalog.pg_extension (oid INTEGER, extname TEXT, extversion TEXT)`,
		`CREATE TABLE pg_catalog.pg_tables (schemaname TEXT, tablename TEXT, tableowner TEXT, tablespace TEXT, hasindexes BOOLEAN, hasrules BOOLEAN, hastriggers BOOLEAN, rowsecurity BOOLEAN)`,
		`CREATE TABLE pg_catalog.pg_views (schemaname TEXT, viewname TEXT, viewowner TEXT, definition TEXT)`,
		`CREATE TABLE pg_catalog.pg_matviews (schemaname TEXT, matviewname TEXT)`,
		`CREATE TABLE information_schema.schemata (catalog_name TEXT, schema_name TEXT, schema_owner TEXT)`,
		`CREATE TABLE information_schema.tables (table_catalog TEXT, table_schema TEXT, table_name TEXT, table_type TEXT, is_insertable_into TEXT)`,
		`CREATE TABLE information_schema.columns (table_catalog TEXT, table_schema TEXT, table_name TEXT, column_name TEXT, ordinal_position INTEGER,
			column_default TEXT, is_nullable TEXT, data_type TEXT, udt_name TEXT, character_maximum_length INTEGER, numeric_precision INTEGER, numeric_scale INTEGER, is_updatable TEXT)`,
		`CREATE TABLE information_schema.views (table_catalog TEXT, table_schema TEXT, table_name TEXT, view_definition TEXT)`,
		`CREATE TABLE information_schema.table_constraints (constraint_name TEXT, table_schema TEXT, table_name TEXT, constraint_type TEXT)`,
		`CREATE TABLE information_schema.key_column_usage (constraint_name TEXT, table_schema TEXT, table_name TEXT, column_name TEXT, ordinal_position INTEGER)`,
		`INSERT INTO pg_catalog.pg_am VALUES (2, 'heap', 't')`,
		`INSERT INTO pg_catalog.pg_roles VALUES (10, 'engine', 0, 1)`,
		`INSERT INTO pg_catalog.pg_user VALUES (10, 'engine', 0)`,
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fail(err)
	}
	defer conn.Close()
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return fail(fmt.Errorf("%s: %w", s, err))
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	exec := func(q string, args ...any) {
		if err == nil {
			_, err = tx.ExecContext(ctx, q, args...)
		}
	}
	for _, t := range pgTypes {
		exec(`INSERT INTO pg_catalog.pg_type VALUES (?, ?, ?, ?, 'b', 0, 'U', 0, 0, 0, 0, ',', -1, 0)`, t.oid, t.name, nsPgCatalog, t.size)
	}
	dbs := cat.Names()
	if !cat.IsProvider(maintenanceDB) {
		dbs = append(dbs, maintenanceDB)
	}
	for i, name := range dbs {
		exec(`INSERT INTO pg_catalog.pg_database VALUES (?, ?, 10, 6, 'C', 'C', 1, 0, NULL, NULL, 'c')`, 16000+i, name)
	}
	exec(`INSERT INTO pg_catalog.pg_namespace VALUES (?, 'pg_catalog', 10, NULL), (?, 'information_schema', 10, NULL)`, nsPgCatalog, nsInfoSchema)
	exec(`INSERT INTO information_schema.schemata VALUES (?, 'pg_catalog', 'engine'), (?, 'information_schema', 'engine')`, database, database)
	finish := func() (*systemDB, error) {
		if err != nil {
			tx.Rollback()
			return fail(err)
		}
		if err := tx.Commit(); err != nil {
			return fail(err)
		}
		if _, err := conn.ExecContext(ctx, `PRAGMA query_only = 1`); err != nil {
			return fail(err)
		}
		return &systemDB{db: db}, nil
	}
	if database == maintenanceDB && !cat.IsProvider(database) {
		// psql's default database: no schemas of its own, the databases
		// (pg_database, psql -l) and every provider's three-part names
		return finish()
	}
	services, serr := cat.Services(database)
	if serr != nil {
		tx.Rollback()
		return fail(serr)
	}
	nsOID := map[string]int{}
	for i, s := range services {
		nsOID[s.Name] = firstNsOID + i
		exec(`INSERT INTO pg_catalog.pg_namespace VALUES (?, ?, 10, NULL)`, firstNsOID+i, s.Name)
		exec(`INSERT INTO information_schema.schemata VALUES (?, ?, 'engine')`, database, s.Name)
	}
	tables, terr := cat.Tables(database, "")
	if terr != nil {
		tx.Rollback()
		return fail(terr)
	}
	for i, t := range tables {
		oid := firstRelOID + i
		r, rerr := cat.Table(database, t.Service, t.Name)
		var cols []catalog.ColumnInfo
		if rerr == nil && r != nil {
			cols = catalog.ResourceColumns(r.Methods)
			if r.Summary != "" {
				exec(`INSERT INTO pg_catalog.pg_description VALUES (?, 1259, 0, ?)`, oid, r.Summary)
			}
		}
		exec(`INSERT INTO pg_catalog.pg_class VALUES (?, ?, ?, 'r', 10, 2, -1, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 'p', 'd', 0, NULL, ?, NULL, 0)`,
			oid, t.Name, nsOID[t.Service], len(cols))
		exec(`INSERT INTO pg_catalog.pg_tables VALUES (?, ?, 'engine', NULL, 0, 0, 0, 0)`, t.Service, t.Name)
		exec(`INSERT INTO information_schema.tables VALUES (?, ?, ?, 'BASE TABLE', 'NO')`, database, t.Service, t.Name)
		for j, c := range cols {
			pt := typeOf(c.Type)
			storage := "p" // plain: a fixed-size type
			if pt.size < 0 {
				storage = "x" // extended: text, json
			}
			exec(`INSERT INTO pg_catalog.pg_attribute VALUES (?, ?, ?, ?, ?, -1, 0, 0, 0, '', '', 0, -1, ?, '')`, oid, c.Name, pt.oid, j+1, pt.size, storage)
			exec(`INSERT INTO information_schema.columns VALUES (?, ?, ?, ?, ?, NULL, 'YES', ?, ?, NULL, NULL, NULL, 'NO')`,
				database, t.Service, t.Name, c.Name, j+1, pt.sqlName, pt.name)
		}
	}
	return finish()
}

// query runs one rewritten system query and returns its columns, typed
// by their values, and rows (the system catalog is small).
func (d *systemDB) query(ctx context.Context, text string, s session) ([]result.Column, [][]any, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	sessionMu.Lock()
	current = s
	defer sessionMu.Unlock()
	rows, err := d.db.QueryContext(ctx, rewriteSystem(text))
	if err != nil {
		if cols, ok := emptyAnswer(text); ok {
			return cols, nil, nil
		}
		return nil, nil, err
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	ctypes, _ := rows.ColumnTypes()
	cols := make([]result.Column, len(names))
	for i, n := range names {
		cols[i].Name = n
		if i < len(ctypes) {
			switch strings.ToUpper(ctypes[i].DatabaseTypeName()) {
			case "INTEGER":
				cols[i].Type = result.TypeInteger
			case "BOOLEAN":
				cols[i].Type = result.TypeBoolean
			case "REAL":
				cols[i].Type = result.TypeReal
			case "TEXT":
				cols[i].Type = result.TypeText
			}
		}
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		for i, v := range vals {
			if cols[i].Type == result.TypeBoolean {
				if n, ok := v.(int64); ok {
					vals[i] = n != 0
				}
			}
			if cols[i].Type == "" && v != nil {
				cols[i].Type = valueType(v)
			}
		}
		out = append(out, vals)
	}
	return cols, out, rows.Err()
}

// valueType is the type of a column first seen holding v: a blob is
// bytea, an unknown value text.
func valueType(v any) string {
	if _, ok := v.([]byte); ok {
		return result.TypeBlob
	}
	return cmp.Or(result.ValueType(v), result.TypeText)
}

// alwaysEmpty are the system tables that hold no rows here: the engine's
// tables have no indexes, constraints, triggers, rules, policies,
// statistics, publications or inheritance.
var alwaysEmpty = map[string]bool{"pg_index": true, "pg_constraint": true, "pg_inherits": true, "pg_trigger": true,
	"pg_rewrite": true, "pg_policy": true, "pg_statistic_ext": true, "pg_publication": true, "pg_publication_rel": true,
	"pg_publication_namespace": true, "pg_attrdef": true, "pg_foreign_table": true, "pg_partitioned_table": true,
	"pg_statistic_ext_data": true, "pg_sequence": true, "pg_depend": true, "pg_event_trigger": true}

// emptyAnswer answers a system query SQLite cannot run (Postgres's
// arrays, ANY) when it reads a table that is always empty here (psql's
// \d asks for a table's policies, statistics, publications, ...): no
// rows, with the columns of its select list.
func emptyAnswer(text string) ([]result.Column, bool) {
	toks := significant(lex(text))
	reads := false
	for i, t := range toks {
		if t.kind == tokWord && alwaysEmpty[strings.ToLower(t.text)] && i > 0 && (toks[i-1].text == "." || strings.EqualFold(toks[i-1].text, "from") || strings.EqualFold(toks[i-1].text, "join")) {
			reads = true
		}
	}
	if !reads || len(toks) == 0 || !strings.EqualFold(toks[0].text, "select") {
		return nil, false
	}
	var cols []result.Column
	depth, start := 0, 1
	flush := func(end int) {
		item := toks[start:end]
		name := "?column?"
		if n := len(item); n >= 1 && (item[n-1].kind == tokWord || item[n-1].kind == tokQuoted) {
			if n == 1 || item[n-2].text == "." || strings.EqualFold(item[n-2].text, "as") {
				name = item[n-1].word()
			}
		}
		cols = append(cols, result.Column{Name: name, Type: result.TypeText})
	}
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth == 0 && t.text == ",":
			flush(i)
			start = i + 1
		case depth == 0 && t.kind == tokWord && strings.EqualFold(t.text, "from"):
			flush(i)
			return cols, true
		}
	}
	return nil, false
}

// unescapeE is the text of an E'...' string (backslash escapes).
func unescapeE(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' && i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
