// Package pg tests `engine pg`, the Postgres endpoint, through the built
// binary with real clients: the Go pgx driver always; Debian's psql and
// python3-psycopg2 where installed (scripts/testdeps.sh installs them).
package pg

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// server is a running `engine pg`.
type server struct {
	addr string
	proc *exec.Cmd
	errs *testutil.SyncBuffer
}

// freeAddr is a free loopback address.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startPG starts `engine pg` against fake with env extra and args, and
// waits until it says it listens.
func startPG(t testing.TB, fake *fakegithub.Server, extra []string, args ...string) *server {
	t.Helper()
	return startPGAt(t, fake.URL(), extra, args...)
}

// startPGAt is startPG against the fake server at baseURL.
func startPGAt(t testing.TB, baseURL string, extra []string, args ...string) *server {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(testutil.EngineBinary(t), append([]string{"pg", "--listen", addr}, args...)...)
	cmd.Env = testutil.FakeEnv(t, baseURL, append([]string{"GITHUB_TOKEN=ghp_test"}, extra...)...)
	errs := &testutil.SyncBuffer{}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		once := false
		for sc.Scan() {
			fmt.Fprintln(errs, sc.Text())
			if !once && strings.Contains(sc.Text(), "listening on") {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatalf("engine pg did not start listening; stderr:\n%s", errs.String())
	}
	return &server{addr: addr, proc: cmd, errs: errs}
}

func (s *server) url(user, password, database string) string {
	u := "postgres://" + user
	if password != "" {
		u += ":" + password
	}
	return u + "@" + s.addr + "/" + database + "?sslmode=disable"
}

func (s *server) hostPort() (string, string) {
	h, p, _ := net.SplitHostPort(s.addr)
	return h, p
}

// connectAlice connects to s as alice, without a password, to the
// database github: the connection of most tests.
func (s *server) connectAlice(t testing.TB) *pgx.Conn {
	t.Helper()
	return connect(t, s.url("alice", "", "github"))
}

func connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// pgError is err's Postgres error, or an empty one.
func pgError(err error) *pgconn.PgError {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe
	}
	return &pgconn.PgError{}
}

func pgCode(err error) string { return pgError(err).Code }

// TestPGXCount: pgx answers count(*) of acme's repositories through each
// of its query modes: the extended protocol with a statement described
// before its parameter is bound (the default), with the portal described
// after (exec), and the simple protocol; names as database.schema.table
// and as schema.table in the database github.
func TestPGXCount(t *testing.T) {
	fake := fakegithub.ForTest(t)
	s := startPG(t, fake, nil)
	c := s.connectAlice(t)
	ctx := context.Background()
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		for _, q := range []string{"SELECT count(*) FROM github.repos.repos WHERE org = $1", "SELECT count(*) FROM repos.repos WHERE org = $1"} {
			var n int64
			if err := c.QueryRow(ctx, q, mode, "acme").Scan(&n); err != nil {
				t.Fatalf("mode %v, %s: %v", mode, q, err)
			}
			if n != fakegithub.AcmeRepos {
				t.Errorf("mode %v, %s: count %d, want %d", mode, q, n, fakegithub.AcmeRepos)
			}
		}
	}
	// Parameters the statement's description cannot take a stand-in
	// for: a key with an enum, a boolean column; each agrees with its
	// literal.
	for _, tc := range []struct {
		q, literal string
		args       []any
	}{
		{"SELECT count(*) FROM issues.issues WHERE owner = $1 AND repo = $2 AND state = $3", "SELECT count(*) FROM issues.issues WHERE owner = 'acme' AND repo = 'repo-001' AND state = 'all'", []any{"acme", "repo-001", "all"}},
		{"SELECT count(*) FROM repos.repos WHERE org = $1 AND private = $2", "SELECT count(*) FROM repos.repos WHERE org = 'acme' AND private = TRUE", []any{"acme", true}},
		{"SELECT count(*) FROM repos.repos WHERE org = $1 AND stargazers_count > $2", "SELECT count(*) FROM repos.repos WHERE org = 'acme' AND stargazers_count > 10", []any{"acme", 10}},
	} {
		var got, want int64
		if err := c.QueryRow(ctx, tc.q, tc.args...).Scan(&got); err != nil {
			t.Errorf("%s %v: %v", tc.q, tc.args, err)
			continue
		}
		if err := c.QueryRow(ctx, tc.literal).Scan(&want); err != nil || got != want {
			t.Errorf("%s %v: %d; the literal statement: %d, %v", tc.q, tc.args, got, want, err)
		}
	}
	// Typed columns: an integer, a boolean and text scan into Go types.
	var (
		name    string
		id      int64
		private bool
	)
	if err := c.QueryRow(ctx, "SELECT name, id, private FROM repos.repos WHERE org = $1 ORDER BY name LIMIT $2", "acme", 1).Scan(&name, &id, &private); err != nil {
		t.Fatal(err)
	}
	if name == "" || id == 0 {
		t.Errorf("first repository: name %q id %d", name, id)
	}
	rows, err := c.Query(ctx, "SELECT name FROM repos.repos WHERE org = 'acme'")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Err(); err != nil || n != fakegithub.AcmeRepos {
		t.Errorf("rows: %d, %v; want %d", n, err, fakegithub.AcmeRepos)
	}
	fd := rows.FieldDescriptions()
	if len(fd) != 1 || fd[0].Name != "name" || fd[0].DataTypeOID != 25 {
		t.Errorf("field descriptions %+v: want name, text (25)", fd)
	}
}

