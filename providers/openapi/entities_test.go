package openapi

import (
	"strings"
	"testing"
)

func TestNormalizeEntity(t *testing.T) {
	for in, want := range map[string]string{
		"minimal-repository": "repository", "full-repository": "repository", "nullable-repository": "repository",
		"simple-user": "user", "public-user": "user", "private-user": "user", "nullable-simple-user": "user",
		"team-simple": "team", "team-full": "team", "organization-full": "organization", "organization-simple": "organization",
		"organization-invitation": "invitation", "short-branch": "branch", "branch-with-protection": "branch",
		"dependabot-alert-with-repository": "dependabot-alert", "contributor": "contributor", "full": "full",
	} {
		if got := NormalizeEntity(in); got != want {
			t.Errorf("NormalizeEntity(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlural(t *testing.T) {
	for in, want := range map[string]string{
		"repo": "repos", "code": "code", "repository": "repositories", "branch": "branches", "status": "status",
		"key": "keys", "address": "addresses", "metadata": "metadata",
	} {
		if got := Plural(in); got != want {
			t.Errorf("Plural(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Whether the repository is archived.":                         "Whether the repository is archived.",
		"The id. See [the docs](https://x/y) for more.\n\nMore text.": "The id.",
		"Use e.g. the name. Then more":                                "Use e.g. the name.",
		"  spaced\n  out  ":                                           "spaced out",
		strings.Repeat("word ", 40):                                   strings.TrimSpace(strings.Repeat("word ", 23)) + "...",
	} {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}
