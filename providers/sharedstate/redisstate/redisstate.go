// Package redisstate keeps the state that several engine processes share
// (--state redis://HOST:PORT/DB) in Redis: the rate-limit governor's
// windows, slots, pauses and buckets per credential (client.SharedState),
// the response cache's entries (httpcache.Shared) and the MCP server's
// kept results (mcpsurface.SharedResults). Each domain package defines the
// interface it needs; this package only implements them, so the embedded
// default (one process, no server) never links a Redis client into the
// data path. docs/orgscale.md is the guide.
//
// Keys live under "engine:v1:"; a credential is a hash of its origin and
// identity (never a token), a cache entry the cache's own key (a hash),
// a result its random id. Whatever must be atomic (a window, a slot, a
// bounded store) is a Lua script run by the server.
//
// Every call is bounded (OpTimeout: providers.SharedStateTimeout, 1 s). After a failure the
// state is considered down for Backoff (2 s): calls fail at once with
// client.ErrSharedDown instead of waiting again, and each caller goes on
// with its local state (the rule is in docs/orgscale.md, "When Redis is
// down").
package redisstate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/providers/sharedstate"
)

// Defaults.
const (
	OpTimeout = client.SharedOpTimeout
	Backoff   = 2 * time.Second
	prefix    = "engine:v1:"
)

// State is a connection to the shared state.
type State struct {
	rdb  *redis.Client
	name string // the URL without a password
	raw  string // the URL as given (only to redact its password from errors)

	mu        sync.Mutex
	downUntil time.Time
}

// Open parses a redis:// or rediss:// URL (redis://[:PASSWORD@]HOST:PORT/DB)
// and connects lazily: an unreachable server is not an error here, only
// on use.
func Open(rawURL string) (*State, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, fmt.Errorf("--state %q: expected redis://HOST:PORT/DB (or rediss:// for TLS), e.g. redis://127.0.0.1:6379/0", Redact(rawURL))
	}
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("--state %s: %s", Redact(rawURL), redactErr(err.Error(), rawURL))
	}
	// Each call's context bounds it (sharedstate.Bound, which adapts);
	// these only keep a call without one from hanging.
	mb := sharedstate.MaxBound()
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout, opts.PoolTimeout = mb, mb, mb, mb
	opts.MaxRetries = -1 // a failed call falls back at once; the caller retries its own way
	opts.ContextTimeoutEnabled = true
	opts.DisableIdentity = true
	// The surfaces say once, in their words, that the state is unreachable
	// (see Open's callers); the client library's own log lines (a dial
	// that failed, with its address and time) would only repeat it raw.
	redis.SetLogger(quietLog{})
	return &State{rdb: redis.NewClient(opts), name: Redact(rawURL), raw: rawURL}, nil
}

// quietLog drops go-redis's log lines.
type quietLog struct{}

func (quietLog) Printf(context.Context, string, ...any) {}

// Redact returns the URL without its password.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	return u.String()
}

func redactErr(msg, raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "xxxxx")
		}
	}
	return msg
}

// Name is the state's URL without a password.
func (s *State) Name() string { return s.name }

// Close closes the connections.
func (s *State) Close() error { return s.rdb.Close() }

// Ping checks that the server answers.
func (s *State) Ping(ctx context.Context) error {
	return s.do(ctx, func(ctx context.Context) error { return s.rdb.Ping(ctx).Err() })
}

// CheckConfig asks the server once whether it takes the URL's settings,
// and returns an error only when its answer says the URL is wrong (a
// database number past the server's "databases", 16 by default): that is
// a mistake of the configuration, not an outage, and no retry mends it.
// A server that does not answer is not an error here: the surfaces go on
// alone and say so, as for any outage.
func (s *State) CheckConfig(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, sharedstate.Bound())
	defer cancel()
	err := s.rdb.Ping(ctx).Err()
	var re redis.Error
	if err != nil && errors.As(err, &re) && strings.Contains(err.Error(), "DB index is out of range") {
		return fmt.Errorf("--state %s: the server has no database %d (%s); use a database number the server has (0 to 15 unless its \"databases\" setting says more)", s.name, s.rdb.Options().DB, s.errText(err))
	}
	return nil
}

// do runs one call bounded by sharedstate.Bound, or fails at once while
// the state is down.
func (s *State) do(ctx context.Context, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, sharedstate.Bound())
	defer cancel()
	return s.doBounded(ctx, f)
}

// doBounded runs one call bounded by ctx.
func (s *State) doBounded(ctx context.Context, f func(ctx context.Context) error) error {
	s.mu.Lock()
	down := time.Now().Before(s.downUntil)
	s.mu.Unlock()
	if down {
		return client.ErrSharedDown
	}
	start := time.Now()
	err := f(ctx)
	if err == nil || errors.Is(err, redis.Nil) {
		sharedstate.Observe(time.Since(start))
		return err
	}
	if errors.Is(err, context.Canceled) && ctx.Err() == context.Canceled {
		return err // the caller gave up: not the server's fault
	}
	s.mu.Lock()
	s.downUntil = time.Now().Add(Backoff)
	s.mu.Unlock()
	return fmt.Errorf("redis: %s", s.errText(err))
}

// maxErrText bounds the server's text in an error, as a provider's
// message is bounded: a hostile or broken server's 200 kB answer is not
// printed.
const maxErrText = 300

// errText is err's text on one line, without the URL's password, cut to
// maxErrText.
func (s *State) errText(err error) string {
	return providers.OneLine(redactErr(err.Error(), s.raw), maxErrText)
}
