package main

import (
	"context"
	"fmt"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/mcpsurface"
	"github.com/enginehq/engine/providers/sharedstate"
	"github.com/enginehq/engine/providers/sharedstate/redisstate"
)

// sharedCacheTTL is how long a response cache entry stays in the shared
// state without being written again (the byte bound usually evicts first).
const sharedCacheTTL = 24 * time.Hour

// openState connects to --state once per run (nil without one). The
// embedded default keeps every state in the process.
func (g *globalFlags) openState() (*redisstate.State, error) {
	if g.state == "" {
		return nil, nil
	}
	g.stateOnce.Do(func() {
		sharedstate.SetTimeout(g.stateTimeout)
		g.shared, g.stateErr = redisstate.Open(g.state)
		if g.stateErr == nil {
			if err := g.shared.CheckConfig(context.Background()); err != nil {
				g.shared.Close()
				g.shared, g.stateErr = nil, err
			}
		}
	})
	return g.shared, g.stateErr
}

// stateWarnf prints a warning of the shared state on stderr, naming the
// surface (each surface says it once, and once when it is back).
func (g *globalFlags) stateWarnf(surface string) func(string, ...any) {
	return func(format string, args ...any) {
		name := "--state"
		if g.shared != nil {
			name = g.shared.Name()
		}
		fmt.Fprintln(g.io.Err, "warning: "+result.SanitizeText(fmt.Sprintf("state %s: %s: ", name, surface)+fmt.Sprintf(format, args...)))
	}
}

// shareState wires --state into the engine's options: the governor's
// windows, slots, pauses and buckets, and the response cache.
func (g *globalFlags) shareState(opts *engine.Options) error {
	st, err := g.openState()
	if err != nil || st == nil {
		return err
	}
	if opts.Client.Governor != nil {
		opts.Client.Governor.Shared = st
		opts.Client.Governor.SharedWarnf = g.stateWarnf("rate-limit governor")
	}
	if opts.Client.Cache != nil {
		// The deployment's secret, when set, keys the entries' MACs: only
		// its processes write entries the others accept (docs/orgscale.md).
		opts.Client.Cache.SetSecret([]byte(g.io.Getenv("ENGINE_STATE_SECRET")))
		// The shared bound is the shared store's, one for every writer
		// (--state-cache-max-bytes stores it there), never this process's
		// --cache-max-bytes: a runner with a small directory does not
		// evict every other credential's entries.
		blobs := st.Blobs("cache", redisstate.DefaultCacheMaxBytes, sharedCacheTTL)
		if g.stateCacheMax > 0 {
			if err := blobs.SetBound(context.Background(), g.stateCacheMax); err != nil {
				g.stateWarnf("response cache")("could not store --state-cache-max-bytes (%v); the bound stored there stays", err)
			}
		}
		opts.Client.Cache.SetShared(blobs, g.stateWarnf("response cache"))
	}
	return nil
}

// shareResults wires --state into the MCP server's kept results.
func (g *globalFlags) shareResults(o *mcpsurface.StoreOptions) {
	if g.shared == nil {
		return
	}
	// The shared bound is the store's, the same for every replica (a
	// replica's --keep-bytes bounds only its own memory and spool).
	maxBytes, ttl := int64(redisstate.DefaultResultsMaxBytes), o.TTL
	if ttl <= 0 {
		ttl = 30 * time.Minute
	}
	o.Shared = g.shared.Blobs("results", maxBytes, ttl)
	o.Warnf = g.stateWarnf("kept results")
}
