package plan

import "github.com/enginehq/engine/engine/sqlfront"

// setSourceFilters gives every dependent binding the WHERE terms of its
// scope that read only its source table (sqlfront.SourceFilter): the
// tuples of a fan-out come from the source rows that pass them, so a
// WHERE that narrows the source (NOT r.archived AND r.language = 'Go')
// narrows the requests too. Terms the API applied to the source and its
// rows cannot express (Scan.Consumed) are left out. The result is the
// same: a source row that fails a top-level WHERE term of the scope is in
// no result row, and a tuple that some passing row yields is still asked.
func setSourceFilters(q *sqlfront.Query, scans []*Scan) {
	for _, s := range scans {
		for i := range s.Deps {
			src := s.Deps[i].Source
			if src.Ref.Scope != s.Ref.Scope {
				continue
			}
			skip := append([]*sqlfront.Conjunct(nil), src.Consumed...)
			for _, b := range src.Bindings {
				skip = append(skip, b.Conjunct) // true of every row: the API applied it
			}
			s.Deps[i].Filter = q.SourceFilter(src.Ref, skip)
		}
	}
}
