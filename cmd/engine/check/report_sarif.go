package check

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// SARIF 2.1.0 (OASIS), as GitHub code scanning ingests it: one rule per
// control, one result per offending row with a stable fingerprint, waived
// rows as suppressed results, errored controls as tool execution
// notifications with executionSuccessful false (never a silent absence).

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIFToolVersion is the engine's version as the SARIF driver reports it
// (set by the command).
var SARIFToolVersion = "devel"

// sarifDocs is where a rule's help points (helpUri) and the driver's
// informationUri.
const sarifDocs = "https://github.com/enginehq/engine/blob/main/docs/check.md"

// sarifVersion is v as SARIF's driver version: the validator (rule
// SARIF2005) wants it to start with an integer, so a development build's
// "devel (revision ...)" becomes "0.0.0-devel (revision ...)" and a
// release's "v1.2.3" becomes "1.2.3".
func sarifVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "0.0.0-" + v
	}
	return v
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool         `json:"tool"`
	Invocations       []sarifInvocation `json:"invocations"`
	Results           []sarifResult     `json:"results"`
	AutomationDetails *sarifAutomation  `json:"automationDetails,omitempty"`
	ColumnKind        string            `json:"columnKind"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	ToolConfigNotifications    []sarifNotification `json:"toolConfigurationNotifications,omitempty"`
}

type sarifNotification struct {
	Level          string          `json:"level"`
	Message        sarifText       `json:"message"`
	AssociatedRule *sarifRuleRef   `json:"associatedRule,omitempty"`
	Locations      []sarifLocation `json:"locations,omitempty"`
}

type sarifRuleRef struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          map[string]any     `json:"properties,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind,omitempty"`
}

// securitySeverity is GitHub's security-severity of a control's severity
// (over 9 critical, 7 to 8.9 high, 4 to 6.9 medium, under 4 low).
var securitySeverity = map[string]string{"critical": "9.5", "high": "8.0", "medium": "5.5", "low": "3.0", "info": "0.1"}

// sarifLevel is the result level of a control's failures.
func sarifLevel(c *Control) string {
	switch c.Severity {
	case "low":
		return "warning"
	case "info":
		return "note"
	}
	return "error"
}

// sarifURI is where a control's results point: its control file (a
// relative path, as code scanning requires), or for a pack's control
// "engine-check/pack-NAME.yaml", the file engine check --pack NAME
// --print writes.
func sarifURI(r *Report, c *Control) string {
	f := controlFile(r, c)
	if name, ok := strings.CutPrefix(f, "pack:"); ok {
		return "engine-check/pack-" + name + ".yaml"
	}
	if filepath.IsAbs(f) {
		if wd, err := filepath.Abs("."); err == nil {
			if rel, err := filepath.Rel(wd, f); err == nil && !strings.HasPrefix(rel, "..") {
				f = rel
			}
		}
	}
	return filepath.ToSlash(strings.TrimPrefix(f, "./"))
}

// WriteSARIF writes the report as a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, r *Report) error {
	run := sarifRun{
		Tool:              sarifTool{Driver: sarifDriver{Name: "engine check", Version: sarifVersion(SARIFToolVersion), InformationURI: sarifDocs, Rules: []sarifRule{}}},
		Results:           []sarifResult{},
		ColumnKind:        "utf16CodeUnits",
		AutomationDetails: &sarifAutomation{ID: "engine-check/" + suiteName(r.File) + "/"},
	}
	inv := sarifInvocation{ExecutionSuccessful: true}
	for i, o := range r.Outcomes {
		c := o.Control
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(c))
		loc := func(logical []sarifLogical) sarifLocation {
			return sarifLocation{PhysicalLocation: &sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(r, c)}, Region: sarifRegion{StartLine: max(c.Line, 1)}}, LogicalLocations: logical}
		}
		switch o.Status {
		case Error:
			inv.ExecutionSuccessful = false
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
				Level: "error", Message: sarifText{Text: fmt.Sprintf("%s was not evaluated (an error is never a pass): %s", c.ID, errorSummary(o))},
				AssociatedRule: &sarifRuleRef{ID: c.ID, Index: i}, Locations: []sarifLocation{loc(nil)},
			})
		case Fail, Waived:
			cols := make([]string, len(o.Columns))
			for j, col := range o.Columns {
				cols[j] = col.Name
			}
			add := func(row []any, waivedFor string) {
				res := sarifResult{RuleID: c.ID, RuleIndex: i, Level: sarifLevel(c),
					Message:             sarifText{Text: findingText(c, cols, o, row)},
					Locations:           []sarifLocation{loc(rowSubjects(cols, row))},
					PartialFingerprints: map[string]string{"engineCheckFinding/v1": fingerprint(c.ID, o.Columns, row)},
				}
				if waivedFor != "" {
					res.Suppressions = []sarifSuppression{{Kind: "external", Justification: waivedFor}}
				}
				run.Results = append(run.Results, res)
			}
			for _, row := range o.Rows {
				add(row, "")
			}
			for j, row := range o.Waived {
				add(row, o.WaivedReasons[j])
			}
			if o.Status == Fail && (len(o.Rows) == 0 || c.Expect.Kind == "count" || c.Expect.Kind == "nonempty") {
				// an expectation about the count, not about rows: one result
				res := sarifResult{RuleID: c.ID, RuleIndex: i, Level: sarifLevel(c),
					Message:             sarifText{Text: fmt.Sprintf("%s: %s; expected %s", oneLine(c.Title), failSummary(o), c.Expect)},
					Locations:           []sarifLocation{loc(nil)},
					PartialFingerprints: map[string]string{"engineCheckFinding/v1": fingerprint(c.ID, nil, nil)},
				}
				if len(o.Rows) > 0 {
					res.Properties = map[string]any{"row_count": o.RowCount}
					run.Results = run.Results[:len(run.Results)-len(o.Rows)-len(o.Waived)]
				}
				run.Results = append(run.Results, res)
			}
		}
	}
	run.Invocations = []sarifInvocation{inv}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

func sarifRuleOf(c *Control) sarifRule {
	full := c.Description
	if c.Rationale != "" {
		full = strings.TrimSpace(strings.TrimSpace(full) + " " + c.Rationale)
	}
	if full == "" {
		full = c.Title
	}
	help := c.Remediation
	if help == "" {
		help = "No remediation is given for this control."
	}
	md := "**Remediation:** " + help
	if c.Rationale != "" {
		md = "**Why:** " + c.Rationale + "\n\n" + md
	}
	tags := []string{"security", "engine-check"}
	anchors := make([]string, 0, len(c.Maps))
	for a := range c.Maps {
		anchors = append(anchors, a)
	}
	sort.Strings(anchors)
	for _, a := range anchors {
		for _, id := range c.Maps[a] {
			tags = append(tags, a+":"+id)
		}
	}
	props := map[string]any{"tags": tags, "precision": "high", "problem.severity": map[string]string{"error": "error", "warning": "warning", "note": "recommendation"}[sarifLevel(c)]}
	if s, ok := securitySeverity[c.Severity]; ok {
		props["security-severity"] = s
	}
	if len(c.Needs) > 0 {
		props["needs"] = c.Needs
	}
	return sarifRule{ID: c.ID, Name: ruleName(c.ID), ShortDescription: sarifText{Text: oneLine(c.Title)}, FullDescription: sarifText{Text: oneLine(full)},
		Help: sarifText{Text: help, Markdown: md}, HelpURI: sarifHelpURI(c), DefaultConfiguration: sarifConfig{Level: sarifLevel(c)}, Properties: props}
}

// sarifHelpURI is where a rule's control is documented: the pack's table
// in docs/check.md for a pack's control, the control file reference for
// the others (the validator's SARIF2012 asks every rule for one).
func sarifHelpURI(c *Control) string {
	if strings.HasPrefix(c.File, "pack:") {
		return sarifDocs + "#the-" + strings.TrimPrefix(c.File, "pack:") + "-pack"
	}
	return sarifDocs + "#control-file-reference"
}

// ruleName is a rule's name in PascalCase, as SARIF suggests
// (repo-branch-protected: RepoBranchProtected).
func ruleName(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		if r == '-' || r == '_' || r == '.' {
			up = true
			continue
		}
		if up {
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fingerprint identifies a finding across runs: the control and the row's
// values (a row is the finding's identity: a repository, a member).
func fingerprint(id string, cols []result.Column, row []any) string {
	h := sha256.New()
	h.Write([]byte(id))
	for i, v := range row {
		h.Write([]byte{0})
		if i < len(cols) {
			h.Write([]byte(result.TSVRow(cols[i:i+1], []any{v})))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// subjectColumns name what a row is about, in order of preference.
var subjectColumns = []string{"full_name", "html_url", "repo", "name", "login", "org"}

// rowSubjects are the logical locations of a row: the repository,
// member or organisation it names.
func rowSubjects(cols []string, row []any) []sarifLogical {
	for _, want := range subjectColumns {
		for i, c := range cols {
			if strings.EqualFold(c, want) && i < len(row) && row[i] != nil {
				return []sarifLogical{{FullyQualifiedName: result.Text(row[i]), Kind: "object"}}
			}
		}
	}
	return nil
}

// findingText is a result's message: the control's title and the row, as
// column=value pairs.
func findingText(c *Control, cols []string, o *Outcome, row []any) string {
	var parts []string
	for i, name := range cols {
		if i < len(row) {
			v := result.TSVRow(o.Columns[i:i+1], []any{row[i]})
			if len(v) > 200 {
				v = v[:200] + "..."
			}
			parts = append(parts, name+"="+v)
		}
	}
	msg := oneLine(c.Title) + ": " + strings.Join(parts, ", ")
	if c.Remediation != "" {
		msg += ". Remediation: " + oneLine(c.Remediation)
	}
	return msg
}

// WriteProblemsSARIF writes the problems that stopped a run: no results,
// executionSuccessful false, one configuration notification a problem.
func WriteProblemsSARIF(w io.Writer, file string, ps []Problem) error {
	inv := sarifInvocation{ExecutionSuccessful: false}
	for _, p := range ps {
		n := sarifNotification{Level: "error", Message: sarifText{Text: p.String()}}
		if p.File != "" && !strings.HasPrefix(p.File, "pack:") {
			n.Locations = []sarifLocation{{PhysicalLocation: &sarifPhysical{ArtifactLocation: sarifArtifact{URI: filepath.ToSlash(p.File)}, Region: sarifRegion{StartLine: max(p.Line, 1)}}}}
		}
		inv.ToolConfigNotifications = append(inv.ToolConfigNotifications, n)
	}
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "engine check", Version: sarifVersion(SARIFToolVersion), InformationURI: sarifDocs, Rules: []sarifRule{}}},
		Invocations: []sarifInvocation{inv}, Results: []sarifResult{}, ColumnKind: "utf16CodeUnits"}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}
