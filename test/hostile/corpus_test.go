package hostile

import (
	"fmt"
	"strings"
)

// hostile is one statement of the corpus and the error it must get.
type hostile struct {
	name string
	sql  string
	// kind is the error kind: sql, plan, timeout, or provider (a value that is
	// escaped into one path segment and refused by the API with status).
	kind   string
	status int
	// mcpKind, when set, is the kind over MCP, where JSON decoding has
	// already replaced invalid UTF-8 with U+FFFD.
	mcpKind   string
	mcpStatus int
	// path, for provider cases, is the escaped request path the API must
	// have received.
	path string
	// script: several statements, which exec -f runs as a script, one
	// statement at a time, each checked alone (test/exec's
	// TestScriptRefusesAStatementOfItsOwn); one call of MCP refuses them.
	script bool
}

// timeout is the statement's time limit for the case: 1 s for the
// resource bombs, whose error is the timeout; a minute for every other
// case, so that a busy machine (CI's may be) cannot turn a refusal at
// parse or plan time into a timeout. None of these asserts how fast an
// answer comes: that is make bench's.
func (h hostile) timeout() string {
	if h.kind == "timeout" {
		return "1s"
	}
	return "60s"
}

const tiny = `SELECT name FROM github.repos.repos WHERE org = 'tiny'`

// table is the name the store gives the first materialised table.
const table = "t0_github_repos_repos"

// nest wraps a SELECT in n derived tables.
func nest(n int) string {
	s := "SELECT 1 AS a"
	for i := 0; i < n; i++ {
		s = fmt.Sprintf("SELECT a FROM (%s) AS t%d", s, i)
	}
	return s
}

