// Package fakegithub is an in-process (or standalone, see cmd/fakegithub)
// fake of the GitHub REST API for end-to-end tests and benchmarks: a
// deterministic dataset, real pagination (per_page/page, RFC 8288 Link
// headers with absolute URLs built from the request Host), rate-limit
// headers, GitHub's JSON error bodies, a request log and injectable faults.
//
//	s := fakegithub.New()            // 127.0.0.1:random
//	defer s.Close()
//	s.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Page: 2, Kind: fakegithub.KindRateLimit})
//	... point the client at s.URL() ...
//	for _, r := range s.Requests() { ... }
//
// # Protocol
//
// Lists take per_page (default 30, capped at 100; invalid = 30) and page
// (default 1; invalid = 1; past the end = []). Link carries rel="prev",
// "next", "last", "first" (GitHub's order) and is omitted when everything
// fits on page 1. Every API response carries X-RateLimit-Limit 5000,
// -Remaining (5000 - requests so far), -Reset (server start + 1h), -Used,
// -Resource core; a 304 to a request with an Authorization header is not
// a request so far (GitHub does not count it), an anonymous one is. Errors are {"message", "documentation_url", "status"}
// ("status" a string, like GitHub); unknown paths and methods other than
// GET are 404 "Not Found". Hypermedia fields in bodies (url, html_url, ...)
// always use https://api.github.com and https://github.com so rows are
// stable; only Link uses the server's own address. The org dependabot and
// secret-scanning lists are paged by page number here (GitHub uses cursors
// for dependabot).
//
// Caching headers are GitHub's: a 200 carries a weak ETag (a hash of the
// body), "Cache-Control: private, max-age=60, s-maxage=60" and "Vary:
// Accept, Authorization, Cookie, X-GitHub-OTP"; a GET whose If-None-Match
// matches gets 304 with no body, free of rate limit when the request
// carries credentials (with or without WithLimits). Search answers are "Cache-Control:
// no-cache" without an ETag. The request log records If-None-Match and
// If-Modified-Since; SetBranchProtection changes data between two runs.
//
// WithToken makes Authorization mandatory (401 "Requires authentication" /
// "Bad credentials"); by default any or no token is accepted.
//
// WithLimits models GitHub's rate limiter (limiter.go): a concurrency
// limit, points per window (scaled down: e.g. 200 per second for 900 per
// minute), and primary buckets (core, search, code_search) with their
// x-ratelimit-* headers and /rate_limit. A secondary limit is answered 403
// "You have exceeded a secondary rate limit" with Retry-After, and so is
// every request during that wait; a spent bucket is answered 403 "API
// rate limit exceeded" with x-ratelimit-remaining: 0. LimiterStats counts
// trips and limited answers.
//
// WithApp requires GitHub App installation tokens (app.go): POST
// /app/installations/{id}/access_tokens verifies the app's RS256 JWT with
// its public key and issues tokens that expire after TokenTTL. With
// App.Installations the app is installed on several accounts: GET
// /app/installations lists them (JWT, paginated), each token serves only
// its installation's account (another account's /orgs, /repos or /users
// path answers 404), and AppServed counts the requests of each
// installation by account.
//
// # Endpoints (GET)
//
//	/rate_limit                        resources{core,search,graphql,...}, rate
//	/zen                               text/plain: one of ZenSayings, the next in turn per request
//	/versions                          ["2022-11-28"] (APIVersions)
//	/repositories                      public repositories of AuthUser, the built-in and
//	                                   WithRepos orgs (not scale-N) as minimal-repository,
//	                                   ascending id, PublicReposPage (100) a page whatever
//	                                   per_page; paginated by since alone (a repository id:
//	                                   greater ids only; not an integer: 422): Link has only
//	                                   rel="next", to since=<the page's last id>, none on the
//	                                   last page (921 repositories, 10 pages)
//	/user, /user/repos                 AuthUser "octocat" and its 5 repos (visibility=)
//	/users/{u}, /users/{u}/repos       octocat, org members/contractors, orgs (public repos)
//	/orgs/{org}                        organization-full
//	/orgs/{org}/repos                  type=all|public|private|forks|sources, sort, direction
//	/orgs/{org}/members                filter=all|2fa_disabled, role=all|admin|member
//	/orgs/{org}/outside_collaborators  filter=all|2fa_disabled
//	/orgs/{org}/teams, /orgs/{org}/hooks
//	/orgs/{org}/dependabot/alerts      state, severity, ecosystem, package (comma lists), direction
//	/orgs/{org}/secret-scanning/alerts state, secret_type, resolution, validity
//	/repos/{o}/{r}                     full-repository
//	/repos/{o}/{r}/issues[/{n}]        state=open|closed|all; pulls appear with "pull_request"
//	/repos/{o}/{r}/issues/{n}/comments issue-comment, ascending id; since (timestamp: updated
//	                                   at or after; not one: 422); unknown n 404
//	/repos/{o}/{r}/pulls               state
//	/repos/{o}/{r}/actions/runs        {"total_count", "workflow_runs"}; status, event, branch
//	/repos/{o}/{r}/branches[/{b}]      protected=true|false; unknown branch 404 "Branch not found"
//	/repos/{o}/{r}/branches/{b}/protection   404 "Branch not protected" when not protected
//	/repos/{o}/{r}/collaborators       affiliation=outside|all
//	/orgs/{org}/members/{u}            204 member; 404 "Not Found" not a member; 302 to
//	                                   /orgs/{org}/public_members/{u} when the caller is
//	                                   not an org member (token NonMemberToken)
//	/orgs/{org}/public_members/{u}     204 for public members (odd member numbers), else 404
//	/orgs/{org}/invitations            one pending invitation per 10 members (invitee-N)
//	/orgs/{org}/failed_invitations     failed-invitee-1 when there are invitations
//	/repos/{o}/{r}/contributors        1 + idx%3 org members, contributions 100/j + idx
//	/search/code                       q=org:NAME [WORDS]: each matching repo's README.md
//	                                   (served like /search/repositories, below)
//	/search/repositories               q required (422); q=org:NAME [topic:T] [created:R]
//	                                   [words] lists NAME's matching repos as
//	                                   {"total_count","incomplete_results","items"};
//	                                   no-cache, no ETag. created: takes >D, >=D, <D,
//	                                   <=D, A..B (* for either side) or D, where D is a
//	                                   date (its whole day, UTC) or a time with a UTC
//	                                   offset; several created: must all hold. Only the
//	                                   first SearchCap (1,000) matches are served:
//	                                   Link stops at the page holding the last of them,
//	                                   a page starting past them answers 422 "Only the
//	                                   first 1000 search results are available", and
//	                                   total_count counts every match
//	POST /app/installations/{id}/access_tokens   WithApp only
//	/app/installations                           WithApp only (JWT)
//
// # Admin (out of process; never logged or faulted)
//
//	POST /_fake/faults (Fault JSON or array; "delay":"250ms" or "delay_ms":250)
//	GET|DELETE /_fake/faults, GET|DELETE /_fake/requests, POST /_fake/reset
//
// Fault JSON example: {"path":"^/orgs/acme/repos$","page":2,"times":1,
// "kind":"status","status":502}. Kinds: status, rate_limit,
// secondary_rate_limit, too_many_requests, reset, slow, malformed,
// truncated, oversized, link_loop, body (Status and Body served as is),
// link_elsewhere (next link bent to
// "location", another path), redirect ("status" 3xx to "location"),
// incomplete_results (search answers "incomplete_results": true) (see the
// Kind constants), huge_number, deep_nesting, link_endless (rel="next"
// to the following page, forever), link_huge_cursor (a next link with a
// "size"-byte cursor, default 8 MiB). "reset" sets rate_limit's X-RateLimit-Reset verbatim.
//
// # Dataset
//
// Everything derives from indexes, so it is identical on every run and
// nothing is stored. Repository i (0-based) of any org:
//
//	name            acme: repo-000..repo-249; tiny: alpha, beta, gamma;
//	                scale-N and WithRepos orgs: repo-%0*d, width max(3, digits(N-1))
//	id              acme 500000000+i, tiny 510000000+i
//	private         i%3 != 0 (visibility "private"), else public
//	archived        i%10 == 9
//	fork            i%20 == 5 (parent/source: octocat/hello-world)
//	language        Go, Python, TypeScript, null by i%4
//	license         MIT, Apache-2.0, null, BSD-3-Clause, null by i%5 (key/name/spdx_id)
//	topics          lower(language) if any, + "infra" if i%7==0, + "deprecated" if i%11==0
//	default_branch  "master" if i%25 == 0, else "main"
//	description     null if i%6 == 5, else "<Org> service <i>"
//	homepage        https://<org>.example.com/<name> if i%8 == 0, else null
//	stars           (37*i)%500 (= watchers); forks_count (13*i)%40; size 100*i+17
//	permissions     admin (and maintain) if i%9==0; push/triage unless archived; pull
//	created_at      2020-01-01T00:00:00Z + i hours; updated +30d, pushed +29d
//	                (so default sort created desc lists repo-249 first;
//	                sort=full_name is ascending by name)
//	issues          numbers 1..i%5 open issues, then i%3 closed issues, then
//	                i%4 open pulls, then i%2 closed pulls (merged if number even);
//	                listed newest (highest number) first; open_issues_count = i%5 + i%4;
//	                open pull n is a draft when n%5 == 0; label bug (n%3==0), enhancement (n%3==1)
//	comments        item n has n%4 comments ("comments"), 20 minutes apart from its creation;
//	                comment j is by member (n+i+j-1)%members+1 (j=1: the item's author;
//	                octocat's repos: octocat), comment 2 edited 5 minutes later;
//	                id 10^15 + (item id)*10 + j
//	actions runs    i%6 runs, newest first; run j: event push/pull_request/schedule by j%3,
//	                conclusion success,success,failure,cancelled by (i+j)%4; the newest
//	                run is in_progress (conclusion null) when i%12 == 5
//	branches        default branch + dev-1..dev-(i%3), sorted by name; the default
//	                branch is protected when i%4 == 0 (enforce_admins when i%8 == 0)
//	collaborators   the org admins (admin) + <org>-contractor-1 (write) on private repos
//
// Org "acme" (id 9000001), AcmeRepos = 250 repositories (3 pages at
// per_page=100, 9 at the default 30):
//
//	public 84, private 166, archived 25 (9 of them public), forks 13 (sources 237)
//	language Go 63, Python 63, TypeScript 62, null 62; license null 100
//	default_branch master 10; protected default branch 63; description null 41
//	topics: infra 36, deprecated 23
//	issues: 500 open + 249 closed; pulls: 373 open + 125 closed (67 merged);
//	open_issues_count sum 873; issue comments 1930; workflow runs 621 (21 in progress); branches 499
//	members 40: acme-dev-01..acme-dev-40, admins 01..03; 2fa_disabled: 08,16,24,32,40
//	outside collaborators 6: acme-contractor-1..6; 2fa_disabled: 2,4,6
//	teams 8: Platform, Security, Frontend, Backend, Data, SRE, Mobile, Docs
//	        (privacy secret: Security, SRE; others closed)
//	hooks 4: ids 90000011..14; insecure_ssl "1" for hooks 2 and 4; hook 3 inactive
//	dependabot alerts 60 (number k=1..60, repo repo-(7k%250)):
//	        state by k%5: 0,1,2 open (36), 3 fixed (12), 4 dismissed (12);
//	        severity by (k-1)%4: critical, high, medium, low (15 each; open critical 9);
//	        ecosystem/package by (k-1)%3: npm/lodash, pip/django, go/golang.org/x/net
//	secret scanning alerts 12 (k=1..12, repo repo-(11k%250)): resolved when k%3==0
//	        (4: revoked if k even else false_positive), open 8;
//	        secret_type by (k-1)%3: github_personal_access_token, aws_access_key_id,
//	        slack_api_token; validity active, inactive, unknown
//
// Org "sprawl" (id 9000003): SprawlRepos = 2,500 repositories repo-0000..
// repo-2499 with the formulas above, except created_at: 2020-01-01 + i *
// 17 hours (to 2024-11-05T03:00Z), so a search for all of them is past
// the search cap and spread over years.
//
// Org "tiny" (id 9000002): repos alpha (public, Go, MIT, master, protected),
// beta (private, Python, Apache-2.0), gamma (private, TypeScript, no license);
// members tiny-dev-01 (admin), tiny-dev-02; outside tiny-contractor-1;
// team Core; 1 hook (secure); 3 dependabot alerts (open critical, open high,
// fixed medium); 1 secret scanning alert (open); pulls beta #3 (open, 3
// comments), beta #4 (closed), gamma #5 and #6 (open, 1 and 2 comments),
// issue comments 15.
//
// Orgs "scale-N" (0 <= N <= 10,000,000, N written without leading zeros)
// have N repositories generated lazily per page, and no members, teams,
// hooks or alerts; WithRepos(org, n) resizes or creates an org the same way.
// Unknown orgs are 404.
//
// Orgs "comply-pass", "comply-fail" and "comply-denied" (compliance.go) are
// the ground truth of engine check's github pack: every endpoint the pack
// reads answers for them (org settings, Actions permissions, runner
// groups, runners, secrets, hooks, members, alerts, repositories and, per
// repository, protection, ruleset rules, keys, hooks, collaborators,
// environments...). Every control passes on comply-pass (repository app
// protected by classic protection, lib by ruleset rules), fails on
// comply-fail (repositories legacy, unprotected, and weak, protected with
// every setting off), and errors on comply-denied, where every path under
// /orgs/comply-denied and /repos/comply-denied answers 403. Org
// "comply-member" is comply-fail as a member who is not an owner sees it:
// its org settings and its repositories' security_and_analysis are left
// out, as GitHub does for such a token.
// WithOAuthScopes adds X-OAuth-Scopes to every answer, as for a classic
// token.
//
// AuthUser "octocat" (id 583231) owns blog, dotfiles, hello-world, notes,
// spoon-knife (indexes 4,1,0,3,2 of the formulas: hello-world and notes
// are public); GET /user/repos lists all 5 sorted by full_name.
package fakegithub
