package enginetest

import "testing"

// A column that WHERE or HAVING reads without saying what NULL means,
// NULL in every row read (a setting the credentials cannot see: GitHub
// leaves it out), is an error of kind incomplete for engine check
// (NullIsError) and a notice otherwise, with the rows as SQL gives them;
// a term that decides NULL (coalesce, IS NULL) is judged as written, and
// zero rows read or one non-NULL value is no finding.
func TestNullRule(t *testing.T) {
	org := map[string][]Page{
		"/orgs/hidden":      {{JSON: `[{"login":"hidden","is_verified":false}]`}},
		"/orgs/nulled":      {{JSON: `[{"login":"nulled","members_can_delete_issues":null}]`}},
		"/orgs/shown":       {{JSON: `[{"login":"shown","members_can_delete_issues":true}]`}},
		"/orgs/some/repos":  {{JSON: `[{"name":"a","security_and_analysis":null},{"name":"b","security_and_analysis":{"secret_scanning":{"status":"enabled"}}}]`}},
		"/orgs/none/repos":  {{JSON: `[{"name":"a"},{"name":"b"}]`}},
		"/orgs/empty/repos": {{JSON: `[]`}},
	}
	const unknown = "github.orgs.orgs.members_can_delete_issues is NULL in every row read (1 row), and WHERE reads it without saying what NULL means"
	Run(t, org, []Case{
		{Name: "absent field: error for check", SQL: "SELECT login FROM github.orgs.orgs WHERE org = 'hidden' AND members_can_delete_issues",
			NullIsError: true, Err: unknown},
		{Name: "the error says what to write", SQL: "SELECT login FROM github.orgs.orgs o WHERE org = 'hidden' AND o.members_can_delete_issues",
			NullIsError: true, Err: "coalesce(o.members_can_delete_issues, <failing value>) counts it as failing, o.members_can_delete_issues IS NULL selects"},
		{Name: "null value: error for check", SQL: "SELECT login FROM github.orgs.orgs WHERE org = 'nulled' AND members_can_delete_issues <> 0",
			NullIsError: true, Err: unknown},
		{Name: "notice otherwise, rows as SQL gives them", SQL: "SELECT login FROM github.orgs.orgs WHERE org = 'hidden' AND NOT members_can_delete_issues",
			Want: nil, Notice: unknown},
		{Name: "coalesce is judged as written", SQL: "SELECT login FROM github.orgs.orgs WHERE org = 'hidden' AND coalesce(members_can_delete_issues, 1) = 1",
			NullIsError: true, Want: []string{"hidden"}, Notice: "-"},
		{Name: "IS NULL is judged as written", SQL: "SELECT login FROM github.orgs.orgs WHERE org = 'hidden' AND (members_can_delete_issues IS NULL OR members_can_delete_issues)",
			NullIsError: true, Want: []string{"hidden"}, Notice: "-"},
		{Name: "a visible value is no finding", SQL: "SELECT login FROM github.orgs.orgs WHERE org = 'shown' AND members_can_delete_issues",
			NullIsError: true, Want: []string{"shown"}, Notice: "-"},
		{Name: "read in the select list only: no finding", SQL: "SELECT login, members_can_delete_issues FROM github.orgs.orgs WHERE org = 'hidden'",
			NullIsError: true, Want: []string{"hidden\t"}, Notice: "-"},
		{Name: "one row with a value is no finding", SQL: "SELECT name FROM github.repos.repos r WHERE org = 'some' AND r.security_and_analysis ->> '$.secret_scanning.status' <> 'enabled'",
			NullIsError: true, Want: nil, Notice: "-"},
		{Name: "a JSON column's path", SQL: "SELECT name FROM github.repos.repos r WHERE org = 'none' AND r.security_and_analysis ->> '$.secret_scanning.status' <> 'enabled'",
			NullIsError: true, Err: "github.repos.repos.security_and_analysis ->> '$.secret_scanning.status' is NULL in every row read (2 rows), and WHERE reads it without saying what NULL means"},
		{Name: "a path absent from every row of a column that has values", SQL: "SELECT name FROM github.repos.repos r WHERE org = 'some' AND r.security_and_analysis ->> '$.advanced_security.status' <> 'enabled'",
			NullIsError: true, Err: "coalesce(r.security_and_analysis ->> '$.advanced_security.status', <failing value>) counts it as failing"},
		{Name: "json_extract of a path", SQL: "SELECT name FROM github.repos.repos r WHERE org = 'some' AND json_extract(r.security_and_analysis, '$.advanced_security.status') <> 'enabled'",
			Notice: "github.repos.repos.security_and_analysis ->> '$.advanced_security.status' is NULL in every row read (2 rows)"},
		{Name: "a JSON column itself", SQL: "SELECT name FROM github.repos.repos r WHERE org = 'none' AND length(r.security_and_analysis) > 2",
			NullIsError: true, Err: "coalesce(r.security_and_analysis ->> '$.key', <failing value>)"},
		{Name: "zero rows read are no evidence", SQL: "SELECT name FROM github.repos.repos r WHERE org = 'empty' AND r.security_and_analysis ->> '$.secret_scanning.status' <> 'enabled'",
			NullIsError: true, Want: nil, Notice: "-"},
		{Name: "HAVING too", SQL: "SELECT r.name FROM github.repos.repos r WHERE org = 'none' GROUP BY r.name HAVING max(r.security_and_analysis) IS NOT NULL OR min(r.stargazers_count) > 1",
			NullIsError: true, Err: "github.repos.repos.stargazers_count is NULL in every row read (2 rows), and HAVING reads it"},
		{Name: "two columns", SQL: "SELECT name FROM github.repos.repos r WHERE org = 'none' AND r.archived AND r.stargazers_count > 1",
			Notice: "github.repos.repos.archived (WHERE, 2 rows), github.repos.repos.stargazers_count (WHERE, 2 rows) are NULL in every row read"},
	})
}