// TestPGXErrors: a provider's 500 is an error with SQLSTATE 58000 and the
// engine's fields in its detail, never an empty result; SQL mistakes have
// their Postgres SQLSTATEs; writes are refused as a read-only transaction.
func TestPGXErrors(t *testing.T) {
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/broken/repos$", Kind: fakegithub.KindStatus, Status: 500})
	s := startPG(t, fake, nil)
	c := s.connectAlice(t)
	ctx := context.Background()
	var n int64
	err := c.QueryRow(ctx, "SELECT count(*) FROM repos.repos WHERE org = $1", "broken").Scan(&n)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("a provider 500 gave %v (count %d), want a Postgres error", err, n)
	}
	if pe.Code != "58000" || !strings.Contains(pe.Message, "github") || !strings.Contains(pe.Detail, "http_status=500") ||
		!strings.Contains(pe.Detail, "provider=github") || !strings.Contains(pe.Detail, "retryable=true") {
		t.Errorf("provider error: code %s message %q detail %q", pe.Code, pe.Message, pe.Detail)
	}
	for _, tc := range []struct{ sql, code string }{
		{"SELEC 1", "42601"},
		{"SELECT * FROM repos.nope WHERE org = 'acme'", "42P01"},
		{"SELECT nme FROM repos.repos WHERE org = 'acme'", "42703"},
		{"DELETE FROM repos.repos", "25006"},
		// views are read here, never changed (a client must not redefine
		// what exec, the shell and MCP read)
		{"CREATE VIEW v AS SELECT 1 AS one", "25006"},
		{"CREATE OR REPLACE VIEW v AS SELECT 2 AS one", "25006"},
		{"DROP VIEW v", "25006"},
	} {
		_, err := c.Exec(ctx, tc.sql)
		if got := pgCode(err); got != tc.code {
			t.Errorf("%s: SQLSTATE %q (%v), want %s", tc.sql, got, err, tc.code)
		}
	}
	// A syntax error in the client's own text points at its place (psql
	// prints the line with a caret).
	_, err = c.Exec(ctx, "SELEC 1", pgx.QueryExecModeSimpleProtocol)
	if !errors.As(err, &pe) || pe.Position != 1 {
		t.Errorf("SELEC 1: %v, want the position 1", err)
	}
	// The connection is still usable.
	if err := c.QueryRow(ctx, "SELECT count(*) FROM repos.repos WHERE org = 'acme'").Scan(&n); err != nil || n != fakegithub.AcmeRepos {
		t.Errorf("after the errors: %d, %v", n, err)
	}
}

