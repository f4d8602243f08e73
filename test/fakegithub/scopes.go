package fakegithub

// WithOAuthScopes makes every API answer carry "X-OAuth-Scopes: scopes",
// as GitHub's answers to a classic personal access token do (e.g.
// "repo, read:org"). Without it the header is absent, as for a GitHub App
// or a fine-grained token.
func WithOAuthScopes(scopes string) Option {
	return func(s *Server) { s.oauthScopes = &scopes }
}
