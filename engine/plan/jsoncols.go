package plan

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// A JSON column holds the JSON text of every value, a string with its
// quotes (engine/store), so that each value keeps its JSON type and
// json_extract reads every row. Two forms that read such a column as if
// it held bare strings are refused before any request, because they
// would silently give no rows or ask the API for a quoted value:

// checkJSONLiterals refuses `col = 'text'` (or an IN list of such texts)
// on a JSON column of the scan's rows when no text is JSON: no value of
// the column can equal it.
func (n *node) checkJSONLiterals(s *Scan) error {
	cols := make([]string, 0, len(n.lits))
	for col := range n.lits {
		cols = append(cols, col)
	}
	sort.Strings(cols)
	for _, col := range cols {
		c := s.Method.Column(col)
		if c == nil || c.Type != providers.TypeJSON || s.Method.Param(col) != nil {
			continue
		}
		for _, x := range n.lits[col] {
			if len(x.Raw) == 0 || len(x.Raw) != len(x.Values) {
				continue
			}
			matchable := false // some literal of the conjunct can equal a value
			for i, raw := range x.Raw {
				matchable = matchable || raw == "" || raw[0] != '\'' || json.Valid([]byte(x.Values[i]))
			}
			if matchable {
				continue
			}
			for _, raw := range x.Raw[:1] {
				name := c.Name
				if x.Qualifier != "" {
					name = x.Qualifier + "." + c.Name
				}
				pred := fmt.Sprintf("`%s = %s`", name, raw)
				if x.Op == sqlfront.OpIn {
					pred = fmt.Sprintf("`%s IN (... %s ...)`", name, raw)
				}
				return errorf(s.Ref.Name(), "%s is never true: %s is a JSON column, whose values are JSON text (a string keeps its quotes), so compare its string value: %s ->> '$' = %s", pred, c.Name, name, raw)
			}
		}
	}
	return nil
}

// checkJSONBinding refuses binding a parameter from a bare JSON column
// of another table (ON c.customer = ch.customer): its strings would be
// sent with their quotes and its objects as JSON text.
func checkJSONBinding(s *Scan, me string, d depCand) error {
	if d.conj == nil || d.conj.Op != sqlfront.OpCol || d.source == nil || d.source.scan == nil {
		return nil
	}
	qual, col := d.conj.Qualifier, d.conj.Column
	if strings.EqualFold(qual, me) {
		qual, col = d.conj.RefQualifier, d.conj.RefColumn
	}
	c := d.source.scan.Method.Column(col)
	if c == nil || c.Type != providers.TypeJSON {
		return nil
	}
	src := qual + "." + c.Name
	return errorf(s.Ref.Name(), "%s is a JSON column (its values are JSON text: a string keeps its quotes, an object is its JSON), so it cannot bind a parameter as it is; bind from the value you mean: json_extract(%s, '$') for a string, or coalesce(json_extract(%s, '$.id'), json_extract(%s, '$')) when it is an ID or an expanded object", src, src, src, src)
}
