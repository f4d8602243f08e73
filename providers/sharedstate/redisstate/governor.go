package redisstate

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/enginehq/engine/providers/client"
)

// The governor's keys, per credential K (a hash): {K} is a hash tag, so a
// credential's keys stay on one node of a cluster.
//
//	engine:v1:gov:{K}:pause         the end of a pause (ms, server clock), PX until then
//	engine:v1:gov:{K}:slots         sorted set: admitted request id -> expiry (ms)
//	engine:v1:gov:{K}:b:NAME        hash: limit, remaining, used, reset (ms), seen (ms)
//	engine:v1:gov:{K}:w:NAME:fly    sorted set: request in flight id -> expiry (ms)
//	engine:v1:gov:{K}:w:NAME:ends   sorted set: answered request id -> answer time (ms)
//
// Times are the server's (TIME), so the processes' clocks need not agree,
// except for a bucket's reset, which the provider gives as a date.

func govKey(k, rest string) string { return prefix + "gov:{" + k + "}:" + rest }

var admitScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local p = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if p > now then return {0, math.min(p - now, tonumber(ARGV[#ARGV])), 'paused'} end
local b = redis.call('HMGET', KEYS[3], 'remaining', 'reset')
if b[1] and b[2] and tonumber(b[1]) <= 0 and tonumber(b[2]) > now then
  return {0, tonumber(b[2]) - now, 'spent'}
end
local id, maxf, ttl, nw = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if maxf > 0 and redis.call('ZCARD', KEYS[2]) >= maxf then return {0, 0, 'slots'} end
local wait = -1
for i = 0, nw - 1 do
  local fly, ends = KEYS[4 + 2 * i], KEYS[5 + 2 * i]
  local n, len = tonumber(ARGV[5 + 2 * i]), tonumber(ARGV[6 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', fly, '-inf', now)
  redis.call('ZREMRANGEBYSCORE', ends, '-inf', now - len)
  local nf, ne = redis.call('ZCARD', fly), redis.call('ZCARD', ends)
  if nf + ne >= n then
    local w = 0
    local over = nf + ne - n
    if over < ne then
      local e = redis.call('ZRANGE', ends, over, over, 'WITHSCORES')
      w = tonumber(e[2]) + len - now
    end
    if w > wait then wait = w end
  end
end
if wait >= 0 then return {0, wait, 'window'} end
local stmt = ARGV[#ARGV - 1]
if stmt ~= '' and KEYS[#KEYS] ~= '' then
  local left = tonumber(redis.call('HGET', KEYS[#KEYS], stmt) or '0') or 0
  if left > 0 then redis.call('HINCRBY', KEYS[#KEYS], stmt, -1) end
end
redis.call('ZADD', KEYS[2], now + ttl, id)
redis.call('PEXPIRE', KEYS[2], ttl)
for i = 0, nw - 1 do
  redis.call('ZADD', KEYS[4 + 2 * i], now + ttl, id)
  redis.call('PEXPIRE', KEYS[4 + 2 * i], ttl)
end
return {1, 0, 'ok'}
`)

var releaseScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id, nw = ARGV[1], tonumber(ARGV[2])
redis.call('ZREM', KEYS[1], id)
for i = 0, nw - 1 do
  local fly, ends = KEYS[2 + 2 * i], KEYS[3 + 2 * i]
  local len = tonumber(ARGV[3 + i])
  if redis.call('ZREM', fly, id) == 1 then
    redis.call('ZADD', ends, now, id)
    redis.call('PEXPIRE', ends, len)
  end
end
return 1
`)

var pauseScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local d = math.min(tonumber(ARGV[1]), tonumber(ARGV[2]))
local p = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if p > now + tonumber(ARGV[2]) then p = 0 end
if now + d > p then redis.call('SET', KEYS[1], now + d, 'PX', d) end
return 1
`)

var pausedScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local p = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if p <= now then return 0 end
return math.min(p - now, tonumber(ARGV[1]))
`)

// renewScript extends the leases of the ids ARGV[2..] in every key (the
// slots and the windows' sets in flight) that still holds them.
var renewScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for _, k in ipairs(KEYS) do
  local n = 0
  for i = 2, #ARGV do n = n + redis.call('ZADD', k, 'XX', 'CH', now + ttl, ARGV[i]) end
  if n > 0 and redis.call('PTTL', k) < ttl then redis.call('PEXPIRE', k, ttl) end
end
return 1
`)

var bucketScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, rem, used, reset = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local old = redis.call('HMGET', KEYS[1], 'remaining', 'reset', 'used')
if old[1] and tonumber(old[2]) == reset and tonumber(old[1]) < rem then
  rem = tonumber(old[1])
  used = math.max(used, tonumber(old[3] or '0'))
end
redis.call('HSET', KEYS[1], 'limit', limit, 'remaining', rem, 'used', used, 'reset', reset, 'seen', now)
if reset > now then redis.call('PEXPIREAT', KEYS[1], reset + 1000) else redis.call('PEXPIRE', KEYS[1], 3600000) end
return 1
`)

// The queue of statements (client.Reserve, admission.go):
//
//	engine:v1:gov:{K}:q    sorted set: statement id -> its first reservation (ms)
//	engine:v1:gov:{K}:qn   hash: statement id -> requests reserved and not yet admitted
//	engine:v1:gov:{K}:ql   sorted set: statement id -> its lease's expiry (ms)
//	engine:v1:gov:{K}:qd   hash: statement id -> the time its requests must be sent by (ms)
//
// Admitted statements share the window as they go, so a reservation is
// granted only when every statement's requests (all reserved, its own
// added) can be sent before the earliest of their deadlines: a new
// statement never pushes an admitted one past its time limit.
var reserveScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local stmt, n, wn, len, left, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
for _, s in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
  redis.call('ZREM', KEYS[1], s)
  redis.call('HDEL', KEYS[2], s)
  redis.call('ZREM', KEYS[3], s)
  redis.call('HDEL', KEYS[4], s)
end
local own = tonumber(redis.call('HGET', KEYS[2], stmt) or '0') or 0
local ahead = 0
local minleft = -1
if left > 0 then minleft = left end
for _, s in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if s ~= stmt then
    ahead = ahead + (tonumber(redis.call('HGET', KEYS[2], s) or '0') or 0)
    local d = tonumber(redis.call('HGET', KEYS[4], s) or '0') or 0
    if d > 0 and (minleft < 0 or d - now < minleft) then minleft = math.max(d - now, 0) end
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now - len)
local ne = redis.call('ZCARD', KEYS[6])
local room = math.max(wn - redis.call('ZCARD', KEYS[5]) - ne, 0)
local function wait(x)
  if x <= 0 then return 0 end
  if x <= ne then
    local e = redis.call('ZRANGE', KEYS[6], x - 1, x - 1, 'WITHSCORES')
    return tonumber(e[2]) + len - now
  end
  return len * math.ceil(x / math.max(wn, 1))
end
local w = wait(ahead + own + n - room)
if minleft >= 0 and w > minleft then return {0, ahead, w, wait(ahead - room)} end
if not redis.call('ZSCORE', KEYS[1], stmt) then redis.call('ZADD', KEYS[1], now, stmt) end
redis.call('HINCRBY', KEYS[2], stmt, n)
redis.call('ZADD', KEYS[3], now + ttl, stmt)
if left > 0 and not redis.call('HGET', KEYS[4], stmt) then redis.call('HSET', KEYS[4], stmt, now + left) end
for i = 1, 4 do
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return {1, ahead, w, 0}
`)

var unreserveScript = redis.NewScript(`
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return 1
`)

var renewStmtScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[3], 'XX', now + ttl, ARGV[i]) end
for i = 1, 4 do
  if redis.call('EXISTS', KEYS[i]) == 1 and redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1
`)

func queueKeys(key string) []string {
	return []string{govKey(key, "q"), govKey(key, "qn"), govKey(key, "ql"), govKey(key, "qd")}
}

// Reserve implements client.SharedState.
func (s *State) Reserve(ctx context.Context, key string, r client.Reservation) (client.Reserved, error) {
	ttl := r.TTL
	if ttl <= 0 {
		ttl = client.DefaultSlotTTL
	}
	keys := append(queueKeys(key), govKey(key, "w:"+r.Window.Name+":fly"), govKey(key, "w:"+r.Window.Name+":ends"))
	var res []int64
	err := s.do(ctx, func(ctx context.Context) error {
		var err error
		res, err = reserveScript.Run(ctx, s.rdb, keys, r.Stmt, r.N, r.Window.N, r.Window.Length.Milliseconds(), r.Left.Milliseconds(), ttl.Milliseconds()).Int64Slice()
		return err
	})
	if err != nil {
		return client.Reserved{}, err
	}
	if len(res) != 4 {
		return client.Reserved{}, fmt.Errorf("redis %s: unexpected answer to the reservation script", s.name)
	}
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	return client.Reserved{OK: res[0] == 1, Ahead: int(res[1]), Wait: ms(res[2]), RetryAfter: ms(res[3])}, nil
}

// Unreserve implements client.SharedState.
func (s *State) Unreserve(ctx context.Context, key string, stmt string) error {
	return s.do(ctx, func(ctx context.Context) error {
		return unreserveScript.Run(ctx, s.rdb, queueKeys(key), stmt).Err()
	})
}

// RenewStatements implements client.SharedState.
func (s *State) RenewStatements(ctx context.Context, key string, stmts []string, ttl time.Duration) error {
	args := []any{max(ttl.Milliseconds(), 1)}
	for _, id := range stmts {
		args = append(args, id)
	}
	return s.do(ctx, func(ctx context.Context) error {
		return renewStmtScript.Run(ctx, s.rdb, queueKeys(key), args...).Err()
	})
}

func windowKeys(key string, a client.Admission) (keys []string, lens []any) {
	for _, w := range a.Windows {
		keys = append(keys, govKey(key, "w:"+w.Name+":fly"), govKey(key, "w:"+w.Name+":ends"))
		lens = append(lens, w.Length.Milliseconds())
	}
	return keys, lens
}

// Admit implements client.SharedState.
func (s *State) Admit(ctx context.Context, key string, a client.Admission) (client.Admit, error) {
	wkeys, _ := windowKeys(key, a)
	keys := append([]string{govKey(key, "pause"), govKey(key, "slots"), govKey(key, "b:"+a.Bucket)}, wkeys...)
	ttl := a.SlotTTL
	if ttl <= 0 {
		ttl = client.DefaultSlotTTL
	}
	args := []any{a.ID, a.MaxInFlight, ttl.Milliseconds(), len(a.Windows)}
	for _, w := range a.Windows {
		args = append(args, w.N, w.Length.Milliseconds())
	}
	args = append(args, a.Stmt, client.MaxSharedPause.Milliseconds())
	keys = append(keys, govKey(key, "qn"))
	var res []any
	err := s.do(ctx, func(ctx context.Context) error {
		var err error
		res, err = admitScript.Run(ctx, s.rdb, keys, args...).Slice()
		return err
	})
	if err != nil {
		return client.Admit{}, err
	}
	if len(res) != 3 {
		return client.Admit{}, fmt.Errorf("redis %s: unexpected answer to the admission script", s.name)
	}
	ok, _ := res[0].(int64)
	wait, _ := res[1].(int64)
	reason, _ := res[2].(string)
	if ok == 1 {
		return client.Admit{OK: true}, nil
	}
	return client.Admit{Wait: time.Duration(wait) * time.Millisecond, Reason: reason}, nil
}

// Release implements client.SharedState.
func (s *State) Release(ctx context.Context, key string, a client.Admission) error {
	wkeys, lens := windowKeys(key, a)
	keys := append([]string{govKey(key, "slots")}, wkeys...)
	args := append([]any{a.ID, len(a.Windows)}, lens...)
	return s.do(ctx, func(ctx context.Context) error {
		return releaseScript.Run(ctx, s.rdb, keys, args...).Err()
	})
}

// Pause implements client.SharedState.
func (s *State) Pause(ctx context.Context, key string, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	return s.do(ctx, func(ctx context.Context) error {
		return pauseScript.Run(ctx, s.rdb, []string{govKey(key, "pause")}, max(d.Milliseconds(), 1), client.MaxSharedPause.Milliseconds()).Err()
	})
}

// Paused implements client.SharedState.
func (s *State) Paused(ctx context.Context, key string) (time.Duration, error) {
	var ms int64
	err := s.do(ctx, func(ctx context.Context) error {
		var err error
		ms, err = pausedScript.Run(ctx, s.rdb, []string{govKey(key, "pause")}, client.MaxSharedPause.Milliseconds()).Int64()
		return err
	})
	return time.Duration(ms) * time.Millisecond, err
}

// Renew implements client.SharedState: one script per set of windows
// (admissions of one bucket share theirs).
func (s *State) Renew(ctx context.Context, key string, as []client.Admission) error {
	type group struct {
		keys []string
		ttl  time.Duration
		ids  []any
	}
	groups := map[string]*group{}
	var order []string
	for _, a := range as {
		wkeys, _ := windowKeys(key, a)
		var fly []string
		for i := 0; i < len(wkeys); i += 2 {
			fly = append(fly, wkeys[i])
		}
		ttl := a.SlotTTL
		if ttl <= 0 {
			ttl = client.DefaultSlotTTL
		}
		gk := fmt.Sprint(fly, ttl)
		g, ok := groups[gk]
		if !ok {
			g = &group{keys: append([]string{govKey(key, "slots")}, fly...), ttl: ttl}
			groups[gk] = g
			order = append(order, gk)
		}
		g.ids = append(g.ids, a.ID)
	}
	for _, gk := range order {
		g := groups[gk]
		err := s.do(ctx, func(ctx context.Context) error {
			return renewScript.Run(ctx, s.rdb, g.keys, append([]any{g.ttl.Milliseconds()}, g.ids...)...).Err()
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// RecordBucket implements client.SharedState.
func (s *State) RecordBucket(ctx context.Context, key string, b client.Bucket) error {
	var reset int64
	if !b.Reset.IsZero() {
		reset = b.Reset.UnixMilli()
	}
	return s.do(ctx, func(ctx context.Context) error {
		return bucketScript.Run(ctx, s.rdb, []string{govKey(key, "b:"+b.Name)}, b.Limit, b.Remaining, b.Used, reset).Err()
	})
}

// Bucket implements client.SharedState.
func (s *State) Bucket(ctx context.Context, key, name string) (client.Bucket, bool, error) {
	var m map[string]string
	err := s.do(ctx, func(ctx context.Context) error {
		var err error
		m, err = s.rdb.HGetAll(ctx, govKey(key, "b:"+name)).Result()
		return err
	})
	if err != nil || len(m) == 0 {
		return client.Bucket{}, false, err
	}
	num := func(k string) int64 { n, _ := strconv.ParseInt(m[k], 10, 64); return n }
	b := client.Bucket{Name: name, Limit: int(num("limit")), Remaining: int(num("remaining")), Used: int(num("used")), Seen: time.UnixMilli(num("seen"))}
	if r := num("reset"); r > 0 {
		b.Reset = time.UnixMilli(r)
		if !time.Now().Before(b.Reset) {
			return client.Bucket{}, false, nil
		}
	}
	return b, true, nil
}

var _ client.SharedState = (*State)(nil)
