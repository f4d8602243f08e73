package redisstate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/providers/client/sharedtest"
	"github.com/enginehq/engine/providers/sharedstate/redisstate"
	"github.com/enginehq/engine/test/testutil"
)

func open(t *testing.T, r *testutil.Redis) *redisstate.State {
	t.Helper()
	s, err := redisstate.Open(r.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestGovernorContract runs the SharedState contract (the same suite as
// client.LocalState's) against a real redis-server.
func TestGovernorContract(t *testing.T) {
	r := testutil.StartRedis(t)
	n := 0
	sharedtest.Run(t, func(t *testing.T) client.SharedState {
		n++
		if _, err := r.Do("FLUSHALL"); err != nil {
			t.Fatal(err)
		}
		return open(t, r)
	})
}

func TestOpenRefusesOtherURLs(t *testing.T) {
	for _, u := range []string{"", "localhost:6379", "http://h:1/0", "redis://"} {
		if _, err := redisstate.Open(u); err == nil || !strings.Contains(err.Error(), "redis://HOST:PORT/DB") {
			t.Errorf("Open(%q): %v; want an error showing the form", u, err)
		}
	}
	_, err := redisstate.Open("redis://:s3cret@127.0.0.1:1/notanumber")
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("bad database: %v; want an error without the password", err)
	}
}

// TestDownFailsFast: a state whose server is gone fails within the bound,
// then at once while it is considered down.
func TestDownFailsFast(t *testing.T) {
	r := testutil.StartRedis(t)
	s := open(t, r)
	ctx := context.Background()
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	r.Kill()
	start := time.Now()
	err := s.Pause(ctx, client.SharedKey("x"), time.Second)
	if err == nil || time.Since(start) > 2*time.Second {
		t.Fatalf("a call to a killed server: %v after %s", err, time.Since(start))
	}
	if err := s.Pause(ctx, client.SharedKey("x"), time.Second); err != client.ErrSharedDown {
		t.Fatalf("the next call: %v; want ErrSharedDown at once", err)
	}
}
