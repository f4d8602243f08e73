package mcpsurface_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
)

// TestFaultMatrix: every fault of the fake server, on page 1 and on a later
// page, is an error result with the right status, provider and
// retryability; never rows.
func TestFaultMatrix(t *testing.T) {
	e := newEnv(t, envOpts{caps: defaultCaps()})
	cases := []struct {
		name      string
		f         fakegithub.Fault
		status    int
		retryable bool
		retryWait bool // retry_after_seconds expected
	}{
		{"500", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 500}, 500, true, false},
		{"502", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 502}, 502, true, false},
		{"503", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 503}, 503, true, false},
		{"408", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 408}, 408, true, false},
		{"400", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 400}, 400, false, false},
		{"401", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 401}, 401, false, false},
		{"403", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 403}, 403, false, false},
		{"404", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 404}, 404, false, false},
		{"422", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 422}, 422, false, false},
		{"rate_limit", fakegithub.Fault{Kind: fakegithub.KindRateLimit, RetryAfter: 1800}, 403, true, true},
		{"secondary_rate_limit", fakegithub.Fault{Kind: fakegithub.KindSecondaryRateLimit, RetryAfter: 60}, 403, true, true},
		{"too_many_requests", fakegithub.Fault{Kind: fakegithub.KindTooManyRequests, RetryAfter: 60}, 429, true, true},
		{"reset", fakegithub.Fault{Kind: fakegithub.KindReset}, 0, true, false},
		{"slow", fakegithub.Fault{Kind: fakegithub.KindSlow, Delay: 20 * time.Second}, 0, true, false},
		{"malformed", fakegithub.Fault{Kind: fakegithub.KindMalformed}, 200, false, false},
		{"truncated", fakegithub.Fault{Kind: fakegithub.KindTruncated}, 0, true, false},
		{"oversized", fakegithub.Fault{Kind: fakegithub.KindOversized, Size: 16 << 20}, 200, false, false},
		{"link_loop", fakegithub.Fault{Kind: fakegithub.KindLinkLoop}, 0, false, false},
	}
	for _, c := range cases {
		for _, page := range []int{1, 2} {
			if c.f.Kind == fakegithub.KindLinkLoop && page == 2 {
				continue // page 2 of 3 is fetched by number once rel="last" is known: no loop to follow
			}
			t.Run(fmt.Sprintf("%s/page%d", c.name, page), func(t *testing.T) {
				e.fake.ClearFaults()
				f := c.f
				f.Path, f.Page = "^/orgs/acme/repos$", page
				e.fake.Inject(f)
				r := e.query(t, acmeNames)
				if !r.IsError {
					t.Fatalf("no error; rows %d of %d", len(r.Rows), r.RowCount)
				}
				b := r.Error
				if b.Kind != "provider" || b.Provider != "github" || b.HTTPStatus != c.status || b.Retryable != c.retryable {
					t.Fatalf("error %+v; want provider github status %d retryable %t", b, c.status, c.retryable)
				}
				if c.retryWait != (b.RetryAfterSeconds > 0) {
					t.Fatalf("retry_after_seconds %d", b.RetryAfterSeconds)
				}
			})
		}
	}
	e.fake.ClearFaults()
	if r := e.ok(t, acmeNames); r.RowCount != 250 {
		t.Fatalf("after faults: %d rows", r.RowCount)
	}
}
