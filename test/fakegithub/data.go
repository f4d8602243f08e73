package fakegithub

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"sync"
	"time"
)

// All data is computed from small formulas over indexes (see doc.go), so
// nothing is stored and scale-N orgs cost no memory.

const (
	apiBase = "https://api.github.com"
	webBase = "https://github.com"

	// AuthUser is the login returned by GET /user.
	AuthUser = "octocat"
	// AcmeRepos is the number of repositories of org "acme".
	AcmeRepos = 250
	// SprawlRepos is the number of repositories of org "sprawl", created
	// one every SprawlSpacing from 2020-01-01: more than a search serves
	// (SearchCap), spread over years.
	SprawlRepos   = 2500
	SprawlSpacing = 17 * time.Hour
	// MaxScaleRepos bounds the N of scale-N orgs.
	MaxScaleRepos = 10_000_000
)

var epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// day returns epoch + d days + h hours as a GitHub timestamp.
func day(d, h int) string { return ts(epoch.AddDate(0, 0, d).Add(time.Duration(h) * time.Hour)) }

// nodeID is GitHub's legacy global node id: base64("NNN:TypeID").
func nodeID(typ string, id int64) string {
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("%03d:%s%d", len(typ), typ, id)))
}

func hashID(s string) int64 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return int64(h.Sum32() % 80_000_000)
}

// orgSpec describes an organisation; everything else derives from indexes.
type orgSpec struct {
	login      string
	id         int64
	repoBase   int64 // repository id = repoBase + index
	repos      int
	names      []string // explicit repo names, else repo-%0*d
	nameWidth  int
	members    int // logins <org>-dev-01..; admins are 1..admins
	admins     int
	outside    int // logins <org>-contractor-1..
	teams      []string
	hooks      int
	dependabot int
	secrets    int
	// spacing is the time between two repositories' creation (0: an hour).
	spacing time.Duration

	ownerOnce sync.Once
	owner     json.RawMessage // cached encoded owner (simple-user)
}

// ownerRaw is the org as a repository owner, encoded once.
func (o *orgSpec) ownerRaw() json.RawMessage {
	o.ownerOnce.Do(func() { o.owner, _ = json.Marshal(orgUser(o)) })
	return o.owner
}

func widthFor(n int) int { return max(3, len(strconv.Itoa(max(n-1, 0)))) }

func newOrgSpec(login string, n int) *orgSpec {
	return &orgSpec{
		login:     login,
		id:        20_000_000 + hashID(login),
		repoBase:  1_000_000_000 + hashID(login)*1000,
		repos:     n,
		nameWidth: widthFor(n),
	}
}

func builtinOrgs() map[string]*orgSpec {
	acme := &orgSpec{
		login: "acme", id: 9_000_001, repoBase: 500_000_000, repos: AcmeRepos, nameWidth: 3,
		members: 40, admins: 3, outside: 6,
		teams:      []string{"Platform", "Security", "Frontend", "Backend", "Data", "SRE", "Mobile", "Docs"},
		hooks:      4,
		dependabot: 60,
		secrets:    12,
	}
	tiny := &orgSpec{
		login: "tiny", id: 9_000_002, repoBase: 510_000_000, repos: 3, nameWidth: 3,
		names:   []string{"alpha", "beta", "gamma"},
		members: 2, admins: 1, outside: 1,
		teams:      []string{"Core"},
		hooks:      1,
		dependabot: 3,
		secrets:    1,
	}
	sprawl := &orgSpec{
		login: "sprawl", id: 9_000_003, repoBase: 520_000_000, repos: SprawlRepos, nameWidth: 4,
		spacing: SprawlSpacing,
	}
	return map[string]*orgSpec{"acme": acme, "tiny": tiny, "sprawl": sprawl}
}

// org resolves an org login (built-in, WithRepos or scale-N); a built-in
// login matches in any case, as GitHub's do.
func (s *Server) org(login string) (*orgSpec, bool) {
	if o, ok := s.orgs[login]; ok {
		return o, true
	}
	if o, ok := s.orgs[strings.ToLower(login)]; ok {
		return o, true
	}
	if rest, ok := strings.CutPrefix(login, "scale-"); ok {
		n, err := strconv.Atoi(rest)
		if err == nil && n >= 0 && n <= MaxScaleRepos && strconv.Itoa(n) == rest {
			return newOrgSpec(login, n), true
		}
	}
	return nil, false
}

// RepoName is the name of the i-th repository of org (0-based), "" for
// an unknown org or index.
func (s *Server) RepoName(org string, i int) string {
	o, ok := s.org(org)
	if !ok || i < 0 || i >= o.repos {
		return ""
	}
	return o.repoName(i)
}

