package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// nearest keeps names a typo away, at most three, closest first.
func TestNearest(t *testing.T) {
	cands := []string{"repos", "orgs", "issues", "pulls", "actions", "repository", "users"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"repo", []string{"repos"}},
		{"isues", []string{"issues"}},
		{"Pull", []string{"pulls"}},
		{"zzzzzz", nil},
		{"repos", nil}, // the name itself is not a suggestion
		{"x", nil},
	} {
		if got := nearest(tc.name, cands); !slices.Equal(got, tc.want) {
			t.Errorf("nearest(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	many := []string{"ab1", "ab2", "ab3", "ab4", "ab5"}
	if got := nearest("abc", many); len(got) != maxSuggestions {
		t.Errorf("nearest(abc) = %v, want %d names", got, maxSuggestions)
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		s    []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "did you mean a?"},
		{[]string{"a", "b"}, "did you mean a or b?"},
		{[]string{"a", "b", "c"}, "did you mean a, b or c?"},
	} {
		if got := (&NotFound{Suggestions: tc.s}).DidYouMean(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.s, got, tc.want)
		}
	}
}

// A table name that is an operation's name without its verb (zen for
// get_zen) suggests that table when nothing is a typo away.
func TestSuggestsTheVerbedName(t *testing.T) {
	checkDidYouMean(t, []didYouMeanCase{
		{"meta", "zen", "did you mean github.meta.get_zen?"},
		{"meta", "ZEN", "did you mean github.meta.get_zen?"},
		{"repos", "topic", "did you mean github.repos.topics?"},
	})
}

// didYouMeanCase is an unknown table github.service.name and the
// suggestions its error words.
type didYouMeanCase struct{ service, name, want string }

func checkDidYouMean(t *testing.T, cases []didYouMeanCase) {
	t.Helper()
	c := New(nil, Options{})
	for _, tc := range cases {
		_, err := c.Resource("github", tc.service, tc.name)
		var nf *NotFound
		if !errors.As(err, &nf) || nf.DidYouMean() != tc.want {
			t.Errorf("%s.%s: %v; want %q", tc.service, tc.name, err, tc.want)
		}
	}
}

// A name of one or two parts is read as a table name with parts left out
// when it is about the catalog: a provider first, or a service or table
// of the default provider; anything else is left to SQLite (nil).
func TestShortName(t *testing.T) {
	c := New(nil, Options{})
	for _, tc := range []struct {
		name, service string
		want          []string
	}{
		{"github", "", nil},
		{"github.repos", "repos", []string{"github.repos.repos", "github.interactions.repos", "github.search.repos"}},
		{"github.repo", "", []string{"github.repos.repos", "github.interactions.repos", "github.search.repos"}},
		{"github.actions", "actions", nil},
		{"github.zzzzzz", "", nil},
		{"repos", "repos", []string{"github.repos.repos", "github.interactions.repos", "github.search.repos"}},
		{"members", "", []string{"github.orgs.members", "github.teams.members"}},
		{"repos.repos", "repos", []string{"github.repos.repos"}},
		{"repos.lst_for_org", "repos", []string{"github.repos.repos (method list_for_org)"}},
		{"actions.zzzzzz", "actions", nil},
		{"github.repositories", "", []string{"github.repos.repos", "github.actions.repositories", "github.agents.repositories"}},
		{"repository", "", []string{"github.repos.repos"}},
		{"github.organizations", "", []string{"github.orgs.orgs", "github.codespaces.organizations"}},
	} {
		nf := c.ShortName(strings.Split(tc.name, "."))
		if nf == nil {
			t.Errorf("%s: nil", tc.name)
			continue
		}
		if nf.Short != tc.name || nf.Provider != "github" || nf.Service != tc.service || !slices.Equal(nf.Suggestions, tc.want) {
			t.Errorf("%s: %+v; want service %q, suggestions %v", tc.name, nf, tc.service, tc.want)
		}
		if !strings.HasPrefix(nf.Error(), "no table "+tc.name+": tables are named provider.service.resource") {
			t.Errorf("%s: %q", tc.name, nf.Error())
		}
	}
	for _, name := range []string{"nope", "sqlite_schema", "main.repos", "nope.repos", "a.b.c", ""} {
		if nf := c.ShortName(strings.Split(name, ".")); nf != nil {
			t.Errorf("%s: %+v, want nil", name, nf)
		}
	}
}

// An unknown provider suggests the closest providers, else the default
// provider's table its other parts name (the provider left out).
func TestUnknownProviderSuggestions(t *testing.T) {
	c := New(nil, Options{})
	for _, tc := range []struct {
		provider, service, name string
		want                    []string
	}{
		{"gitub", "repos", "repos", []string{"github"}},
		{"repos", "repos", "list_for_org", []string{"github.repos.repos"}},
		{"gitlab", "repos", "repos", nil},
	} {
		_, err := c.Resource(tc.provider, tc.service, tc.name)
		nf, _, ok := AsNotFound(err)
		if !ok || nf.Provider != tc.provider || !slices.Equal(nf.Suggestions, tc.want) {
			t.Errorf("%s.%s.%s: %v; want suggestions %v", tc.provider, tc.service, tc.name, err, tc.want)
		}
	}
}

// A table of the very name asked for in another service is suggested
// before the names a typo away: github.repos.branches is
// github.branches.branches.
func TestSuggestsTheSameNameInAnotherService(t *testing.T) {
	checkDidYouMean(t, []didYouMeanCase{
		{"repos", "branches", "did you mean github.branches.branches or github.commits.branches?"},
		{"repos", "branch_protection", "did you mean github.branches.branch_protection?"},
		{"repo", "branches", "did you mean github.branches.branches or github.commits.branches?"},
		{"repos", "repo", "did you mean github.repos.repos?"},
		// a method of the name in the service outranks it
		{"repos", "get", "did you mean github.repos.repos (method get) or github.pulls.get?"},
		// an unknown service: the closest service's names, if any, say more
		{"repo", "get", "did you mean github.repos.repos (method get)?"},
	})
}

// A service abbreviates a word when it begins with the word's first
// letters and its letters, without a plural s, come in the word in order.
func TestAbbreviates(t *testing.T) {
	for _, tc := range []struct {
		svc, name string
		want      bool
	}{
		{"repos", "repositories", true},
		{"repos", "repository", true},
		{"orgs", "organizations", true},
		{"pulls", "pullrequests", true},
		{"repos", "repo", false},            // shorter: a typo, nearest's
		{"repos", "repos", false},           // the service itself
		{"issues", "issue_comments", false}, // several words
		{"repos", "releases", false},
		{"gists", "gitignore", false},
	} {
		if got := abbreviates(tc.svc, tc.name); got != tc.want {
			t.Errorf("abbreviates(%q, %q) = %v, want %v", tc.svc, tc.name, got, tc.want)
		}
	}
}
