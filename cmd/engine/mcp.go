package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/mcpsurface"
)

func newMCPCmd(g *globalFlags) *cobra.Command {
	var (
		transport, listen string
		allowRemote       bool
		caps              mcpsurface.Caps
		maxResource       int
		maxTasks          int
		store             mcpsurface.StoreOptions
		maxBody           int64
		httpOpts          mcpsurface.HTTPOptions
		authOpts          mcpsurface.AuthOptions
	)
	cmd := &cobra.Command{
		Use:   "mcp [--transport stdio|http] [--listen 127.0.0.1:8765]",
		Short: "Serve the engine to MCP clients (LLM agents) over stdio or streamable HTTP",
		Long: `mcp serves the engine as an MCP server: tools run_select_query,
fetch_result_page, list_providers, list_services, list_resources and
describe_resource, and the resource template engine://results/{id}.
Logs go to stderr only. See docs/mcp.md for client configuration.`,
		Example: `  engine mcp
  engine mcp --transport http --listen 127.0.0.1:8765`,
		RunE: func(cmd *cobra.Command, args []string) error {
			g.readOnlyViews = true // agents read views; people create them (exec, shell)
			eng, _, err := g.newEngine()
			if err != nil {
				return err
			}
			g.shareResults(&store)
			// -1 (no cap, the CLI's rule) is the server's 0.
			caps.MaxRows, caps.MaxCell, caps.MaxBytes = unbounded(caps.MaxRows, 0), unbounded(caps.MaxCell, 0), unbounded(caps.MaxBytes, 0)
			srv, err := mcpsurface.New(eng, mcpsurface.Config{Version: serverVersion(), Caps: caps, Store: store, MaxResourceBytes: maxResource, MaxTasks: maxTasks, Log: g.io.Err})
			if err != nil {
				return usageError("%v", err)
			}
			defer srv.Close()
			ctx, stop := stopContext()
			defer stop()
			authGiven := authOpts.Issuer != "" || authOpts.TokensFile != "" || authOpts.JWKSURL != "" || authOpts.Resource != "" || len(authOpts.Scopes) > 0
			switch transport {
			case "stdio":
				// Authorization is the HTTP transport's: over stdio the
				// client is the process that started the server. Given
				// on this command line it is a mistake, refused; from the
				// config file or the environment, which both transports
				// share, it is ignored (docs/mcp.md, "Server settings").
				var explicit, ambient []string
				for _, name := range httpAuthFlags {
					switch {
					case g.fromCommandLine(cmd, name):
						explicit = append(explicit, "--"+name)
					case cmd.Flags().Changed(name):
						ambient = append(ambient, g.where(name))
					}
				}
				if len(explicit) > 0 {
					return usageError("%s: authorization is for HTTP clients; over stdio the client is the process that started the server: drop it, or use --transport http", strings.Join(explicit, ", "))
				}
				if len(ambient) > 0 {
					fmt.Fprintf(g.io.Err, "engine mcp: over stdio these settings are not used (they authorize HTTP clients): %s\n", strings.Join(ambient, "; "))
				}
				finished := make(chan struct{})
				defer close(finished)
				go exitAfterGrace(ctx, g.io.Err, finished, func() { srv.Close() })
				t := &mcpsurface.LineTransport{In: g.io.In, Out: g.io.Out, Log: g.io.Err}
				if err := srv.MCP().Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) {
					return &exitError{code: exitProvider, msg: "error: mcp: " + err.Error()}
				}
				return nil
			case "http":
				httpOpts.MaxBody = maxBody
				for _, d := range []*time.Duration{&httpOpts.ReadTimeout, &httpOpts.WriteTimeout, &httpOpts.IdleTimeout} {
					if *d == 0 {
						*d = -1 // the flag's 0: no bound
					}
				}
				if httpOpts.SessionIdle == 0 {
					httpOpts.SessionIdle = -1 // never
				}
				if authGiven {
					a, err := mcpsurface.NewAuth(authOpts)
					if err != nil {
						return usageError("%v", err)
					}
					if fi, err := os.Stat(authOpts.TokensFile); authOpts.TokensFile != "" && err == nil && fi.Mode().Perm()&0o077 != 0 {
						fmt.Fprintf(g.io.Err, "warning: the tokens file %s is accessible to other users (mode %04o): anyone who can read it can use this server; make it private with chmod 600 %s\n", authOpts.TokensFile, fi.Mode().Perm(), authOpts.TokensFile)
					}
					httpOpts.Auth = a
				}
				return serveMCPHTTP(ctx, g.io.Err, srv, listen, allowRemote, httpOpts)
			}
			return usageError("--transport %q: use stdio or http", transport)
		},
	}
	f := cmd.Flags()
	f.StringVar(&transport, "transport", "stdio", "stdio or http (streamable HTTP)")
	f.StringVar(&listen, "listen", "127.0.0.1:8765", "address of the HTTP transport")
	f.BoolVar(&allowRemote, "allow-remote", false, "allow --listen on a non-loopback address; requires --oauth-issuer or --tokens-file (docs/mcp.md, \"Sharing the server with a team\")")
	f.StringVar(&authOpts.Issuer, "oauth-issuer", "", "HTTP: require OAuth bearer tokens (JWTs) from this authorization server (its issuer URL; https, or http on loopback)")
	f.StringVar(&authOpts.Resource, "oauth-resource", "", "HTTP: this server's MCP URL as clients reach it (e.g. https://mcp.example.com/mcp); tokens must name it as their audience (aud)")
	f.StringVar(&authOpts.JWKSURL, "oauth-jwks-url", "", "HTTP: the issuer's key set (JWKS) URL (default: the jwks_uri of the issuer's metadata)")
	f.StringArrayVar(&authOpts.Scopes, "oauth-scope", nil, "HTTP: a scope every token must carry (repeatable); static tokens carry them all")
	f.StringVar(&authOpts.TokensFile, "tokens-file", "", "HTTP: require a static bearer token from this file (one \"NAME TOKEN\" a line; NAME is the principal)")
	f.IntVar(&caps.MaxRows, "max-rows", mcpsurface.DefaultMaxRows, "mcp_max_rows: most rows in one tool result (-1: no cap)")
	f.IntVar(&caps.MaxCell, "max-cell-bytes", mcpsurface.DefaultMaxCell, "mcp_max_cell_bytes: longest cell in a tool result; a longer one is cut with a marker and a notice, whole in the kept result (-1: no cap)")
	f.IntVar(&caps.MaxBytes, "max-bytes", mcpsurface.DefaultMaxBytes, "mcp_max_bytes: approximate bytes of one tool result, at least one row kept (-1: no cap)")
	f.IntVar(&maxResource, "max-resource-bytes", mcpsurface.DefaultMaxResourceBytes, "mcp_max_resource_bytes: longest rendering of a result resource (engine://results/{id}); a longer one is refused with a pointer to fetch_result_page")
	f.IntVar(&store.MaxResults, "keep-results", mcpsurface.DefaultKeepResults, "most results kept for fetch_result_page and engine://results/{id}")
	f.Int64Var(&store.MaxBytes, "keep-bytes", mcpsurface.DefaultKeepBytes, "most bytes of kept results (least recently used are dropped)")
	f.DurationVar(&store.TTL, "keep-for", mcpsurface.DefaultKeepFor, "how long a result is kept")
	f.IntVar(&maxTasks, "max-tasks", mcpsurface.DefaultMaxTasks, "most statements running as tasks at once (clients that declare the tasks extension); beyond it a new task is refused")
	f.Int64Var(&maxBody, "max-body", mcpsurface.DefaultMaxBody, "largest HTTP request body in bytes")
	f.IntVar(&httpOpts.MaxSessions, "max-sessions", mcpsurface.DefaultMaxSessions, "HTTP: most sessions open at once; beyond it a new session gets 503 with Retry-After (-1: no bound)")
	f.DurationVar(&httpOpts.SessionIdle, "session-idle", mcpsurface.DefaultSessionIdle, "HTTP: close a session after this long without a request (0: never)")
	f.DurationVar(&httpOpts.SessionGrace, "session-grace", mcpsurface.SessionGrace, "HTTP: at --max-sessions, a session idle this long may be closed for a new one; a session used more recently is never closed for another client, which gets 503 and Retry-After instead")
	f.StringArrayVar(&httpOpts.AllowOrigins, "allow-origin", nil, "HTTP: a further browser origin (scheme://host:port) allowed to use the server (repeatable); loopback origins are allowed unless --strict-origin; requests with any other Origin header get 403")
	f.DurationVar(&httpOpts.ReadTimeout, "http-read-timeout", mcpsurface.DefaultReadTimeout, "HTTP: longest time to read one request, body included; a client that stalls is disconnected (0: no bound)")
	f.DurationVar(&httpOpts.WriteTimeout, "http-write-timeout", mcpsurface.DefaultWriteTimeout, "HTTP: longest time to write one response (a tool call's stream; keep it above --query-timeout); a GET event stream is closed after it and the client reconnects (0: no bound)")
	f.DurationVar(&httpOpts.IdleTimeout, "http-idle-timeout", mcpsurface.DefaultIdleTimeout, "HTTP: close a kept-alive connection after this long without a request (0: no bound)")
	f.IntVar(&httpOpts.MaxConnections, "max-connections", mcpsurface.DefaultMaxConnections, "HTTP: most connections served at once; further clients wait until one closes")
	f.BoolVar(&httpOpts.StrictOrigin, "strict-origin", false, "HTTP: serve loopback browser origins (a page on localhost) only when listed with --allow-origin")
	return cmd
}