func (o *orgSpec) repoName(i int) string {
	if o.names != nil {
		return o.names[i]
	}
	return fmt.Sprintf("repo-%0*d", o.nameWidth, i)
}

func (o *orgSpec) repoIndex(name string) (int, bool) {
	if o.names != nil {
		for i, n := range o.names {
			if n == name {
				return i, true
			}
		}
		return 0, false
	}
	rest, ok := strings.CutPrefix(name, "repo-")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(rest)
	if err != nil || i < 0 || i >= o.repos || o.repoName(i) != name {
		return 0, false
	}
	return i, true
}

// repo identifies one repository; all its attributes derive from idx.
type repo struct {
	owner     string
	ownerID   int64
	ownerType string // Organization or User
	org       *orgSpec
	idx       int
	name      string
	id        int64
	// protOverride, when set, replaces protected() (SetBranchProtection).
	protOverride *bool
}

func (o *orgSpec) repo(i int) repo {
	return repo{owner: o.login, ownerID: o.id, ownerType: "Organization", org: o, idx: i, name: o.repoName(i), id: o.repoBase + int64(i)}
}

// userRepoNames are the repositories of AuthUser.
var userRepoNames = []string{"hello-world", "dotfiles", "spoon-knife", "notes", "blog"}

const authUserID = 583231

func userRepo(i int) repo {
	return repo{owner: AuthUser, ownerID: authUserID, ownerType: "User", idx: i, name: userRepoNames[i], id: 300_000_000 + int64(i)}
}

// created is epoch + idx hours (idx times the org's spacing), so creation
// order is index order.
func (r repo) created() time.Time {
	step := time.Hour
	if r.org != nil && r.org.spacing > 0 {
		step = r.org.spacing
	}
	return epoch.Add(time.Duration(r.idx) * step)
}

func (r repo) fullName() string { return r.owner + "/" + r.name }
func (r repo) private() bool    { return r.idx%3 != 0 }
func (r repo) archived() bool   { return r.idx%10 == 9 }
func (r repo) fork() bool       { return r.idx%20 == 5 }
func (r repo) protected() bool {
	if r.protOverride != nil {
		return *r.protOverride
	}
	return r.idx%4 == 0
}
func (r repo) visibility() string {
	if r.private() {
		return "private"
	}
	return "public"
}

func (r repo) defaultBranch() string {
	if r.idx%25 == 0 {
		return "master"
	}
	return "main"
}

var languages = []string{"Go", "Python", "TypeScript", ""}

func (r repo) language() string { return languages[r.idx%4] }

type license struct{ key, name, spdx string }

var licenses = []*license{
	{"mit", "MIT License", "MIT"},
	{"apache-2.0", "Apache License 2.0", "Apache-2.0"},
	nil,
	{"bsd-3-clause", "BSD 3-Clause \"New\" or \"Revised\" License", "BSD-3-Clause"},
	nil,
}

func (r repo) license() *license { return licenses[r.idx%5] }

func (r repo) topics() []string {
	t := []string{}
	if l := r.language(); l != "" {
		t = append(t, strings.ToLower(l))
	}
	if r.idx%7 == 0 {
		t = append(t, "infra")
	}
	if r.idx%11 == 0 {
		t = append(t, "deprecated")
	}
	return t
}

// Issue and pull request counts of a repository. Numbers 1..oi are open
// issues, then closed issues, then open pulls, then closed pulls.
func (r repo) openIssues() int   { return r.idx % 5 }
func (r repo) closedIssues() int { return r.idx % 3 }
func (r repo) openPulls() int    { return r.idx % 4 }
func (r repo) closedPulls() int  { return r.idx % 2 }
func (r repo) runs() int         { return r.idx % 6 }
func (r repo) extraBranches() int {
	return r.idx % 3
}

// Member logins.
func memberLogin(org string, j int) string  { return fmt.Sprintf("%s-dev-%02d", org, j) }
func outsideLogin(org string, j int) string { return fmt.Sprintf("%s-contractor-%d", org, j) }
func member2FADisabled(j int) bool          { return j%8 == 0 }
func outside2FADisabled(j int) bool         { return j%2 == 0 }

// userID is a stable id for any user login.
func userID(login string) int64 {
	if login == AuthUser {
		return authUserID
	}
	return 10_000_000 + hashID(login)
}

// lookupUser resolves a user login: AuthUser, an org member or an outside
// collaborator of a built-in or WithRepos org.
func (s *Server) lookupUser(login string) bool {
	if login == AuthUser {
		return true
	}
	for _, o := range s.orgs {
		for j := 1; j <= o.members; j++ {
			if memberLogin(o.login, j) == login {
				return true
			}
		}
		for j := 1; j <= o.outside; j++ {
			if outsideLogin(o.login, j) == login {
				return true
			}
		}
	}
	return false
}
