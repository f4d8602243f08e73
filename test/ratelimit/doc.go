// Package ratelimit holds the end-to-end tests of the rate-limit governor
// (docs/reliability.md, "Rate limits"): the built engine binary against fake GitHub servers that
// model GitHub's limiter (fakegithub.WithLimits: concurrency, points per
// window, primary buckets, secondary-limit 403s with Retry-After), and
// against a fake that issues GitHub App installation tokens. Assertions
// are counts (requests, secondary-limit responses, requests during a
// pause); wall-time ratios are make bench's.
package ratelimit
