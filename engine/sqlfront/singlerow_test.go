package sqlfront

import "testing"

func TestSingleRow(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a'":                                                                  true,
		"SELECT count(*) > 2 AS too_many FROM github.orgs.members WHERE org = 'a'":                                                  true,
		"SELECT coalesce(max(login), '') FROM github.orgs.members WHERE org = 'a'":                                                  true,
		"SELECT DISTINCT sum(id), total(id) FROM github.orgs.members WHERE org = 'a'":                                               true,
		"SELECT group_concat(login) FROM github.orgs.members WHERE org = 'a'":                                                       true,
		"SELECT json_group_array(login) FROM github.orgs.members WHERE org = 'a'":                                                   true,
		"WITH m AS (SELECT login FROM github.orgs.members WHERE org = 'a') SELECT count(*) FROM m":                                  true,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' LIMIT 1":                                                          true,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' HAVING count(*) > 2":                                              false,
		"SELECT type, count(*) FROM github.orgs.members WHERE org = 'a' GROUP BY type":                                              false,
		"SELECT login, count(*) OVER () FROM github.orgs.members WHERE org = 'a'":                                                   false,
		"SELECT login, (SELECT count(*) FROM github.orgs.members WHERE org = 'b') FROM github.orgs.members WHERE org = 'a'":         false,
		"SELECT max(id, 3) FROM github.orgs.members WHERE org = 'a'":                                                                false,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' UNION ALL SELECT 1":                                               false,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' LIMIT 0":                                                          false,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' LIMIT 1 OFFSET 1":                                                 false,
		"SELECT login FROM github.orgs.members WHERE org = 'a' AND id IN (SELECT max(id) FROM github.orgs.members WHERE org = 'a')": false,
	} {
		if got := parsed(t, sql).Query.SingleRow; got != want {
			t.Errorf("%s: SingleRow %v, want %v", sql, got, want)
		}
	}
}
