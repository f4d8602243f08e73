package sharedstate

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestHealthSaysOnceEachWay: the first failure is said, with what the
// process does meanwhile; more failures are not; a success of a call
// started before the last failure is not "back"; the first one started
// after it is, once.
func TestHealthSaysOnceEachWay(t *testing.T) {
	var said []string
	h := &Health{Name: "shared thing", Alone: "going on alone", Back: "together again", Warnf: func(f string, a ...any) { said = append(said, fmt.Sprintf(f, a...)) }}
	early := time.Now()
	h.Result(early, errors.New("refused"))
	h.Result(time.Now(), errors.New("refused again"))
	h.Result(early, nil)
	if len(said) != 1 || said[0] != "shared thing unavailable (refused): going on alone" {
		t.Fatalf("said %q; want the first failure only", said)
	}
	time.Sleep(time.Millisecond)
	if err := h.Do(context.Background(), 0, func(ctx context.Context) error {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("a call without a deadline")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.Result(time.Now(), nil)
	if len(said) != 2 || said[1] != "shared thing reachable again: together again" {
		t.Fatalf("said %q; want one back", said)
	}
	(&Health{Name: "quiet"}).Result(time.Now(), errors.New("no Warnf: nothing said, no panic"))
}

func TestContextGrowsWithBytes(t *testing.T) {
	small, cancel := Context(context.Background(), 0)
	defer cancel()
	large, cancel2 := Context(context.Background(), 5_000_000)
	defer cancel2()
	ds, _ := small.Deadline()
	dl, _ := large.Deadline()
	if d := dl.Sub(ds); d < 90*time.Millisecond {
		t.Fatalf("5 MB get %v more than nothing; want 100 ms (1 ms per 50 kB)", d)
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{"0123456789abcdef01": true, "0123456789ABCDEF01": false, "0123456789abcdef0": false, "0123456789abcdef0g": false, "": false} {
		if got := ValidID(id, 18); got != want {
			t.Errorf("ValidID(%q, 18) = %v", id, got)
		}
	}
}
