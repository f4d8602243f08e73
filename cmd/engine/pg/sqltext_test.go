package pg

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	got := splitStatements("SELECT 'a;b'; -- c;\n SELECT \"x;y\" /* ; */ ;;  ")
	want := []string{"SELECT 'a;b'", "-- c;\n SELECT \"x;y\" /* ; */"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("split: %q, want %q", got, want)
	}
	if got := splitStatements(" ; -- nothing\n"); len(got) != 0 {
		t.Errorf("empty statements: %q", got)
	}
}

func TestBindParams(t *testing.T) {
	for _, tc := range []struct {
		text   string
		params []param
		want   string
	}{
		{"SELECT * FROM t WHERE org = $1 AND n > $2", []param{"it's", int64(3)}, "SELECT * FROM t WHERE org = 'it''s' AND n > 3"},
		// $1 inside a string, an identifier or a comment is no parameter.
		{"SELECT '$1', \"$1\" -- $1\n, $1", []param{nil}, "SELECT '$1', \"$1\" -- $1\n, NULL"},
		{"SELECT x FROM t LIMIT $1 OFFSET $2", []param{"5", "x"}, "SELECT x FROM t LIMIT 5 OFFSET 'x'"},
		{"SELECT $1, $1", []param{true}, "SELECT TRUE, TRUE"},
		{"SELECT $1", []param{1.5}, "SELECT 1.5"},
	} {
		got, err := bindParams(tc.text, tc.params)
		if err != nil || got != tc.want {
			t.Errorf("bind %q %v: %q, %v; want %q", tc.text, tc.params, got, err, tc.want)
		}
	}
	if _, err := bindParams("SELECT $2", []param{"a"}); err == nil {
		t.Error("$2 with one parameter bound: no error")
	}
}

func TestQualify(t *testing.T) {
	isService := func(s, _ string) bool { return s == "repos" || s == "issues" }
	for _, tc := range []struct{ in, want string }{
		{"SELECT count(*) FROM repos.repos WHERE org = 'a'", "SELECT count(*) FROM github.repos.repos WHERE org = 'a'"},
		{"SELECT r.name FROM repos.repos r JOIN issues.issues i ON i.repo = r.name, repos.branches b", "SELECT r.name FROM github.repos.repos r JOIN github.issues.issues i ON i.repo = r.name, github.repos.branches b"},
		// three parts, columns and strings stay as written
		{"SELECT repos.name FROM github.repos.repos WHERE x = 'repos.repos'", "SELECT repos.name FROM github.repos.repos WHERE x = 'repos.repos'"},
		{"SELECT * FROM (SELECT * FROM repos.repos) s WHERE s.a IN (SELECT 1 FROM issues.issues)", "SELECT * FROM (SELECT * FROM github.repos.repos) s WHERE s.a IN (SELECT 1 FROM github.issues.issues)"},
		{"SELECT * FROM other.repos", "SELECT * FROM other.repos"},
	} {
		if got := qualify(tc.in, "github", isService); got != tc.want {
			t.Errorf("qualify %q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestRewriteSystem(t *testing.T) {
	registerFunctions("test")
	in := `SELECT c.oid::pg_catalog.regclass, pg_catalog.pg_get_userbyid(c.relowner), current_user
FROM pg_catalog.pg_class c WHERE c.relname OPERATOR(pg_catalog.~) '^(repos)$' COLLATE pg_catalog.default
AND n.nspname !~ '^pg_' AND x ~* 'A' AND y ILIKE 'z' AND s = E'a\nb'`
	got := rewriteSystem(in)
	for _, want := range []string{"c.oid,", "pgsys_pg_get_userbyid(c.relowner)", "pgsys_current_user()", "FROM pg_catalog.pg_class c",
		"c.relname  REGEXP  '^(repos)$'", "NOT REGEXP  '^pg_'", "REGEXP '(?i)' ||  'A'", "y LIKE 'z'", "'a\nb'"} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten text lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"::", "COLLATE", "OPERATOR", "E'"} {
		if strings.Contains(got, bad) {
			t.Errorf("rewritten text keeps %q:\n%s", bad, got)
		}
	}
}

func TestIsSystem(t *testing.T) {
	for text, want := range map[string]bool{
		"SELECT version()":                        true,
		"select current_schema()":                 true,
		"SELECT * FROM pg_catalog.pg_class":       true,
		"SELECT * FROM information_schema.tables": true,
		"SELECT version FROM github.repos.releases WHERE owner = 'a' AND repo = 'b'": false,
		"SELECT count(*) FROM repos.repos WHERE org = 'acme'":                        false,
	} {
		if got := isSystem(text); got != want {
			t.Errorf("isSystem(%q) = %v", text, got)
		}
	}
}

func TestColumnName(t *testing.T) {
	for in, want := range map[string]string{"count(*)": "count", "pgsys_version()": "version", "name": "name", "a + b": "a + b", "max(x)": "max"} {
		if got := columnName(in); got != want {
			t.Errorf("columnName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	for _, tc := range []struct {
		v      any
		oid    uint32
		format int16
	}{
		{int64(-42), oidInt8, 1}, {int64(7), oidInt8, 0}, {2.5, oidFloat8, 1}, {true, oidBool, 1}, {false, oidBool, 0}, {"héllo", oidText, 1}, {"x", oidText, 0},
	} {
		b, err := encode(nil, tc.v, tc.oid, tc.format)
		if err != nil {
			t.Fatalf("encode %v: %v", tc.v, err)
		}
		got, err := decodeParam(b, tc.oid, tc.format)
		if err != nil || got != tc.v {
			t.Errorf("%v (oid %d format %d): decoded %v, %v", tc.v, tc.oid, tc.format, got, err)
		}
	}
	if b, _ := encode(nil, int64(1), oidBool, 0); string(b) != "t" {
		t.Errorf("boolean text of 1: %q, want t", b)
	}
	if _, err := encode(nil, "abc", oidInt8, 1); err == nil {
		t.Error("encoding text as a binary int8: no error")
	}
}
