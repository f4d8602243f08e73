package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// query runs one statement in a fresh store with the default value limit
// and returns its first row.
func query(t *testing.T, q string) ([]any, error) {
	t.Helper()
	return queryAt(t, 0, q)
}

// queryAt is query with the value limit n.
func queryAt(t *testing.T, n int, q string) ([]any, error) {
	t.Helper()
	ctx := context.Background()
	st, err := Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SetMaxValueBytes(n); err != nil {
		t.Fatal(err)
	}
	r, err := st.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(r.Rows) != 1 {
		t.Fatalf("%s: %d rows", q, len(r.Rows))
	}
	return r.Rows[0], nil
}

func TestFunctions(t *testing.T) {
	cases := []struct{ q, want string }{
		{"SELECT regexp_like('Héllo wörld', '^h.llo w.rld$', 'i')", "1"},
		{"SELECT regexp_like('Héllo', '^h')", "0"},
		{"SELECT regexp_like('a\nb', '^b$', 'm')", "1"},
		{"SELECT regexp_like('a\nb', 'a.b', 's')", "1"},
		{"SELECT regexp_like('a\nb', 'a.b')", "0"},
		{"SELECT regexp_like('ABC', 'abc', 'ic')", "0"},
		{"SELECT regexp_like(NULL, 'a')", "<nil>"},
		{"SELECT regexp_like('', '')", "1"},
		{"SELECT 'abc' REGEXP 'b'", "1"},
		{"SELECT 'abc' NOT REGEXP 'b'", "0"},
		{"SELECT NULL REGEXP 'b'", "<nil>"},
		{"SELECT regexp_substr('uses: actions/checkout@v4', '@([^@]+)$', 1)", "v4"},
		{"SELECT regexp_substr('日本語テキスト', '本.')", "本語"},
		{"SELECT regexp_substr('abc', 'x')", "<nil>"},
		{"SELECT regexp_substr('abc', '(x)?b', 1)", "<nil>"},
		{"SELECT regexp_replace('a-b-c', '-', '+')", "a+b+c"},
		{"SELECT regexp_replace('v1.2', 'v([0-9]+)', 'version $1')", "version 1.2"},
		{"SELECT regexp_replace('abc', '', '-')", "-a-b-c-"},
		{"SELECT regexp_count('banana', 'an')", "2"},
		{"SELECT regexp_count('', 'x')", "0"},
		{"SELECT base64_decode('aGVs\nbG8g\r\nd29y bGQ=')", "hello world"},
		{"SELECT base64_decode('aGk')", "hi"},
		{"SELECT base64_decode('')", ""},
		{"SELECT base64_decode(base64_encode('žluťoučký 🐎'))", "žluťoučký 🐎"},
		{"SELECT base64_encode('')", ""},
		{"SELECT base64_encode(NULL)", "<nil>"},
		{"SELECT typeof(base64_decode('/w=='))", "blob"},
		{"SELECT split_part('a/b/c', '/', 2)", "b"},
		{"SELECT split_part('a/b/c', '/', -1)", "c"},
		{"SELECT split_part('a/b/c', '/', 4)", ""},
		{"SELECT split_part('a/b/c', '/', -4)", ""},
		{"SELECT split_part('a/b/c', '', 1)", "a/b/c"},
		{"SELECT split_part('x→y→z', '→', 3)", "z"},
		{"SELECT glob('a*', 'abc')", "1"},
		{"SELECT yaml_to_json('on: [push, pull_request_target]')", `{"on":["push","pull_request_target"]}`},
		{"SELECT yaml_to_json('a: yes\nb: off\nc: ~\nd: 0x10\ne: 1.5\nf: .inf\ng: 2024-01-02\nh: \"x\"')", `{"a":"yes","b":"off","c":null,"d":16,"e":1.5,"f":".inf","g":"2024-01-02","h":"x"}`},
		{"SELECT yaml_to_json('a: 1\n---\nb: 2\n')", `[{"a":1},{"b":2}]`},
		{"SELECT yaml_to_json('')", "null"},
		{"SELECT yaml_to_json('- &x {k: v}\n- *x')", `[{"k":"v"},{"k":"v"}]`},
		{"SELECT yaml_to_json('base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3')", `{"base":{"x":1,"y":2},"d":{"x":1,"y":3}}`},
		{"SELECT yaml_to_json('k: \"tab\\tq\\\"x\"')", `{"k":"tab\tq\"x"}`},
		{"SELECT yaml_to_json('ключ: значение')", `{"ключ":"значение"}`},
		{"SELECT json_extract(yaml_to_json('on:\n  pull_request_target:\n    types: [opened]'), '$.on.pull_request_target.types[0]')", "opened"},
	}
	for _, c := range cases {
		row, err := query(t, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if got := fmt.Sprint(row[0]); got != c.want {
			t.Errorf("%s = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestFunctionErrors(t *testing.T) {
	cases := map[string]string{
		"SELECT regexp_like('a', '(')":                 "regexp_like: invalid regular expression '(': missing closing )",
		"SELECT 'a' REGEXP '[z-a]'":                    "REGEXP: invalid regular expression '[z-a]'",
		"SELECT regexp_like('a', 'a', 'q')":            `unknown flag "q"`,
		"SELECT regexp_like('a')":                      "takes 2 or 3 arguments",
		"SELECT regexp_substr('a', 'a', 2)":            "has 0 group(s)",
		"SELECT regexp_substr('a', 'a', 'x')":          "the group must be an integer",
		"SELECT base64_decode('not base64!')":          "base64_decode: the text is not base64",
		"SELECT base64_decode('aGk=aGk=')":             "not base64",
		"SELECT split_part('a', '/', 0)":               "numbered from 1",
		"SELECT yaml_to_json('a: [1')":                 "yaml_to_json: ",
		"SELECT yaml_to_json('a: 1\na: 2')":            `the mapping key "a" appears twice`,
		"SELECT yaml_to_json('? [a]\n: 1')":            "JSON keys are text",
		"SELECT yaml_to_json('a: *nope')":              "yaml_to_json: ",
		"SELECT yaml_to_json('" + deepYAML(300) + "')": "deeper than 256",
	}
	for q, want := range cases {
		_, err := query(t, q)
		var qe *QueryError
		if !errors.As(err, &qe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a QueryError with %q", q, err, want)
		}
	}
}

func deepYAML(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// TestYAMLBomb: a billion-laughs document stops at the value limit, as
// a LimitError naming the setting (no memory or time to speak of: the
// writer stops at the limit).
func TestYAMLBomb(t *testing.T) {
	doc := `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]`
	_, err := query(t, "SELECT yaml_to_json('"+strings.ReplaceAll(doc, "'", "''")+"')")
	var le *LimitError
	if !errors.As(err, &le) || le.ErrorSetting() != SettingMaxValueBytes {
		t.Fatalf("billion laughs: %v", err)
	}
	if _, err := YAMLToJSON(doc, 1<<20); err == nil || !strings.Contains(err.Error(), "1048576 bytes") {
		t.Fatalf("at 1 MiB: %v", err)
	}
}

// TestRegexpReplaceBound: a replacement that would grow past the value
// limit is a LimitError, whether it refers to groups or not.
func TestRegexpReplaceBound(t *testing.T) {
	defer funcLimit.Store(DefaultMaxValueBytes)
	for _, q := range []string{
		"SELECT regexp_replace(hex(zeroblob(1000)), '', hex(zeroblob(1000)))",
		"SELECT regexp_replace(hex(zeroblob(1000)), '(0)', '$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1')",
		"SELECT base64_encode(hex(zeroblob(30000)))",
	} {
		_, err := queryAt(t, 1<<16, q)
		var le *LimitError
		if !errors.As(err, &le) {
			t.Errorf("%s: %v", q, err)
		}
	}
	r, err := queryAt(t, 1<<16, "SELECT length(regexp_replace(hex(zeroblob(100)), '(0)', '$1$1'))")
	if err != nil || fmt.Sprint(r[0]) != "400" {
		t.Fatalf("%v %v", r, err)
	}
}

// FuzzYAMLToJSON: whatever the text, yaml_to_json returns valid JSON or
// an error, within the bound, without panicking.
func FuzzYAMLToJSON(f *testing.F) {
	for _, s := range []string{"on: push", "a: &a [1]\nb: *a", "- a\n- b: c\n---\nx", "{<<: {a: 1}}", "k: !!binary aGk=", "? a\n: b", "a: 'x\n  y'", "[[[[", "a: *b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		const limit = 1 << 16
		out, err := yamlToJSON([]driver.Value{s})
		if err != nil {
			return
		}
		j := out.(string)
		if int64(len(j)) > funcLimit.Load() || !json.Valid([]byte(j)) {
			t.Fatalf("yaml_to_json(%q) = %q: not JSON", s, j)
		}
		if _, err := YAMLToJSON(s, limit); err == nil {
			return
		} else if !strings.Contains(err.Error(), "value limit") {
			t.Fatalf("yaml_to_json(%q) at %d bytes: %v, but at the default limit it gave JSON", s, limit, err)
		}
	})
}

// FuzzRegexpFunctions: the regexp functions never panic, whatever the
// text, pattern and replacement, and agree with one another.
func FuzzRegexpFunctions(f *testing.F) {
	f.Add("uses: actions/checkout@v4", "@([0-9a-f]{40})$", "$1")
	f.Add("aaa", "", "-")
	f.Add("héllo", "(?i)H", "${0}")
	f.Add("x", "(", "")
	f.Fuzz(func(t *testing.T, s, pattern, repl string) {
		like, err := regexpLike([]driver.Value{s, pattern})
		if err != nil {
			if !strings.Contains(err.Error(), "invalid regular expression") {
				t.Fatalf("regexp_like(%q, %q): %v", s, pattern, err)
			}
			return
		}
		n, err := regexpCount([]driver.Value{s, pattern})
		if err != nil || (n.(int64) > 0) != (like.(int64) == 1) {
			t.Fatalf("regexp_count(%q, %q) = %v, %v; regexp_like = %v", s, pattern, n, err, like)
		}
		sub, err := regexpSubstr([]driver.Value{s, pattern})
		if err != nil || (sub != nil) != (like.(int64) == 1) {
			t.Fatalf("regexp_substr(%q, %q) = %v, %v; regexp_like = %v", s, pattern, sub, err, like)
		}
		if _, err := regexpReplace([]driver.Value{s, pattern, repl}); err != nil && !funcTooLong(err) {
			t.Fatalf("regexp_replace(%q, %q, %q): %v", s, pattern, repl, err)
		}
	})
}
