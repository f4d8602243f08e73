package pg

import (
	"context"
	"encoding/json"

	"github.com/enginehq/engine/engine/exec"
	"github.com/enginehq/engine/providers"
)

// NoFetch is the fetcher of the describing engine (Config.Describe):
// every call answers no items and sends nothing, so that a statement runs
// over empty tables and its result's columns are known without a
// request (the extended protocol describes a statement before it runs).
func NoFetch(string) (exec.Fetcher, error) { return noFetch{}, nil }

type noFetch struct{}

func (noFetch) Do(context.Context, providers.Call, func([]json.RawMessage) error) (providers.FetchStats, error) {
	return providers.FetchStats{}, nil
}
func (noFetch) BucketOf(string) string                         { return "" }
func (noFetch) CheckBudget(context.Context, string, int) error { return nil }
func (noFetch) Budget(string) (providers.BucketBudget, bool)   { return providers.BucketBudget{}, false }
func (noFetch) Cached(providers.Call) bool                     { return false }