// TestPGXCatalog: the statements drivers send at connect and the
// information_schema queries of schema browsers answer from the catalog.
func TestPGXCatalog(t *testing.T) {
	fake := fakegithub.ForTest(t)
	s := startPG(t, fake, nil)
	c := s.connectAlice(t)
	ctx := context.Background()
	var v, schema, db string
	if err := c.QueryRow(ctx, "SELECT version(), current_schema(), current_database()").Scan(&v, &schema, &db); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(v, "PostgreSQL ") || db != "github" {
		t.Errorf("version() %q, current_database() %q", v, db)
	}
	if _, err := c.Exec(ctx, "SET search_path TO repos"); err != nil {
		t.Fatal(err)
	}
	var sp string
	if err := c.QueryRow(ctx, "SHOW search_path").Scan(&sp); err != nil || sp != "repos" {
		t.Errorf("SHOW search_path: %q, %v", sp, err)
	}
	var tables int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'repos'", "repos").Scan(&tables); err != nil || tables != 1 {
		t.Errorf("information_schema.tables: %d, %v", tables, err)
	}
	var typ string
	if err := c.QueryRow(ctx, "SELECT data_type FROM information_schema.columns WHERE table_schema = 'repos' AND table_name = 'repos' AND column_name = 'stargazers_count'").Scan(&typ); err != nil || typ != "bigint" {
		t.Errorf("information_schema.columns stargazers_count: %q, %v", typ, err)
	}
	// The engine's discovery statements take the database's two-part names
	// as SELECT does (before: "unknown provider repos")
	for q, want := range map[string]string{"DESCRIBE repos.repos": "github.repos.repos", "SHOW TABLES IN repos": "github.repos.repos", "SHOW METHODS IN repos.repos": "list_for_org"} {
		rows, err := c.Query(ctx, q, pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		found := false
		for rows.Next() {
			vals, _ := rows.Values()
			found = found || strings.Contains(fmt.Sprint(vals), want)
		}
		if rows.Close(); rows.Err() != nil || !found {
			t.Errorf("%s: %v, no row with %s", q, rows.Err(), want)
		}
	}
	// A write to the catalog is refused like any other.
	if _, err := c.Exec(ctx, "DELETE FROM information_schema.tables"); pgCode(err) == "" {
		t.Errorf("DELETE FROM information_schema.tables: %v, want an error", err)
	}
}

// TestPGXPassword: with a password, the right one is let in (SCRAM-SHA-256)
// and a wrong one refused; without one, listening beyond loopback is
// refused at start.
func TestPGXPassword(t *testing.T) {
	fake := fakegithub.ForTest(t)
	s := startPG(t, fake, []string{"ENGINE_PG_PASSWORD=correct horse"})
	c := connect(t, s.url("alice", "correct%20horse", "github"))
	var n int64
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM repos.repos WHERE org = 'acme'").Scan(&n); err != nil || n != fakegithub.AcmeRepos {
		t.Errorf("with the password: %d, %v", n, err)
	}
	for _, pw := range []string{"wrong", ""} {
		_, err := pgx.Connect(context.Background(), s.url("alice", pw, "github"))
		if err == nil {
			t.Fatalf("password %q was let in", pw)
		}
		if pw != "" && pgCode(err) != "28P01" {
			t.Errorf("password %q: %v, want SQLSTATE 28P01", pw, err)
		}
	}
	if strings.Contains(s.errs.String(), "correct horse") {
		t.Errorf("the password is in the server's output:\n%s", s.errs.String())
	}
	res := testutil.Run(t, testutil.FakeEnv(t, fake.URL()), "", "pg", "--listen", "0.0.0.0:0")
	if res.Code != 1 || !strings.Contains(res.Stderr, "ENGINE_PG_PASSWORD") {
		t.Errorf("--listen 0.0.0.0 without a password: exit %d, stderr %q; want 1 naming ENGINE_PG_PASSWORD", res.Code, res.Stderr)
	}
}

