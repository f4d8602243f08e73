package httpcache

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/sharedstate"
)

// Shared is a store of entries that several processes share (--state;
// providers/sharedstate/redisstate implements it): entries by the same keys as on disk,
// bounded in bytes by the store. With one set, Get asks it first and then
// the directory, Put, Touch and Delete write both. A call that fails
// (each is bounded by SharedTimeout) leaves that request to the directory
// alone; the cache says so once (Warnf), and once when it answers again
// (docs/orgscale.md, "When Redis is down").
type Shared interface {
	sharedstate.Blobs
	Delete(ctx context.Context, key string) error
}

// SharedTimeout bounds each call to the shared store (a large entry gets
// 1 ms more per 50 kB).
const SharedTimeout = providers.SharedStateTimeout

// SetShared makes the cache share its entries through s; warnf (may be
// nil) says when s fails and when it is back.
func (c *Cache) SetShared(s Shared, warnf func(format string, args ...any)) {
	c.shared = s
	c.sharedHealth = &sharedstate.Health{
		Name:  "shared response cache",
		Alone: "this process goes on with its own cache directory until it answers again",
		Warnf: warnf,
	}
}

// sharedMeta is the first line of a shared entry: the file's, with the
// time it was stored (a file keeps it as its modification time).
type sharedMeta struct {
	meta
	Stored int64 `json:"stored"`
}

func (c *Cache) encodeShared(key string, e *Entry, stored time.Time) ([]byte, error) {
	head, err := json.Marshal(sharedMeta{meta: meta{Header: e.Header, Vary: e.Vary, Sum: c.sum(key, e)}, Stored: stored.UnixNano()})
	if err != nil {
		return nil, err
	}
	return append(append(head, '\n'), e.Body...), nil
}

// decodeEntry reads the entry of key, a file's or a shared one: its
// first line, then its body; ok is false unless its sum proves it the
// entry written under key. Stored is the shared entry's (a file's has
// none: its modification time is).
func (c *Cache) decodeEntry(key string, data []byte) (*Entry, bool) {
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return nil, false
	}
	var m sharedMeta
	if err := json.Unmarshal(data[:nl], &m); err != nil || m.Header == nil {
		return nil, false
	}
	e := &Entry{Header: m.Header, Vary: m.Vary, Body: data[nl+1:], Stored: time.Unix(0, m.Stored)}
	if !c.proves(key, e, m.Sum) {
		return nil, false
	}
	return e, true
}

func (c *Cache) sharedGet(key string) (*Entry, bool) {
	var data []byte
	var ok bool
	err := c.sharedHealth.Do(context.Background(), 0, func(ctx context.Context) (err error) {
		data, ok, err = c.shared.Get(ctx, key)
		return err
	})
	if err != nil || !ok {
		return nil, false
	}
	e, ok := c.decodeEntry(key, data)
	if !ok {
		c.dropped.Add(1)
		c.sharedDelete(key)
	}
	return e, ok
}

func (c *Cache) sharedPut(key string, e *Entry, stored time.Time) {
	data, err := c.encodeShared(key, e, stored)
	if err != nil {
		return
	}
	c.sharedHealth.Do(context.Background(), int64(len(data)), func(ctx context.Context) error { //nolint:errcheck // said by sharedHealth
		return c.shared.Put(ctx, key, data)
	})
}

func (c *Cache) sharedDelete(key string) {
	c.sharedHealth.Do(context.Background(), 0, func(ctx context.Context) error { //nolint:errcheck // said by sharedHealth
		return c.shared.Delete(ctx, key)
	})
}
