package testutil

import (
	"context"
	"errors"
	"sync"
)

// MapBlobs is a shared blob store in memory, as the stores that processes
// share through --state see one (httpcache.Shared, mcpsurface.SharedResults):
// entries by key, and a switch that makes every call fail as a server
// that is down does. It is safe for concurrent use.
type MapBlobs struct {
	mu   sync.Mutex
	m    map[string][]byte
	fail bool
}

// NewMapBlobs makes an empty MapBlobs that answers.
func NewMapBlobs() *MapBlobs { return &MapBlobs{m: map[string][]byte{}} }

// SetFail makes every call fail (true) or answer again (false).
func (s *MapBlobs) SetFail(fail bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = fail
}

// do runs f on the entries, or fails while the store is down.
func (s *MapBlobs) do(f func(m map[string][]byte)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return errors.New("down")
	}
	f(s.m)
	return nil
}

// Get returns the entry of key and whether there is one.
func (s *MapBlobs) Get(_ context.Context, key string) (v []byte, ok bool, err error) {
	err = s.do(func(m map[string][]byte) { v, ok = m[key] })
	return v, ok, err
}

// Put stores v as the entry of key.
func (s *MapBlobs) Put(_ context.Context, key string, v []byte) error {
	return s.do(func(m map[string][]byte) { m[key] = v })
}

// Delete removes the entry of key.
func (s *MapBlobs) Delete(_ context.Context, key string) error {
	return s.do(func(m map[string][]byte) { delete(m, key) })
}

// Sizes returns the size of each entry by key.
func (s *MapBlobs) Sizes() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.m {
		out[k] = len(v)
	}
	return out
}