// TestPGXCancel: a CancelRequest stops a statement waiting on the
// provider, with SQLSTATE 57014.
func TestPGXCancel(t *testing.T) {
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/slow/repos$", Kind: fakegithub.KindSlow, Delay: 10 * time.Minute})
	s := startPG(t, fake, nil)
	c := s.connectAlice(t)
	errc := make(chan error, 1)
	go func() {
		_, err := c.Exec(context.Background(), "SELECT count(*) FROM repos.repos WHERE org = 'slow'")
		errc <- err
	}()
	fake.WaitStarted(1, 2*time.Minute)
	cc := s.connectAlice(t)
	_ = cc
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.PgConn().CancelRequest(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if pgCode(err) != "57014" {
			t.Errorf("cancelled statement: %v, want SQLSTATE 57014", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the cancelled statement did not end")
	}
}

// TestPGXMaxConnections: a connection past --max-connections is refused
// with SQLSTATE 53300.
func TestPGXMaxConnections(t *testing.T) {
	fake := fakegithub.ForTest(t)
	s := startPG(t, fake, nil, "--max-connections", "1")
	s.connectAlice(t)
	_, err := pgx.Connect(context.Background(), s.url("bob", "", "github"))
	if pgCode(err) != "53300" {
		t.Errorf("a second connection: %v, want SQLSTATE 53300", err)
	}
}

// psql is Debian's psql, or the test is skipped (scripts/testdeps.sh
// installs it).
func psql(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is not installed (Debian: postgresql-client; scripts/testdeps.sh installs it)")
	}
	return p
}

func runPSQL(t *testing.T, s *server, password string, args ...string) (string, string, int) {
	t.Helper()
	h, p := s.hostPort()
	base := []string{"-X", "-h", h, "-p", p, "-U", "alice", "-v", "ON_ERROR_STOP=1"}
	if !slices.Contains(args, "-l") {
		base = append(base, "-d", "github") // psql -l connects to its own default, postgres
	}
	cmd := exec.Command(psql(t), append(base, args...)...)
	cmd.Env = append(os.Environ(), "PGPASSWORD="+password, "PGCONNECT_TIMEOUT=60", "PGSSLMODE=disable")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestPSQL: psql (the simple protocol) answers count(*), exits non-zero
// naming the provider when it answers 500, lists tables with \dt,
// describes one with \d and \d+, lists the databases with -l, and is refused
// with a wrong password.
func TestPSQL(t *testing.T) {
	psql(t)
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/broken/repos$", Kind: fakegithub.KindStatus, Status: 500})
	s := startPG(t, fake, []string{"ENGINE_PG_PASSWORD=pw1"})
	out, errs, code := runPSQL(t, s, "pw1", "-tA", "-c", "SELECT count(*) FROM github.repos.repos WHERE org = 'acme'")
	if code != 0 || strings.TrimSpace(out) != strconv.Itoa(fakegithub.AcmeRepos) {
		t.Errorf("count: exit %d, out %q, stderr %q", code, out, errs)
	}
	out, errs, code = runPSQL(t, s, "pw1", "-tA", "-c", "SELECT count(*) FROM repos.repos WHERE org = 'broken'")
	if code == 0 || !strings.Contains(errs, "github") || !strings.Contains(errs, "500") || strings.TrimSpace(out) != "" {
		t.Errorf("a provider 500: exit %d, out %q, stderr %q; want non-zero naming github", code, out, errs)
	}
	out, errs, code = runPSQL(t, s, "pw1", "-c", `\dt`)
	if code != 0 || !strings.Contains(out, " repos ") || !strings.Contains(out, "List of relations") {
		t.Errorf(`\dt: exit %d, stderr %q, out:\n%.2000s`, code, errs, out)
	}
	out, errs, code = runPSQL(t, s, "pw1", "-c", `\d repos.repos`)
	if code != 0 || !strings.Contains(out, `Table "repos.repos"`) || !strings.Contains(out, "stargazers_count") || !strings.Contains(out, "bigint") {
		t.Errorf(`\d repos.repos: exit %d, stderr %q, out:\n%.2000s`, code, errs, out)
	}
	// \d+ too (before: an empty table, then an error on psql's ARRAY(SELECT ...))
	out, errs, code = runPSQL(t, s, "pw1", "-c", `\d+ repos.repos`)
	if code != 0 || !strings.Contains(out, "stargazers_count") || !strings.Contains(out, "Storage") {
		t.Errorf(`\d+ repos.repos: exit %d, stderr %q, out:\n%.2000s`, code, errs, out)
	}
	// psql -l connects to the database postgres, which lists the
	// providers (before: refused, "database postgres does not exist")
	out, errs, code = runPSQL(t, s, "pw1", "-l")
	if code != 0 || !strings.Contains(out, "List of databases") || !strings.Contains(out, " github ") {
		t.Errorf(`psql -l: exit %d, stderr %q, out:\n%.2000s`, code, errs, out)
	}
	_, errs, code = runPSQL(t, s, "wrong", "-c", "SELECT 1")
	if code == 0 || !strings.Contains(errs, "password authentication failed") {
		t.Errorf("a wrong password: exit %d, stderr %q", code, errs)
	}
}

// TestPsycopg2: psycopg2 with a bound parameter answers count(*), and a
// provider's 500 raises an error naming the provider.
func TestPsycopg2(t *testing.T) {
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		py = "python3"
	}
	if err := exec.Command(py, "-c", "import psycopg2").Run(); err != nil {
		t.Skip("python3-psycopg2 is not installed (scripts/testdeps.sh installs it)")
	}
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/broken/repos$", Kind: fakegithub.KindStatus, Status: 500})
	s := startPG(t, fake, nil)
	h, p := s.hostPort()
	script := `
import sys, psycopg2
conn = psycopg2.connect(host=sys.argv[1], port=int(sys.argv[2]), dbname="github", user="alice", sslmode="disable")
cur = conn.cursor()
cur.execute("SELECT count(*) FROM repos.repos WHERE org = %s", ("acme",))
print(cur.fetchone()[0])
conn.rollback()
try:
    cur.execute("SELECT count(*) FROM repos.repos WHERE org = %s", ("broken",))
    print("no error:", cur.fetchall())
except psycopg2.Error as e:
    print(e.pgcode, e.pgerror.splitlines()[0])
`
	out, err := exec.Command(py, "-c", script, h, p).CombinedOutput()
	if err != nil {
		t.Fatalf("psycopg2: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] != strconv.Itoa(fakegithub.AcmeRepos) || !strings.HasPrefix(lines[1], "58000 ") || !strings.Contains(lines[1], "github") {
		t.Errorf("psycopg2 printed:\n%s", out)
	}
}

// TestPGXTLS: with --tls-cert and --tls-key a client asking for TLS
// (sslmode=require) gets it; without them it is told no, and
// sslmode=require stops.
func TestPGXTLS(t *testing.T) {
	fake := fakegithub.ForTest(t)
	cert, key := selfSigned(t)
	s := startPG(t, fake, nil, "--tls-cert", cert, "--tls-key", key)
	url := strings.Replace(s.url("alice", "", "github"), "sslmode=disable", "sslmode=require", 1)
	c := connect(t, url)
	if _, ok := c.PgConn().Conn().(*tls.Conn); !ok {
		t.Errorf("sslmode=require: the connection is %T, not TLS", c.PgConn().Conn())
	}
	var n int64
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM repos.repos WHERE org = 'acme'").Scan(&n); err != nil || n != fakegithub.AcmeRepos {
		t.Errorf("over TLS: %d, %v", n, err)
	}
	plain := startPG(t, fake, nil)
	if _, err := pgx.Connect(context.Background(), strings.Replace(plain.url("alice", "", "github"), "sslmode=disable", "sslmode=require", 1)); err == nil {
		t.Error("sslmode=require against a server without TLS connected")
	}
}

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// (PEM) and returns their paths.
func selfSigned(t *testing.T) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	cert := testutil.TempFile(t, "cert.pem", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	keyFile := testutil.TempFile(t, "key.pem", string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})))
	return cert, keyFile
}

