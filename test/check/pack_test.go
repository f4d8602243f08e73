package check

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// packIDs are the control ids of the embedded github pack, read from
// `engine check --pack github --print`.
func packIDs(t *testing.T, env []string) []string {
	t.Helper()
	r := runCheck(t, env, "--pack", "github", "--print")
	if r.Code != 0 {
		t.Fatalf("--print: exit %d\n%s", r.Code, r.Stderr)
	}
	var ids []string
	for _, m := range regexp.MustCompile(`(?m)^  - id: (\S+)$`).FindAllStringSubmatch(r.Stdout, -1) {
		ids = append(ids, m[1])
	}
	if len(ids) < 60 {
		t.Fatalf("the github pack has %d controls; want at least 60", len(ids))
	}
	return ids
}

// rowsText is a control's rows (and waived rows) as one string, to look
// for the names the fake seeded.
func rowsText(t *testing.T, r testutil.Result) map[string]string {
	t.Helper()
	var rep struct {
		Controls []struct {
			ID     string  `json:"id"`
			Rows   [][]any `json:"rows"`
			Waived *struct {
				Rows [][]any `json:"rows"`
			} `json:"waived"`
		} `json:"controls"`
	}
	testutil.StdoutJSON(t, r, &rep)
	out := map[string]string{}
	for _, c := range rep.Controls {
		b, _ := json.Marshal(c.Rows)
		out[c.ID] = string(b)
	}
	return out
}

// The golden verdicts of the github pack: the fake's compliance
// organisations make every control pass, fail, or error (403 everywhere),
// and the failing org's rows name the seeded offenders.
func TestPackGoldenVerdicts(t *testing.T) {
	_, env := serverEnv(t)
	ids := packIDs(t, env)
	for _, tc := range []struct {
		org, status string
		exit        int
	}{
		{fakegithub.CompliancePassOrg, "pass", 0},
		{fakegithub.ComplianceFailOrg, "fail", 1},
		{fakegithub.ComplianceDeniedOrg, "error", 2},
	} {
		t.Run(tc.org, func(t *testing.T) {
			r := runCheck(t, env, "--pack", "github", "--var", "org="+tc.org, "-o", "json")
			if r.Code != tc.exit {
				t.Errorf("exit %d, want %d\nstderr:\n%s", r.Code, tc.exit, r.Stderr)
			}
			rep := parseJSON(t, r)
			got := statuses(rep)
			if len(rep.Controls) != len(ids) {
				t.Errorf("%d controls reported, the pack has %d", len(rep.Controls), len(ids))
			}
			for _, id := range ids {
				if got[id] != tc.status {
					t.Errorf("control %s: %q, want %q", id, got[id], tc.status)
				}
			}
			if tc.status == "error" {
				for _, c := range rep.Controls {
					if c.Error == nil || c.Error.HTTPStatus != 403 {
						t.Errorf("control %s: error %+v, want the 403", c.ID, c.Error)
					}
				}
			}
			if tc.status != "fail" {
				return
			}
			rows := rowsText(t, r)
			for _, id := range ids {
				text := rows[id]
				if text == "" || text == "null" {
					t.Errorf("control %s failed without rows", id)
				}
				if (strings.HasPrefix(id, "repo-") || strings.HasPrefix(id, "branch-")) &&
					!strings.Contains(text, `"`+fakegithub.ComplianceUnprotectedRepo+`"`) && !strings.Contains(text, `"`+fakegithub.ComplianceWeakRepo+`"`) {
					t.Errorf("control %s: rows %s name no seeded repository", id, text)
				}
			}
			want := map[string][]string{
				// no protection at all: only the unprotected repository
				"branch-protected": {`"legacy"`},
				// protection with every setting off counts as off
				"branch-requires-pull-request":           {`"legacy"`, `"weak"`},
				"branch-blocks-force-push":               {`"legacy"`, `"weak"`},
				"org-members-have-2fa":                   {fakegithub.ComplianceNo2FAMember},
				"repo-no-outside-admins":                 {fakegithub.ComplianceOutsideAdmin},
				"repo-deploy-keys-read-only":             {"ci-write"},
				"org-webhooks-use-tls":                   {"http://hooks.example.test/github"},
				"org-no-open-critical-dependabot-alerts": {"GHSA-fake-0001-crit"},
			}
			for id, names := range want {
				for _, n := range names {
					if !strings.Contains(rows[id], n) {
						t.Errorf("control %s: rows %s do not name %s", id, rows[id], n)
					}
				}
			}
			if strings.Contains(rows["branch-protected"], `"weak"`) {
				t.Errorf("branch-protected names the protected repository: %s", rows["branch-protected"])
			}
		})
	}
}

