package redisstate

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/enginehq/engine/providers/sharedstate"
)

// Blobs is a bounded namespace of values (the response cache's entries,
// the MCP server's kept results): each value expires after its TTL, and
// the namespace holds at most MaxBytes of values: a write that passes the
// bound evicts the least recently written or read first (an index sorted
// by last use, kept by the same script that writes). So the bound holds
// whatever Redis's own maxmemory policy is (docs/orgscale.md).
//
//	engine:v1:NS:v:ID   the value, PX its TTL
//	engine:v1:NS:idx    sorted set: ID -> last use (ms)
//	engine:v1:NS:size   hash: ID -> bytes, and "#total"
type Blobs struct {
	s        *State
	ns       string
	maxBytes int64
	ttl      time.Duration
}

// The default bounds of the shared namespaces. A bound stored in the
// namespace (SetBound) wins: one setting for every writer, whatever each
// process's own bounds.
const (
	DefaultCacheMaxBytes   = 1 << 30
	DefaultResultsMaxBytes = 256 << 20
)

// SetBound stores n as the namespace's bound for every writer.
func (b *Blobs) SetBound(ctx context.Context, n int64) error {
	return b.s.do(ctx, func(ctx context.Context) error {
		return b.s.rdb.Set(ctx, b.key("max"), n, 0).Err()
	})
}

// Blobs returns the namespace ns bounded by maxBytes (unless a bound is
// stored in it, SetBound), each value kept ttl.
func (s *State) Blobs(ns string, maxBytes int64, ttl time.Duration) *Blobs {
	return &Blobs{s: s, ns: ns, maxBytes: maxBytes, ttl: ttl}
}

func (b *Blobs) key(rest string) string { return prefix + b.ns + ":" + rest }

// Last use is in microseconds of the server's clock (TIME), so that uses
// within one millisecond keep their order.
var putScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local id, data, ttl, maxb, vprefix = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local stored = tonumber(redis.call('GET', KEYS[4]) or '')
if stored and stored > 0 then maxb = stored end
if #data > maxb then return -1 end
local function drop(m)
  local sz = tonumber(redis.call('HGET', KEYS[3], m) or '0')
  redis.call('HDEL', KEYS[3], m)
  redis.call('ZREM', KEYS[2], m)
  redis.call('DEL', vprefix .. m)
  if sz > 0 then redis.call('HINCRBY', KEYS[3], '#total', 0 - sz) end
end
-- values past their TTL left the store: forget their sizes
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl * 1000)
for _, m in ipairs(gone) do drop(m) end
drop(id)
redis.call('SET', KEYS[1], data, 'PX', ttl)
redis.call('ZADD', KEYS[2], now, id)
redis.call('HSET', KEYS[3], id, #data)
local total = redis.call('HINCRBY', KEYS[3], '#total', #data)
while total > maxb do
  local old = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #old == 0 or old[1] == id then break end
  drop(old[1])
  total = tonumber(redis.call('HGET', KEYS[3], '#total'))
end
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
return total
`)

// Put stores data under id (a value over MaxBytes is not stored).
func (b *Blobs) Put(ctx context.Context, id string, data []byte) error {
	ctx, cancel := sharedstate.Context(ctx, int64(len(data))) // OpTimeout, and 1 ms more per 50 kB
	defer cancel()
	return b.s.doBounded(ctx, func(ctx context.Context) error {
		return putScript.Run(ctx, b.s.rdb, []string{b.key("v:" + id), b.key("idx"), b.key("size"), b.key("max")},
			id, data, max(b.ttl.Milliseconds(), 1), b.maxBytes, b.key("v:")).Err()
	})
}

var getScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if not v then return false end
local t = redis.call('TIME')
redis.call('ZADD', KEYS[2], 'XX', tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[1])
return v
`)

// Get returns the value of id and marks it used; ok is false when there is
// none.
func (b *Blobs) Get(ctx context.Context, id string) (data []byte, ok bool, err error) {
	err = b.s.do(ctx, func(ctx context.Context) error {
		v, err := getScript.Run(ctx, b.s.rdb, []string{b.key("v:" + id), b.key("idx")}, id).Text()
		data = []byte(v)
		return err
	})
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// Delete removes id.
func (b *Blobs) Delete(ctx context.Context, id string) error {
	return b.s.do(ctx, func(ctx context.Context) error {
		return b.s.rdb.Del(ctx, b.key("v:"+id)).Err()
	})
}