// TestIdleTimeout: a connection idle past --idle-timeout is closed with a
// FATAL 57P05.
func TestIdleTimeout(t *testing.T) {
	fake := fakegithub.ForTest(t)
	s := startPG(t, fake, nil, "--idle-timeout", "1s")
	c := s.connectAlice(t)
	nc := c.PgConn().Conn()
	nc.SetReadDeadline(time.Now().Add(2 * time.Minute))
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := nc.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
	}
	if !strings.Contains(string(got), "57P05") || !strings.Contains(string(got), "FATAL") {
		t.Errorf("an idle connection got %q, want a FATAL 57P05 and the end", got)
	}
}

// TestPGXQueryTimeout: a statement past --query-timeout ends with SQLSTATE
// 57014, its detail naming the setting, and the connection goes on.
func TestPGXQueryTimeout(t *testing.T) {
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/slow/repos$", Kind: fakegithub.KindSlow, Delay: 10 * time.Minute})
	s := startPG(t, fake, nil, "--query-timeout", "1s")
	c := s.connectAlice(t)
	_, err := c.Exec(context.Background(), "SELECT count(*) FROM repos.repos WHERE org = 'slow'")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" || !strings.Contains(pe.Detail, "setting=query-timeout") || !strings.Contains(pe.Detail, "retryable=false") {
		t.Errorf("a statement past --query-timeout: %v (detail %q), want SQLSTATE 57014 naming the setting", err, detailOf(err))
	}
	var n int64
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM repos.repos WHERE org = 'acme'").Scan(&n); err != nil || n != fakegithub.AcmeRepos {
		t.Errorf("after the timeout: %d, %v", n, err)
	}
}

