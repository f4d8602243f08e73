package check

import (
	"testing"
)

// A control over a search that matches more than the 1,000 results
// GitHub serves (the fake's org "sprawl": 2,500 repositories, created
// 2020-01-01 to 2024-11-05) sees every match: the newest repositories,
// past the first 1,000, make the first control fail. Code search cannot
// be split: its control is an error, never a pass on 1,000 results.
const searchCapControls = `controls:
  - id: no-recent-repos
    title: No repository created since November 2024
    sql: SELECT full_name FROM github.search.repos WHERE q = 'org:sprawl' AND created_at >= '2024-11-01'
  - id: no-readme-ghost
    title: No README in a repository named ghost
    sql: SELECT path FROM github.search.code WHERE q = 'org:sprawl' AND json_extract(repository, '$.name') = 'ghost'
`

func TestSearchOverCapControls(t *testing.T) {
	_, env := serverEnv(t)
	_, r := checkControls(t, env, "c.yaml", searchCapControls, 2, "-o", "json")
	rep := parseJSON(t, r)
	st := statuses(rep)
	if st["no-recent-repos"] != "fail" || st["no-readme-ghost"] != "error" {
		t.Fatalf("statuses %v, want fail and error", st)
	}
	for _, c := range rep.Controls {
		switch c.ID {
		case "no-recent-repos":
			// 2024-11-01T00:00 .. 2024-11-05T03:00, one every 17 hours.
			if c.RowCount == nil || *c.RowCount != 6 {
				t.Errorf("no-recent-repos rows %v, want 6", c.RowCount)
			}
		case "no-readme-ghost":
			if c.Error == nil || c.Error.Kind != "incomplete" || c.Error.Retryable {
				t.Errorf("no-readme-ghost error %+v", c.Error)
			}
		}
	}
}
