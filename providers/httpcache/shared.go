package httpcache

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/enginehq/engine/providers"
)

// Shared is a store of entries that several processes share (--state;
// state/redisstate implements it): entries by the same keys as on disk,
// bounded in bytes by the store. With one set, Get asks it first and then
// the directory, Put, Touch and Delete write both. A call that fails
// (each is bounded by SharedTimeout) leaves that request to the directory
// alone; the cache says so once (Warnf), and once when it answers again
// (docs/orgscale.md, "When Redis is down").
type Shared interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Put(ctx context.Context, key string, data []byte) error
	Delete(ctx context.Context, key string) error
}

// SharedTimeout bounds each call to the shared store (a large entry gets
// 1 ms more per 50 kB).
const SharedTimeout = providers.SharedStateTimeout

type sharedStore struct {
	s      Shared
	warnf  func(string, ...any)
	mu     sync.Mutex
	down   bool
	failAt time.Time
}

// SetShared makes the cache share its entries through s; warnf (may be
// nil) says when s fails and when it is back.
func (c *Cache) SetShared(s Shared, warnf func(format string, args ...any)) {
	c.shared = &sharedStore{s: s, warnf: warnf}
}

// result records the outcome of a call that started at start: a failure
// is said once, and so is a success of a call started after it.
func (ss *sharedStore) result(start time.Time, err error) {
	ss.mu.Lock()
	var say string
	switch {
	case err != nil && !ss.down:
		say = fmt.Sprintf("shared response cache unavailable (%v): this process goes on with its own cache directory until it answers again", err)
	case err == nil && ss.down && start.After(ss.failAt):
		say = "shared response cache reachable again"
	}
	if err != nil {
		ss.down, ss.failAt = true, time.Now()
	} else if say != "" {
		ss.down = false
	}
	ss.mu.Unlock()
	if say != "" && ss.warnf != nil {
		ss.warnf("%s", say)
	}
}

func sharedCtx(n int) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), SharedTimeout+time.Duration(n/50_000)*time.Millisecond)
}

// sharedMeta is the first line of a shared entry: the file's, with the
// time it was stored (a file keeps it as its modification time).
type sharedMeta struct {
	meta
	Stored int64 `json:"stored"`
}

func encodeShared(e *Entry, stored time.Time) ([]byte, error) {
	head, err := json.Marshal(sharedMeta{meta: meta{Header: e.Header, Vary: e.Vary}, Stored: stored.UnixNano()})
	if err != nil {
		return nil, err
	}
	return append(append(head, '\n'), e.Body...), nil
}

func decodeShared(data []byte) (*Entry, bool) {
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return nil, false
	}
	var m sharedMeta
	if err := json.Unmarshal(data[:nl], &m); err != nil || m.Header == nil {
		return nil, false
	}
	return &Entry{Header: m.Header, Vary: m.Vary, Body: data[nl+1:], Stored: time.Unix(0, m.Stored)}, true
}

func (c *Cache) sharedGet(key string) (*Entry, bool) {
	start := time.Now()
	ctx, cancel := sharedCtx(0)
	defer cancel()
	data, ok, err := c.shared.s.Get(ctx, key)
	c.shared.result(start, err)
	if err != nil || !ok {
		return nil, false
	}
	return decodeShared(data)
}

func (c *Cache) sharedPut(key string, e *Entry, stored time.Time) {
	data, err := encodeShared(e, stored)
	if err != nil {
		return
	}
	start := time.Now()
	ctx, cancel := sharedCtx(len(data))
	defer cancel()
	c.shared.result(start, c.shared.s.Put(ctx, key, data))
}

func (c *Cache) sharedDelete(key string) {
	start := time.Now()
	ctx, cancel := sharedCtx(0)
	defer cancel()
	c.shared.result(start, c.shared.s.Delete(ctx, key))
}
