package orgscale

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// slowProxy forwards to the Redis at addr and delays the k-th answer by
// delay(k): a server that gets busier, but answers everything.
func slowProxy(t *testing.T, addr string, delay func(k int64) time.Duration) string {
	var k atomic.Int64
	return serveRedisURL(t, func(c net.Conn) {
		s, err := net.Dial("tcp", addr)
		if err != nil {
			return
		}
		defer s.Close()
		go io.Copy(s, c) //nolint:errcheck
		buf := make([]byte, 64<<10)
		for {
			n, err := s.Read(buf)
			if err != nil {
				return
			}
			time.Sleep(delay(k.Add(1)))
			if _, err := c.Write(buf[:n]); err != nil {
				return
			}
		}
	})
}

// serveRedisURL serves every connection to a new loopback port with
// handle (which need not close it) until the test ends, and returns the
// port as a --state URL.
func serveRedisURL(t *testing.T, handle func(net.Conn)) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return fmt.Sprintf("redis://%s/0", l.Addr())
}

// TestBusyRedisKeepsProcessIn: a Redis whose answers slow down, up to
// 1.3 s (past the base bound of a call, 1 s), but never stop: the bound
// follows the server's answers, so the process never leaves the shared
// governor (no "unavailable" warning).
func TestBusyRedisKeepsProcessIn(t *testing.T) {
	t.Parallel() // its own Redis, fake and servers
	r := testutil.StartRedis(t)
	url := slowProxy(t, r.Addr, func(k int64) time.Duration { return min(time.Duration(k)*120*time.Millisecond, 1300*time.Millisecond) })
	fake := fakegithub.ForTest(t)
	res := testutil.Run(t, governed(t, fake, "ENGINE_STATE="+url, "ENGINE_MAX_CONCURRENCY=4"), "", "exec", "-o", "csv", reposIn(0, 6))
	checkNoToken(t, res)
	if res.Code != 0 || strings.Count(res.Stdout, "\n") != 7 {
		t.Fatalf("exit %d\n%s", res.Code, res.Stderr)
	}
	if strings.Contains(res.Stderr, "unavailable") {
		t.Fatalf("a busy but answering Redis pushed the process out of the shared state:\n%s", res.Stderr)
	}
	// A base bound set for a slower server (--state-timeout) is taken.
	url = slowProxy(t, r.Addr, func(int64) time.Duration { return 1200 * time.Millisecond })
	res = testutil.Run(t, governed(t, fake, "ENGINE_STATE="+url, "ENGINE_STATE_TIMEOUT=3s", "ENGINE_MAX_CONCURRENCY=4"), "", "exec", "-o", "csv", reposIn(0, 2))
	if res.Code != 0 || strings.Contains(res.Stderr, "unavailable") {
		t.Fatalf("--state-timeout 3s against answers of 1.2 s: exit %d\n%s", res.Code, res.Stderr)
	}
}

// TestSharedCacheBoundIsTheStore's: one runner with a small
// --cache-max-bytes does not evict another credential's shared entries:
// the shared bound is the store's, not each writer's.
func TestSharedCacheBoundIsTheStores(t *testing.T) {
	r := testutil.StartRedis(t)
	fake := fakegithub.ForTest(t)
	state := "ENGINE_STATE=" + r.URL()
	entriesRun(t, fake, t.TempDir(), state)
	before, err := r.Keys("engine:v1:cache:v:*")
	if err != nil || len(before) != 3 {
		t.Fatalf("after the first runner: %d shared entries, %v; want 3", len(before), err)
	}
	e := testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN=ghp_ANOTHERRUNNERTOKEN0123456789abcdef", "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+t.TempDir(), "ENGINE_CACHE_MAX_BYTES=200000", state)
	res := testutil.Run(t, e, "", "exec", "-o", "csv", "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
	if res.Code != 0 {
		t.Fatalf("second runner: exit %d\n%s", res.Code, res.Stderr)
	}
	after, err := r.Keys("engine:v1:cache:v:*")
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, k := range before {
		for _, a := range after {
			if a == k {
				kept++
			}
		}
	}
	if kept != 3 || len(after) != 4 {
		t.Fatalf("after a runner with --cache-max-bytes 200000: %d of the first runner's 3 entries kept, %d entries; want 3 kept and 4", kept, len(after))
	}
}