// corpus returns the statements; dir is a directory the process could
// write to, used as the target of every file-writing attempt.
func corpus(dir string) []hostile {
	sql := func(name, s string) hostile { return hostile{name: name, sql: s, kind: "sql"} }
	bomb := func(name, s string) hostile { return hostile{name: name, sql: s, kind: "timeout"} }
	plan := func(name, s string) hostile { return hostile{name: name, sql: s, kind: "plan"} }
	f := func(p string) string { return "'" + dir + "/" + p + "'" }
	script := func(h hostile) hostile { h.script = true; return h }
	return []hostile{
		// More than one statement.
		script(sql("two selects", "SELECT 1; SELECT 2")),
		script(sql("select then drop", tiny+"; DROP TABLE "+table)),
		script(sql("select then attach", tiny+"; ATTACH DATABASE "+f("a.db")+" AS a")),
		sql("create trigger body", "CREATE TRIGGER tr AFTER INSERT ON "+table+" BEGIN DELETE FROM "+table+"; END"),
		// Databases and pragmas.
		sql("attach file", "ATTACH DATABASE "+f("a.db")+" AS a"),
		sql("attach memory", "ATTACH ':memory:' AS m"),
		sql("detach", "DETACH DATABASE main"),
		sql("pragma writable_schema", "PRAGMA writable_schema = ON"),
		sql("pragma journal_mode", "PRAGMA journal_mode = WAL"),
		sql("pragma temp_store_directory", "PRAGMA temp_store_directory = "+f("")),
		sql("pragma function writable_schema", "SELECT 1 FROM pragma_writable_schema"),
		sql("vacuum into", "VACUUM INTO "+f("copy.db")),
		sql("vacuum", "VACUUM"),
		sql("begin", "BEGIN TRANSACTION"),
		sql("savepoint", "SAVEPOINT s1"),
		sql("set", "SET autocommit = 0"),
		sql("load data infile", "LOAD DATA INFILE '/etc/passwd' INTO TABLE x"),
		// Extensions and files.
		sql("load_extension", "SELECT load_extension("+f("evil.so")+")"),
		sql("load_extension in a query", "SELECT load_extension('x') FROM github.repos.repos WHERE org = 'tiny'"),
		sql("readfile", "SELECT readfile('/etc/passwd') FROM github.repos.repos WHERE org = 'tiny'"),
		sql("writefile", "SELECT writefile("+f("pwned")+", name) FROM github.repos.repos WHERE org = 'tiny'"),
		sql("fts3_tokenizer", "SELECT fts3_tokenizer('simple')"),
		sql("into outfile", tiny+" INTO OUTFILE "+f("out.txt")),
		sql("into dumpfile", tiny+" INTO DUMPFILE "+f("dump.bin")),
		// Writes to the materialised tables, direct and disguised.
		sql("insert materialised", "INSERT INTO "+table+" (name) VALUES ('x')"),
		sql("insert provider table", "INSERT INTO github.repos.repos (name) VALUES ('x')"),
		sql("update materialised", "UPDATE "+table+" SET name = 'x'"),
		sql("update provider table", "UPDATE github.repos.repos SET name = 'x' WHERE org = 'tiny'"),
		sql("delete materialised", "DELETE FROM "+table),
		sql("delete returning", "DELETE FROM "+table+" RETURNING *"),
		sql("delete provider table", "DELETE FROM github.repos.repos WHERE org = 'tiny'"),
		sql("replace", "REPLACE INTO "+table+" (name) VALUES ('x')"),
		sql("drop materialised", "DROP TABLE "+table),
		sql("drop provider table", "DROP TABLE github.repos.repos"),
		sql("create table as", "CREATE TABLE x AS "+tiny),
		sql("create temp table", "CREATE TEMP TABLE x (a INT)"),
		// CREATE VIEW is the engine's own (a file in its data directory,
		// test/exec TestViewsPersistAcrossProcesses); a view of a write is not.
		sql("create view of a write", "CREATE VIEW v AS DELETE FROM "+table),
		sql("create temp view", "CREATE TEMP VIEW v AS SELECT 1"),
		sql("create index", "CREATE INDEX i ON "+table+" (name)"),
		sql("alter rename", "ALTER TABLE "+table+" RENAME TO y"),
		sql("alter add column", "ALTER TABLE "+table+" ADD COLUMN pwned TEXT"),
		sql("cte delete", "WITH x AS (SELECT 1) DELETE FROM "+table),
		sql("cte insert", "WITH x AS (SELECT 1 AS a) INSERT INTO "+table+" (name) SELECT a FROM x"),
		sql("cte update", "WITH x AS ("+tiny+") UPDATE "+table+" SET name = 'x'"),
		sql("select for update", tiny+" FOR UPDATE"),
		// Resource exhaustion: a clear timeout, the process unharmed.
		bomb("recursive cte", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"),
		bomb("recursive cte joined", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c, github.repos.repos r WHERE r.org = 'tiny'"),
		bomb("recursive cte in derived table", "SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c) AS b"),
		bomb("cross join explosion", "SELECT count(*) FROM github.repos.repos a, github.repos.repos b, github.repos.repos c, github.repos.repos d WHERE a.org = 'acme' AND b.org = 'acme' AND c.org = 'acme' AND d.org = 'acme'"),
		// Size and shape of the text.
		sql("1 MB literal", tiny+" AND name <> '"+strings.Repeat("x", 1<<20)+"'"),
		sql("1 MB comment", "SELECT 1 /*"+strings.Repeat("*", 1<<20)+"*/"),
		sql("deep parentheses", "SELECT "+strings.Repeat("(", 3000)+"1"+strings.Repeat(")", 3000)),
		sql("deep derived tables", nest(300)),
		sql("60,000 NOTs", "SELECT "+strings.Repeat("NOT ", 60000)+"1"),
		sql("60,000 parentheses", "SELECT "+strings.Repeat("(", 60000)+"1"+strings.Repeat(")", 60000)),
		sql("unterminated string", tiny+" AND name = 'x"),
		sql("statement the parser panics on", "SELECT''"),
		sql("empty", ";"),
		sql("NUL after statement", "SELECT 1\x00; DROP TABLE "+table),
		sql("NUL in literal", "SELECT name FROM github.repos.repos WHERE org = 'ti\x00ny'"),
		{name: "invalid UTF-8 in literal", sql: "SELECT name FROM github.repos.repos WHERE org = '\xff\xfe'", kind: "sql", mcpKind: "provider", mcpStatus: 404},
		sql("invalid UTF-8 identifier", "SELECT \xff FROM github.repos.repos WHERE org = 'tiny'"),
		// Comment and escape tricks.
		sql("hash comment", tiny+" # AND private"),
		sql("version comment", tiny+" /*!50000 UNION SELECT sql FROM sqlite_master */"),
		// A backslash is itself, as SQLite reads it: 'ti\' ends at its
		// quote, so the OR is an OR to the front end too, and an OR binds
		// no key (before: refused as a backslash escape).
		plan("backslash quote escape", `SELECT name FROM github.repos.repos WHERE org = 'ti\' OR 1=1 -- '`),
		script(sql("union into attach", tiny+" UNION SELECT 1; ATTACH "+f("u.db")+" AS u")),
		// Refused at plan time, before any request: a column the method
		// does not return, and literals SQLite reads differently.
		plan("unknown column", "SELECT stat FROM github.repos.repos WHERE org = 'tiny'"),
		plan("per_page as a column", tiny+" AND per_page = 3"),
		plan("double-quoted value", `SELECT name FROM github.repos.repos WHERE org = "tiny"`),
		plan("TRUE as a value", "SELECT name FROM github.repos.repos WHERE org = TRUE"),
		plan("float as a value", "SELECT name FROM github.repos.repos WHERE org = 1.5e3"),
		// Injection through a parameter value: one escaped path segment.
		{name: "union smuggled in a value", sql: "SELECT name FROM github.repos.repos WHERE org = 'tiny'' UNION SELECT 1 --'", kind: "provider", status: 404, path: "/orgs/tiny%27%20UNION%20SELECT%201%20--/repos"},
		{name: "path traversal in a value", sql: "SELECT name FROM github.repos.repos WHERE org = '../../admin'", kind: "provider", status: 404, path: "/orgs/..%2F..%2Fadmin/repos"},
	}
}
