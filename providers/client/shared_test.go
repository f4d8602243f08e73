package client_test

import (
	"context"
	"net/http"
	"time"

	"testing"

	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/providers/client/sharedtest"
)

func TestLocalStateContract(t *testing.T) {
	sharedtest.Run(t, func(*testing.T) client.SharedState { return client.NewLocalState() })
}

// TestGovernorsShareState: two governors (two processes) on one
// SharedState share its window, its slots and a pause.
func TestGovernorsShareState(t *testing.T) {
	st := client.NewLocalState()
	opts := client.GovernorOptions{Rate: client.Rate{N: 4, Window: time.Minute}, MaxConcurrency: 3, StartConcurrency: 3, Shared: st}
	g1, g2 := client.NewGovernor(opts), client.NewGovernor(opts)
	ctx := context.Background()
	sent := client.AcquireN(t, g1, "core", 3)
	short := func() error {
		c, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
		defer cancel()
		_, err := g2.Acquire(c, "core")
		return err
	}
	if err := short(); err == nil {
		t.Fatal("a 4th request in flight on the other governor was admitted; want it held by the shared slots (3)")
	}
	g1.Done("core", sent[0], 200, http.Header{}, nil)
	if err := short(); err != nil {
		t.Fatalf("after an answer: %v", err)
	}
	// The window holds 4 (3 of g1, 1 of g2): a 5th waits a minute.
	g1.Done("core", sent[1], 200, http.Header{}, nil)
	if err := short(); err == nil {
		t.Fatal("a 5th request in a shared window of 4 was admitted")
	}
	// A secondary limit on g1 pauses g2.
	st2 := client.NewLocalState()
	opts.Shared, opts.Rate = st2, client.Rate{N: 100, Window: time.Minute}
	g3, g4 := client.NewGovernor(opts), client.NewGovernor(opts)
	at, err := g3.Acquire(ctx, "core")
	if err != nil {
		t.Fatal(err)
	}
	g3.Done("core", at, 429, http.Header{"Retry-After": {"30"}}, nil)
	c, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	defer cancel()
	if _, err := g4.Acquire(c, "core"); err == nil {
		t.Fatal("the other governor sent during a secondary-limit pause")
	}
	if until := g4.PausedUntil(); time.Until(until) < 20*time.Second {
		t.Fatalf("the other governor's pause ends %v; want about 30s from now", until)
	}
}
