package orgscale

import (
	"bytes"
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

const entriesQuery = `SELECT count(*) AS c, sum(private) AS p FROM github.repos.repos WHERE org = 'acme'`

// entriesRun runs entriesQuery with the cache in dir (and extra) and
// returns the fake's requests; the answer must be the true one.
func entriesRun(t *testing.T, fake *fakegithub.Server, dir string, extra ...string) []fakegithub.Request {
	t.Helper()
	fake.ResetRequests()
	e := testutil.FakeEnv(t, fake.URL(), append([]string{"GITHUB_TOKEN=" + token, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR=" + dir}, extra...)...)
	res := testutil.Run(t, e, "", "exec", "-o", "csv", entriesQuery)
	checkNoToken(t, res)
	if res.Code != 0 || res.Stdout != "c,p\n250,166\n" {
		t.Fatalf("exit %d, answer %q; want 250,166\n%s", res.Code, res.Stdout, res.Stderr)
	}
	return fake.Requests()
}

// unconditional counts the requests sent without If-None-Match (fetched
// whole) and those revalidated (304).
func unconditional(reqs []fakegithub.Request) (whole, revalidated int) {
	for _, q := range reqs {
		switch {
		case q.IfNoneMatch == "" && q.Status == http.StatusOK:
			whole++
		case q.IfNoneMatch != "" && q.Status == http.StatusNotModified:
			revalidated++
		}
	}
	return whole, revalidated
}

// flipPrivate changes one repository's "private" value in an entry: a
// damage that still parses, and changes sum(private).
func flipPrivate(b []byte) []byte {
	return bytes.Replace(b, []byte(`"private":true`), []byte(`"private":false`), 1)
}

// TestDamagedDiskEntriesRefetched: a cache entry truncated and another
// altered outside the engine are each dropped and fetched again without
// If-None-Match (a 304 would "confirm" the damaged body), and the answer
// is right; the untouched entry is revalidated.
func TestDamagedDiskEntriesRefetched(t *testing.T) {
	fake := fakegithub.ForTest(t)
	dir := t.TempDir()
	if whole, _ := unconditional(entriesRun(t, fake, dir)); whole != 3 {
		t.Fatalf("first run: %d pages fetched; want 3", whole)
	}
	var files []string
	filepath.WalkDir(filepath.Join(dir, "engine-http-v1"), func(p string, d fs.DirEntry, err error) error { //nolint:errcheck
		if err == nil && d.Type().IsRegular() && len(d.Name()) == 64 {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 3 {
		t.Fatalf("%d cache entries; want 3 (one per page)", len(files))
	}
	data, _ := os.ReadFile(files[0])
	must(t, os.WriteFile(files[0], data[:len(data)/2], 0o600))
	data, _ = os.ReadFile(files[1])
	must(t, os.WriteFile(files[1], flipPrivate(data), 0o600))
	whole, revalidated := unconditional(entriesRun(t, fake, dir))
	if whole != 2 || revalidated != 1 {
		t.Fatalf("after damaging 2 of 3 entries: %d fetched whole, %d revalidated; want 2 and 1", whole, revalidated)
	}
	// The damaged entries were replaced: a third run revalidates all.
	if whole, revalidated := unconditional(entriesRun(t, fake, dir)); whole != 0 || revalidated != 3 {
		t.Fatalf("third run: %d fetched whole, %d revalidated; want 0 and 3", whole, revalidated)
	}
}

// TestSharedEntriesProveThemselves: an entry in Redis altered, and an
// entry placed under another key (another writer of the database), are
// misses, fetched again without If-None-Match; an entry written with
// another deployment secret is not accepted either.
func TestSharedEntriesProveThemselves(t *testing.T) {
	r := testutil.StartRedis(t)
	fake := fakegithub.ForTest(t)
	state := "ENGINE_STATE=" + r.URL()
	if whole, _ := unconditional(entriesRun(t, fake, t.TempDir(), state)); whole != 3 {
		t.Fatalf("first run: %d pages fetched; want 3", whole)
	}
	keys, err := r.Keys("engine:v1:cache:v:*")
	if err != nil || len(keys) != 3 {
		t.Fatalf("shared entries: %v, %v; want 3", keys, err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr})
	defer rdb.Close()
	ctx := context.Background()
	v0, err := rdb.Get(ctx, keys[0]).Bytes()
	must(t, err)
	v1, err := rdb.Get(ctx, keys[1]).Bytes()
	must(t, err)
	must(t, rdb.Set(ctx, keys[0], flipPrivate(v0), redis.KeepTTL).Err())
	must(t, rdb.Set(ctx, keys[1], v0, redis.KeepTTL).Err()) // page 0's entry under page 1's key
	_ = v1
	whole, revalidated := unconditional(entriesRun(t, fake, t.TempDir(), state))
	if whole != 2 || revalidated != 1 {
		t.Fatalf("after altering one shared entry and moving another: %d fetched whole, %d revalidated; want 2 and 1", whole, revalidated)
	}
	// Written with one deployment secret, read with another: no entry
	// is accepted.
	entriesRun(t, fake, t.TempDir(), state, "ENGINE_STATE_SECRET=one-secret")
	if whole, _ := unconditional(entriesRun(t, fake, t.TempDir(), state, "ENGINE_STATE_SECRET=another-secret")); whole != 3 {
		t.Fatalf("entries written with another secret: %d of 3 fetched whole; want all", whole)
	}
	if whole, revalidated := unconditional(entriesRun(t, fake, t.TempDir(), state, "ENGINE_STATE_SECRET=another-secret")); whole != 0 || revalidated != 3 {
		t.Fatalf("entries written with the same secret: %d fetched whole, %d revalidated; want 0 and 3", whole, revalidated)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