func detailOf(err error) string { return pgError(err).Detail }

// TestPGStreamsResults: the server writes a large result to the wire as
// SQLite produces it, holding no result: 20,000 rows x 91 columns (about
// 77 MB of values) read by pgx, and the server's peak RSS stays under
// 120 MB: exec's own for the same statement is about 70 MB (test/hostile
// TestLargeResultStreamsOut), the server's 88 MB when measured; a server
// that held the result would add its 77 MB of values to that.
func TestPGStreamsResults(t *testing.T) {
	const n = 20000
	s := startPGAt(t, testutil.FakeGitHub(t), nil) // out of process: a large result
	c := s.connectAlice(t)
	rows, err := c.Query(context.Background(), fmt.Sprintf("SELECT * FROM repos.repos WHERE org = 'scale-%d'", n))
	if err != nil {
		t.Fatal(err)
	}
	got, size := 0, 0
	for rows.Next() {
		for _, v := range rows.RawValues() {
			size += len(v)
		}
		got++
	}
	if err := rows.Err(); err != nil || got != n {
		t.Fatalf("%d rows, %v; want %d", got, err, n)
	}
	rss, err := testutil.VmHWM(s.proc.Process.Pid)
	if err != nil {
		t.Skipf("no peak RSS on this system: %v", err)
	}
	t.Logf("%d rows, %d MB of values, server peak RSS %d MB", n, size>>20, rss>>20)
	if rss > 120<<20 {
		t.Errorf("the server peaked at %d MB for %d rows (%d MB of values), want under 120 MB", rss>>20, n, size>>20)
	}
}
