package openapi

import (
	"cmp"
	"sort"
	"strconv"
	"strings"

	"github.com/enginehq/engine/providers"
)

// AssignSQLNames gives every parameter and column of each resource its SQL
// name (see the package documentation, "Identifiers"): the name the API
// uses, as written; SQL compares identifiers ignoring case, so
// subscriptionId, AccountSid or issueIdOrKey bind however they are
// written. Names of one resource that are equal ignoring case but spelled
// differently (organizerKey and OrganizerKey, a parameter id and a column
// Id) are told apart: the first keeps its name, the others get a suffix
// _2, _3, ... (OrganizerKey, organizerKey_2), in a fixed order: parameters
// before columns, then byte order of the API spelling. A parameter and a
// column spelled exactly alike stay one name (the bound value is the
// column). The API spelling is kept in Param.API / Column.API when it
// differs from the SQL name, and Resource.Docs is keyed by SQL name. A
// query (or header) parameter spelled like a path parameter of the same
// method is one SQL name with it: the value is sent in the path and, for
// a query parameter, in the query too (Param.AlsoQuery).
func AssignSQLNames(resources []*providers.Resource) {
	for _, r := range resources {
		assignResource(r)
	}
}

func assignResource(r *providers.Resource) {
	for _, m := range r.Methods {
		dropShadowedQuery(m)
	}
	seen := map[string]bool{}
	var params, cols []string
	for _, m := range r.Methods {
		for _, p := range m.Params {
			if !seen[p.Key()] {
				seen[p.Key()] = true
				params = append(params, p.Key())
			}
		}
	}
	for _, m := range r.Methods {
		for _, c := range m.Columns {
			if !seen[c.Key()] {
				seen[c.Key()] = true
				cols = append(cols, c.Key())
			}
		}
	}
	sort.Strings(params)
	sort.Strings(cols)
	order := append(params, cols...)

	sqlOf := make(map[string]string, len(order))
	taken := map[string]bool{}
	var later []string
	lowerSeen := map[string]bool{}
	for api := range seen {
		lowerSeen[strings.ToLower(api)] = true
	}
	for _, api := range order {
		l := strings.ToLower(api)
		if taken[l] {
			later = append(later, api)
			continue
		}
		taken[l] = true
		sqlOf[api] = api
	}
	for _, api := range later {
		for i := 2; ; i++ {
			n := api + "_" + strconv.Itoa(i)
			if l := strings.ToLower(n); !taken[l] && !lowerSeen[l] {
				taken[l] = true
				sqlOf[api] = n
				break
			}
		}
	}

	// rename gives a name its SQL spelling, keeping the API's in api when
	// the two differ.
	rename := func(name, api *string) {
		key := cmp.Or(*api, *name) // as Column.Key and Param.Key
		*name, *api = sqlOf[key], ""
		if *name != key {
			*api = key
		}
	}
	for _, m := range r.Methods {
		for i := range m.Params {
			rename(&m.Params[i].Name, &m.Params[i].API)
		}
		for i := range m.Columns {
			rename(&m.Columns[i].Name, &m.Columns[i].API)
		}
		sort.SliceStable(m.Columns, func(i, j int) bool { return m.Columns[i].Name < m.Columns[j].Name })
	}
	if len(r.Docs) > 0 {
		docs := make(map[string]string, len(r.Docs))
		for k, v := range r.Docs {
			if n, ok := sqlOf[k]; ok {
				docs[n] = v
			} else {
				docs[k] = v
			}
		}
		r.Docs = docs
	}
}

// dropShadowedQuery removes a query parameter spelled like a path
// parameter of the same method (a document declaring {token} in the path
// and ?token= too, as Trello's /tokens/{token} does): one SQL name binds
// both, so the path parameter keeps the name and its value is sent in the
// query as well (Param.AlsoQuery).
func dropShadowedQuery(m *providers.Method) {
	inPath := map[string]int{}
	for i, p := range m.Params {
		if p.In == providers.InPath {
			inPath[p.Key()] = i
		}
	}
	var also []int
	kept := m.Params[:0]
	for _, p := range m.Params {
		if i, ok := inPath[p.Key()]; ok && p.In != providers.InPath {
			if p.In == providers.InQuery {
				also = append(also, i)
			}
			continue
		}
		kept = append(kept, p)
	}
	m.Params = kept
	for _, i := range also {
		m.Params[i].AlsoQuery = true // path parameters come first: i is unchanged
	}
}
