package sqlfront

import (
	"strings"
	"testing"
)

// TestNullReads: the columns a WHERE or HAVING term reads without saying
// what NULL means there are listed on their table; a term that decides
// NULL for a column (coalesce, ifnull, IS [NOT] NULL, IS TRUE, <=>) does
// so for every occurrence of it in that term, and a select alias or a
// column of a derived table is no provider column.
func TestNullReads(t *testing.T) {
	cases := []struct {
		sql  string
		want string // table index: reads, ";" between tables
	}{
		{"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND members_can_delete_issues", "org WHERE,members_can_delete_issues WHERE"},
		{"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND coalesce(members_can_delete_issues, 1) = 1", "org WHERE"},
		{"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND ifnull(x, 1) = 1 AND y IS NULL AND z IS NOT TRUE AND w <=> 1", "org WHERE"},
		{"SELECT login FROM github.orgs.orgs o WHERE o.org = 'a' AND (o.status IS NULL OR o.status <> 'enabled')", "org WHERE"},
		{"SELECT login FROM github.orgs.orgs o WHERE o.org = 'a' AND coalesce(o.status, 'x') = 'x' AND o.status <> 'enabled'", "org WHERE,status WHERE"},
		{"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND nullif(x, 0) = 1", "org WHERE,x WHERE"},
		{"SELECT r.name, count(*) AS n FROM github.repos.repos r WHERE r.org = 'a' GROUP BY r.name HAVING max(r.stars) > 1 AND n > 1", "org WHERE,stars HAVING"},
		{"SELECT r.name FROM github.repos.repos r WHERE r.org = 'a' AND coalesce(r.security_and_analysis ->> '$.status', 'disabled') <> 'enabled'", "org WHERE"},
		{"SELECT r.name FROM github.repos.repos r WHERE r.org = 'a' AND r.security_and_analysis ->> '$.status' <> 'enabled'", "org WHERE,security_and_analysis->>$.status WHERE"},
		{"SELECT r.name FROM github.repos.repos r WHERE r.org = 'a' AND json_extract(r.license, '$.spdx_id') NOT IN ('MIT') AND r.owner -> 'login' = '\"x\"' AND json_extract(r.owner, '$.a', '$.b') IS NOT NULL", "org WHERE,license->>$.spdx_id WHERE,owner->>login WHERE"},
		{"SELECT v.x FROM (SELECT login AS x FROM github.orgs.orgs WHERE org = 'a') v WHERE v.x = 'b'", "login WHERE,org WHERE"},
		{"SELECT x FROM (SELECT upper(login) AS x FROM github.orgs.orgs WHERE org = 'a') v WHERE x = 'b'", "org WHERE"},
		{"SELECT login FROM (SELECT * FROM github.orgs.orgs WHERE org = 'a') AS orgs_view WHERE members_can_delete_issues", "members_can_delete_issues WHERE,org WHERE"},
		{"SELECT login FROM (SELECT * FROM github.orgs.orgs WHERE org = 'a') AS v WHERE coalesce(v.members_can_delete_issues, 1) = 1", "org WHERE"},
		{"WITH o AS (SELECT o.login, o.is_verified FROM github.orgs.orgs o WHERE o.org = 'a') SELECT w.login FROM (SELECT * FROM o) w WHERE NOT w.is_verified", "is_verified WHERE,org WHERE"},
		{"SELECT r.name FROM github.repos.repos r WHERE r.org = 'a' AND r.name IN (SELECT b.repo FROM github.branches.branches b WHERE b.protected)", "org WHERE,name WHERE;protected WHERE"},
		{"SELECT r.name FROM github.repos.repos r LEFT JOIN github.branches.branches b ON b.repo = r.name AND b.protected WHERE r.org = 'a'", "org WHERE;"},
	}
	for _, c := range cases {
		st := parsed(t, c.sql)
		var tables []string
		for _, tr := range st.Query.Tables {
			var reads []string
			for _, r := range tr.NullReads {
				name := r.Name
				if r.Path != "" {
					name += "->>" + r.Path
				}
				reads = append(reads, name+" "+r.Clause)
			}
			tables = append(tables, strings.Join(reads, ","))
		}
		if got := strings.Join(tables, ";"); got != c.want {
			t.Errorf("%s\n  null reads %q, want %q", c.sql, got, c.want)
		}
	}
}
