package httpcache

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

type mapShared struct {
	mu   sync.Mutex
	m    map[string][]byte
	fail bool
}

func (s *mapShared) Get(_ context.Context, k string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return nil, false, errors.New("down")
	}
	v, ok := s.m[k]
	return v, ok, nil
}

func (s *mapShared) Put(_ context.Context, k string, v []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return errors.New("down")
	}
	s.m[k] = v
	return nil
}

func (s *mapShared) Delete(_ context.Context, k string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return errors.New("down")
	}
	delete(s.m, k)
	return nil
}

// TestSharedEntries: an entry one cache stores is read by another (another
// directory) through the shared store; a failing store is said once and
// the directory goes on.
func TestSharedEntries(t *testing.T) {
	sh := &mapShared{m: map[string][]byte{}}
	var warned []string
	warnf := func(f string, a ...any) { warned = append(warned, fmt.Sprintf(f, a...)) }
	c1, err := Open(t.TempDir(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := Open(t.TempDir(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c1.SetShared(sh, warnf)
	c2.SetShared(sh, warnf)
	key := Key("GET", "https://api.example/x")
	if err := c1.Put(key, &Entry{Header: http.Header{"Etag": {`"1"`}}, Body: []byte("body"), Vary: "v"}); err != nil {
		t.Fatal(err)
	}
	e, ok := c2.Get(key)
	if !ok || string(e.Body) != "body" || e.Header.Get("Etag") != `"1"` || e.Vary != "v" || e.Stored.IsZero() {
		t.Fatalf("the other cache: %+v, %v", e, ok)
	}
	sh.fail = true
	for i := 0; i < 3; i++ {
		c2.Get(key)
	}
	if err := c1.Put(key, &Entry{Header: http.Header{}, Body: []byte("b2")}); err != nil {
		t.Fatal(err)
	}
	if e, ok := c1.Get(key); !ok || string(e.Body) != "b2" {
		t.Fatalf("the directory while the shared store is down: %+v, %v", e, ok)
	}
	sh.fail = false
	c1.Get(key)
	if len(warned) != 3 || !strings.Contains(warned[0], "unavailable") || !strings.Contains(warned[2], "again") {
		t.Fatalf("warnings %q; want one per cache going down, then one coming back", warned)
	}
}