// httpAuthFlags are the flags that authorize HTTP clients; over stdio
// they have no meaning.
var httpAuthFlags = []string{"oauth-issuer", "oauth-resource", "oauth-jwks-url", "oauth-scope", "tokens-file"}

// mcpStopGrace is how long in-flight tool calls of the stdio transport get
// after SIGTERM/SIGINT (the HTTP transport has its own graceful shutdown).
const mcpStopGrace = 2 * time.Second

// exitAfterGrace ends the process mcpStopGrace after a stop signal unless
// the server has finished by then: the MCP SDK waits for in-flight tool
// calls when a session closes, and a call waiting on a slow provider
// would hold the process for minutes. cleanup removes the kept results;
// the engine's temporary databases are unlinked when opened, so exiting
// leaves nothing behind.
func exitAfterGrace(ctx context.Context, log io.Writer, finished <-chan struct{}, cleanup func()) {
	select {
	case <-finished:
		return
	case <-ctx.Done():
	}
	select {
	case <-finished:
	case <-time.After(mcpStopGrace):
		cleanup()
		fmt.Fprintln(log, "engine mcp: stopped; in-flight calls abandoned")
		os.Exit(0)
	}
}

func serveMCPHTTP(ctx context.Context, log io.Writer, srv *mcpsurface.Server, listen string, allowRemote bool, o mcpsurface.HTTPOptions) error {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return usageError("--listen %q: %v", listen, err)
	}
	if !mcpsurface.LoopbackHost(host) && !allowRemote {
		return usageError("--listen %q is not a loopback address; to serve other machines, pass --allow-remote with authorization (--oauth-issuer and --oauth-resource, or --tokens-file; docs/mcp.md, \"Sharing the server with a team\")", listen)
	}
	if allowRemote && o.Auth == nil {
		return usageError("--allow-remote serves anyone who can reach the port with this server's credentials: it needs authorization, --oauth-issuer URL with --oauth-resource URL (OAuth bearer tokens), or --tokens-file FILE (static tokens); see docs/mcp.md, \"Sharing the server with a team\"")
	}
	for _, origin := range o.AllowOrigins {
		if _, err := mcpsurface.NormalizeOrigin(origin); err != nil {
			return usageError("--allow-origin: %v", err)
		}
	}
	if o.MaxSessions == 0 {
		return usageError("--max-sessions 0 would refuse every client; use a positive bound, or -1 for none")
	}
	if o.MaxConnections <= 0 {
		return usageError("--max-connections %d: give a positive number of connections served at once", o.MaxConnections)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return usageError("%v", err)
	}
	hs := srv.HTTPServer(o)
	if o.Auth != nil {
		fmt.Fprintf(log, "engine mcp: authorization: %s\n", o.Auth.Describe())
	}
	fmt.Fprintf(log, "engine mcp: listening on http://%s%s\n", ln.Addr(), mcpsurface.HTTPPath)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(mcpsurface.LimitListener(ln, o.MaxConnections)) }()
	select {
	case err := <-errc:
		return &exitError{code: exitProvider, msg: "error: " + err.Error()}
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(sctx) //nolint:errcheck
	return nil
}
