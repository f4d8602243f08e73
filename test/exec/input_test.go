package exec_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// bom is the UTF-8 byte-order mark that editors saving "UTF-8 with BOM"
// write first in a file.
const bom = "\ufeff"

// TestStatementFileWithByteOrderMark: a statement file (-f FILE, or -f -
// on stdin) that begins with a byte-order mark runs as if it had none; a
// mark anywhere else in a statement is refused by name, exit 1.
func TestStatementFileWithByteOrderMark(t *testing.T) {
	const sql = bom + "SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name;\n"
	want := "name\nalpha\nbeta\ngamma\n"
	path := testutil.TempFile(t, "q.sql", sql)
	r := run(t, "-o", "csv", "-f", path)
	if r.Code != 0 || r.Stdout != want {
		t.Errorf("-f FILE with a BOM: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t), sql, "exec", "-o", "csv", "-f", "-")
	if r.Code != 0 || r.Stdout != want {
		t.Errorf("-f - with a BOM: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	for _, text := range []string{bom + "SELECT 1", "SELECT 1 " + bom, "SELECT 1;\n" + bom} {
		r = run(t, text)
		if r.Code != 1 || r.Stdout != "" || !strings.Contains(r.Stderr, "byte-order mark (U+FEFF") || !strings.Contains(r.Stderr, "remove it") {
			t.Errorf("%q: exit %d\nstdout %q\nstderr %s", text, r.Code, r.Stdout, r.Stderr)
		}
	}
	path = testutil.TempFile(t, "two.sql", "SELECT 1\n"+bom+"\n")
	if r = run(t, "-f", path); r.Code != 1 || !strings.Contains(r.Stderr, "byte-order mark") {
		t.Errorf("a BOM after the start of a file: exit %d\nstderr %s", r.Code, r.Stderr)
	}
}

// TestPipedStatementWithoutFileFlag: a statement piped to exec without
// -f - is not read; the error says how to read it.
func TestPipedStatementWithoutFileFlag(t *testing.T) {
	r := testutil.Run(t, execEnv(t), "SELECT 1\n", "exec")
	if r.Code != 1 || r.Stdout != "" || !strings.Contains(r.Stderr, "no statement") || !strings.Contains(r.Stderr, "-f -") {
		t.Errorf("exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestLineFormatShowsNull: -o line shows NULL as NULL, as the table does,
// so that it differs from an empty string.
func TestLineFormatShowsNull(t *testing.T) {
	r := run(t, "-o", "line", "SELECT NULL AS n, '' AS e, 1 AS one")
	want := "  n = NULL\n  e = \none = 1\n"
	if r.Code != 0 || r.Stdout != want {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %s", r.Code, r.Stdout, want, r.Stderr)
	}
	r = run(t, "SELECT NULL AS n, '' AS e")
	if !strings.Contains(r.Stdout, "| NULL |   |") {
		t.Errorf("table:\n%s", r.Stdout)
	}
}
