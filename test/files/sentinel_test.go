package files

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// sentinel is what a user's file looked like before the engine ran.
type sentinel struct {
	sum   [32]byte
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

// plantSentinels fills dir with user files: a small document, a 300 MB
// sparse file, a subfolder, a file whose path looks like a cache entry,
// an empty file, a read-only file and a config file the engine reads.
func plantSentinels(t *testing.T, dir string) {
	t.Helper()
	write := func(rel, body string, mode fs.FileMode) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
	}
	write("thesis.tex", `\documentclass{article}\begin{document}Chapter 1\end{document}`+"\n", 0o644)
	write("chapters/ch2.tex", "Chapter 2\n", 0o600)
	write("chapters/figures/plot.csv", "x,y\n1,2\n", 0o640)
	write("ab/ab"+strings.Repeat("0", 62), "looks like a cache entry\n", 0o600)
	write("empty", "", 0o600)
	write("readonly.txt", "do not touch\n", 0o400)
	write("engine/config.yaml", "max-requests: 1000\n", 0o600)
	write("engine-1234.db", "not the engine's database\n", 0o600)
	big, err := os.Create(filepath.Join(dir, "video.mp4"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(300 << 20); err != nil {
		t.Fatal(err)
	}
	big.Close()
	// Old mtimes, so that "oldest first" eviction would pick them.
	old := time.Now().Add(-365 * 24 * time.Hour)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

func snapshot(t *testing.T, dir string) map[string]sentinel {
	t.Helper()
	out := map[string]sentinel{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		s := sentinel{size: fi.Size(), mode: fi.Mode(), mtime: fi.ModTime()}
		if fi.Size() < 1<<20 {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s.sum = sha256.Sum256(b)
		}
		out[p] = s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEngineNeverTouchesUserFiles runs every command with one directory
// full of user files as cache directory, config directory, state
// directory and TMPDIR, with a response-cache bound small enough that
// eviction runs on every write, and asserts that every file is still
// there with the same content, size, mode and mtime.
func TestEngineNeverTouchesUserFiles(t *testing.T) {
	gh := fakegithub.ForTest(t)
	dir := t.TempDir()
	plantSentinels(t, dir)
	before := snapshot(t, dir)

	env := testutil.FakeEnv(t, gh.URL(),
		"GITHUB_TOKEN=ghp_sentinel_token_0000000000",
		"ENGINE_NO_CACHE=",
		"ENGINE_CACHE_DIR="+dir,
		"ENGINE_CACHE_MAX_BYTES=20000",
		"XDG_CONFIG_HOME="+dir,
		"XDG_STATE_HOME="+dir,
		"TMPDIR="+dir,
	)
	queries := []string{
		`SELECT count(*) FROM github.repos.repos WHERE org = 'acme'`,
		`SELECT login FROM github.orgs.members WHERE org = 'acme'`,
		`SELECT count(*) FROM github.repos.repos WHERE org = 'acme'`,
		`SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 5`,
		`SHOW PROVIDERS`,
		`SELECT name FROM github.repos.repos WHERE org = 'tiny'`,
	}
	r := testutil.Run(t, env, strings.Join(queries, ";\n")+";\n", "shell")
	if r.Code != 0 {
		t.Fatalf("shell script: exit %d %s", r.Code, r.Stderr)
	}
	controls := testutil.TempFile(t, "controls.yaml", `controls:
  - id: no-2fa-disabled
    sql: SELECT login FROM github.orgs.members WHERE org = 'tiny' AND filter = '2fa_disabled'
  - id: repos
    sql: SELECT name FROM github.repos.repos WHERE org = 'acme' AND name = 'nope'
`)
	r = testutil.Run(t, env, "", "check", "-o", "json", controls)
	if r.Code != 0 {
		t.Fatalf("check: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	r = testutil.Run(t, env, "", "registry", "list")
	if r.Code != 0 {
		t.Fatalf("registry list: exit %d %s", r.Code, r.Stderr)
	}
	c, _, _ := mcptest.Stdio(t, env, "mcp")
	res := c.Query(t, queries[0])
	if res.IsError {
		t.Fatalf("mcp: %s", res.Text)
	}
	c.S.Close() // waits for the server to exit (mcp.CommandTransport)

	// exec last, ending with a small answer, so that an entry remains.
	for _, q := range queries {
		for _, ttl := range []string{"0", "1h"} {
			r := testutil.Run(t, env, "", "exec", "--cache-ttl", ttl, "-o", "csv", q)
			if r.Code != 0 {
				t.Fatalf("exec %q: exit %d %s", q, r.Code, r.Stderr)
			}
		}
	}
	after := snapshot(t, dir)
	for p, s := range before {
		a, ok := after[p]
		switch {
		case !ok:
			t.Errorf("%s was removed", p)
		case a.size != s.size:
			t.Errorf("%s: size %d, was %d", p, a.size, s.size)
		case a.sum != s.sum:
			t.Errorf("%s: content changed", p)
		case a.mode != s.mode:
			t.Errorf("%s: mode %v, was %v", p, a.mode, s.mode)
		case !a.mtime.Equal(s.mtime):
			t.Errorf("%s: mtime %v, was %v", p, a.mtime, s.mtime)
		}
	}
	// The engine did use the directory for its cache: entries of the exact
	// layout exist, and they hold at most the 20000-byte bound although
	// every acme page written was larger, so eviction ran.
	var entries int
	var stored int64
	for p, a := range after {
		rel, _ := filepath.Rel(filepath.Join(dir, "engine-http-v1"), p)
		if d, f, ok := strings.Cut(rel, string(filepath.Separator)); ok && len(d) == 2 && len(f) == 64 && strings.HasPrefix(f, d) {
			entries++
			stored += a.size
		}
	}
	if entries == 0 || stored > 20000 {
		t.Errorf("cache under %s/engine-http-v1: %d entries, %d bytes; want at least one, at most 20000 bytes", dir, entries, stored)
	}
	var extra bytes.Buffer
	for p := range after {
		if _, ok := before[p]; !ok && !strings.Contains(p, "engine-http-v1") {
			extra.WriteString(p + "\n")
		}
	}
	if extra.Len() > 0 {
		t.Errorf("files left outside the cache's own directory:\n%s", extra.String())
	}
}
