package plan

// setSourceFilters gives every dependent binding the WHERE terms of its
// scope that read only its source table (sqlfront.TableRef.Filters): the
// tuples of a fan-out come from the source rows that pass them, so a
// WHERE that narrows the source (NOT r.archived AND r.language = 'Go')
// narrows the requests too. Terms the API applied to the source and its
// rows cannot express (Scan.Consumed) are left out. The result is the
// same: a source row that fails a top-level WHERE term of the scope is in
// no result row, and a tuple that some passing row yields is still asked.
func setSourceFilters(scans []*Scan) {
	for _, s := range scans {
		for i := range s.Deps {
			src := s.Deps[i].Source
			if src.Ref.Scope != s.Ref.Scope {
				continue
			}
			skip := map[string]bool{}
			for _, c := range src.Consumed {
				skip[c.Text] = true
			}
			for _, b := range src.Bindings {
				if b.Conjunct != nil {
					skip[b.Conjunct.Text] = true // true of every row: the API applied it
				}
			}
			var out []string
			for _, f := range src.Ref.Filters {
				if !skip[f.Term] {
					out = append(out, f.SQL)
				}
			}
			s.Deps[i].Filter = out
		}
	}
}