// sarifLog is the part of a SARIF log the tests read.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Version string `json:"version"`
				Rules   []struct {
					ID              string                `json:"id"`
					FullDescription struct{ Text string } `json:"fullDescription"`
					Help            struct{ Text string } `json:"help"`
					HelpURI         string                `json:"helpUri"`
					Properties      map[string]any        `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			ExecutionSuccessful        bool  `json:"executionSuccessful"`
			ToolExecutionNotifications []any `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID              string            `json:"ruleId"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Locations           []any             `json:"locations"`
			Suppressions        []struct {
				Kind, Justification string
			} `json:"suppressions"`
		} `json:"results"`
	} `json:"runs"`
}

func parseSARIF(t *testing.T, r testutil.Result) sarifLog {
	t.Helper()
	var l sarifLog
	testutil.StdoutJSON(t, r, &l)
	if l.Version != "2.1.0" || len(l.Runs) != 1 {
		t.Fatalf("sarif version %q, %d runs", l.Version, len(l.Runs))
	}
	return l
}

// -o sarif of the github pack: one rule per control with its help and
// security-severity, one result per offending row with a stable
// fingerprint; the errors org's run is not successful and says why.
func TestPackSARIF(t *testing.T) {
	_, env := serverEnv(t)
	ids := packIDs(t, env)
	args := []string{"--pack", "github", "--var", "org=" + fakegithub.ComplianceFailOrg, "-o", "sarif"}
	r := runCheck(t, env, args...)
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.Code, r.Stderr)
	}
	l := parseSARIF(t, r)
	run := l.Runs[0]
	if len(run.Tool.Driver.Rules) != len(ids) {
		t.Errorf("%d rules, want one per control (%d)", len(run.Tool.Driver.Rules), len(ids))
	}
	// The validator (make sarif-check) warns on a version that does not
	// start with an integer (SARIF2005) and notes a rule without helpUri.
	if v := run.Tool.Driver.Version; v == "" || v[0] < '0' || v[0] > '9' {
		t.Errorf("driver version %q does not start with an integer", v)
	}
	for _, rule := range run.Tool.Driver.Rules {
		if rule.FullDescription.Text == "" || rule.Help.Text == "" {
			t.Errorf("rule %s: no full description or help", rule.ID)
		}
		if !strings.HasSuffix(rule.HelpURI, "docs/check.md#the-github-pack") {
			t.Errorf("rule %s: helpUri %q", rule.ID, rule.HelpURI)
		}
		if s, ok := rule.Properties["security-severity"].(string); !ok || s == "" {
			t.Errorf("rule %s: security-severity %v", rule.ID, rule.Properties["security-severity"])
		}
	}
	perRule := map[string]int{}
	fps := map[string]bool{}
	for _, res := range run.Results {
		perRule[res.RuleID]++
		if len(res.PartialFingerprints) == 0 || len(res.Locations) == 0 {
			t.Errorf("result of %s: fingerprints %v, %d locations", res.RuleID, res.PartialFingerprints, len(res.Locations))
		}
		for k, v := range res.PartialFingerprints {
			fps[k+"="+v] = true
		}
	}
	for _, id := range ids {
		if perRule[id] == 0 {
			t.Errorf("control %s failed but has no result", id)
		}
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations %+v: a run with failures but no errors executed successfully", run.Invocations)
	}
	// A second run gives every result the same fingerprint.
	again := parseSARIF(t, runCheck(t, env, args...))
	for _, res := range again.Runs[0].Results {
		for k, v := range res.PartialFingerprints {
			if !fps[k+"="+v] {
				t.Errorf("result of %s: fingerprint %s=%s is new on the second run", res.RuleID, k, v)
			}
		}
	}

	r = runCheck(t, env, "--pack", "github", "--var", "org="+fakegithub.ComplianceDeniedOrg, "-o", "sarif")
	if r.Code != 2 {
		t.Fatalf("errors org: exit %d, want 2\n%s", r.Code, r.Stderr)
	}
	d := parseSARIF(t, r).Runs[0]
	if len(d.Invocations) != 1 || d.Invocations[0].ExecutionSuccessful {
		t.Fatalf("errors org: invocations %+v, want executionSuccessful false", d.Invocations)
	}
	if n := len(d.Invocations[0].ToolExecutionNotifications); n != len(ids) {
		t.Errorf("errors org: %d notifications, want one per errored control (%d)", n, len(ids))
	}
	if len(d.Results) != 0 {
		t.Errorf("errors org: %d results", len(d.Results))
	}
}

func writeWaivers(t *testing.T, ids []string, expires string, match string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("waivers:\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "  - control: %s\n    reason: accepted risk for %s (TICKET-1)\n    expires: %s\n", id, id, expires)
		if match != "" {
			fmt.Fprintf(&b, "    match: %s\n", match)
		}
	}
	path := testutil.TempFile(t, "waivers.yaml", b.String())
	return path
}

// --waivers with the github pack: waived rows are suppressed and do not
// fail the run; an expired waiver waives nothing and says so; a waiver
// never hides an error.
func TestPackWaivers(t *testing.T) {
	_, env := serverEnv(t)
	ids := packIDs(t, env)
	fail := []string{"--pack", "github", "--var", "org=" + fakegithub.ComplianceFailOrg}

	t.Run("all waived", func(t *testing.T) {
		w := writeWaivers(t, ids, "2999-12-31", "")
		r := runCheck(t, env, append(fail, "--waivers", w, "-o", "json")...)
		if r.Code != 0 {
			t.Fatalf("exit %d, want 0 when every failing row is waived\n%s", r.Code, r.Stderr)
		}
		for id, st := range statuses(parseJSON(t, r)) {
			if st != "waived" {
				t.Errorf("control %s: %q, want waived", id, st)
			}
		}
		s := parseSARIF(t, runCheck(t, env, append(fail, "--waivers", w, "-o", "sarif")...)).Runs[0]
		if len(s.Results) == 0 {
			t.Fatal("sarif: waived rows must stay as suppressed results")
		}
		for _, res := range s.Results {
			if len(res.Suppressions) != 1 || !strings.Contains(res.Suppressions[0].Justification, "TICKET-1") {
				t.Errorf("sarif result of %s: suppressions %+v", res.RuleID, res.Suppressions)
			}
		}
	})

	t.Run("match", func(t *testing.T) {
		// branch-protected fails on the unprotected repository alone;
		// branch-blocks-force-push on both seeded repositories.
		w := writeWaivers(t, []string{"branch-protected", "branch-blocks-force-push"}, "2999-12-31", "{repo: "+fakegithub.ComplianceUnprotectedRepo+"}")
		r := runCheck(t, env, append(fail, "--waivers", w, "--only", "branch-protected,branch-blocks-force-push", "-o", "json")...)
		got := statuses(parseJSON(t, r))
		if got["branch-protected"] != "waived" || got["branch-blocks-force-push"] != "fail" || r.Code != 1 {
			t.Fatalf("statuses %v exit %d\n%s", got, r.Code, r.Stderr)
		}
		rows := rowsText(t, r)["branch-blocks-force-push"]
		if !strings.Contains(rows, `"weak"`) || strings.Contains(rows, `"legacy"`) {
			t.Errorf("branch-blocks-force-push rows %s: want weak only (legacy waived)", rows)
		}
	})

	t.Run("match on a column the rows lack", func(t *testing.T) {
		// a typo in match waives nothing (fail closed) and says why
		w := writeWaivers(t, []string{"branch-protected"}, "2999-12-31", "{rpo: "+fakegithub.ComplianceUnprotectedRepo+"}")
		r := runCheck(t, env, append(fail, "--waivers", w, "--only", "branch-protected", "-o", "json")...)
		if r.Code != 1 || statuses(parseJSON(t, r))["branch-protected"] != "fail" {
			t.Fatalf("exit %d\n%s", r.Code, r.Stdout)
		}
		if !strings.Contains(r.Stderr, "matches on column rpo, which the control's rows do not have") || !strings.Contains(r.Stderr, "repo") {
			t.Errorf("no notice naming the unknown match column:\n%s", r.Stderr)
		}
	})

	t.Run("expired", func(t *testing.T) {
		w := writeWaivers(t, []string{"org-2fa-required"}, "2020-01-31", "")
		r := runCheck(t, env, append(fail, "--waivers", w, "--only", "org-2fa-required", "-o", "json")...)
		if r.Code != 1 || statuses(parseJSON(t, r))["org-2fa-required"] != "fail" {
			t.Fatalf("an expired waiver waived: exit %d\n%s", r.Code, r.Stdout)
		}
		if !strings.Contains(r.Stderr, "org-2fa-required") || !strings.Contains(r.Stderr, "expired") {
			t.Errorf("no notice naming the expired waiver:\n%s", r.Stderr)
		}
	})

	t.Run("never hides an error", func(t *testing.T) {
		w := writeWaivers(t, ids, "2999-12-31", "")
		r := runCheck(t, env, "--pack", "github", "--var", "org="+fakegithub.ComplianceDeniedOrg, "--waivers", w, "-o", "json")
		if r.Code != 2 {
			t.Fatalf("exit %d, want 2", r.Code)
		}
		for id, st := range statuses(parseJSON(t, r)) {
			if st != "error" {
				t.Errorf("control %s: %q, want error", id, st)
			}
		}
	})
}

// Declared needs, checked: before running, one request to /rate_limit
// reads a classic token's X-OAuth-Scopes and each control whose needs the
// token lacks gets a notice naming it and the missing scopes; a
// credential that lists no scopes (App, fine-grained) gets one notice.
func TestPackNeedsChecked(t *testing.T) {
	only := []string{"--pack", "github", "--var", "org=" + fakegithub.CompliancePassOrg, "-o", "json",
		"--only", "org-2fa-required,org-webhooks-have-secret,org-actions-selected-repositories,repo-has-license,org-no-open-secret-scanning-alerts"}

	s, env := serverEnv(t, fakegithub.WithOAuthScopes("repo, read:org"))
	r := runCheck(t, env, only...)
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	for _, id := range []string{"org-webhooks-have-secret", "org-actions-selected-repositories"} {
		if !regexp.MustCompile(`notice: control ` + id + ` needs the token scope [a-z:_]+`).MatchString(r.Stderr) {
			t.Errorf("no notice for %s, whose scopes the token lacks:\n%s", id, r.Stderr)
		}
	}
	if !strings.Contains(r.Stderr, "needs the token scope admin:org_hook") {
		t.Errorf("the missing scope is not named:\n%s", r.Stderr)
	}
	// read:org, repo (and security_events, which repo includes) are granted.
	for _, id := range []string{"org-2fa-required", "repo-has-license", "org-no-open-secret-scanning-alerts"} {
		if strings.Contains(r.Stderr, "control "+id+" ") {
			t.Errorf("notice for %s, whose scopes the token has:\n%s", id, r.Stderr)
		}
	}
	asked := false
	for _, q := range s.Requests() {
		if q.Path == "/rate_limit" {
			asked = true
		}
	}
	if !asked {
		t.Error("the scopes were not read from /rate_limit")
	}

	_, env = serverEnv(t, fakegithub.WithOAuthScopes("repo, admin:org, admin:org_hook"))
	if r := runCheck(t, env, only...); strings.Contains(r.Stderr, "notice: control") || r.Code != 0 {
		t.Errorf("a token with every needed scope: exit %d\n%s", r.Code, r.Stderr)
	}

	_, env = serverEnv(t)
	r = runCheck(t, env, only...)
	if strings.Contains(r.Stderr, "notice: control") || !strings.Contains(r.Stderr, "permissions cannot be listed") {
		t.Errorf("a credential without X-OAuth-Scopes:\n%s", r.Stderr)
	}
}
