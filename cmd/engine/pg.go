package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/cmd/engine/pg"
	"github.com/enginehq/engine/engine"
)

// pgPasswordEnv is the variable holding the Postgres endpoint's password
// (a secret: no flag carries it; --password-file names a file instead).
const pgPasswordEnv = "ENGINE_PG_PASSWORD"

func newPGCmd(g *globalFlags) *cobra.Command {
	var (
		listen, passwordFile, tlsCert, tlsKey string
		maxConns                              int
		idle                                  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "pg [--listen 127.0.0.1:5432]",
		Short: "Serve the engine over the PostgreSQL protocol (psql, drivers, BI tools)",
		Long: `pg serves the engine as a PostgreSQL server: a database is a provider
(psql -d github), a schema a service, a table a table. Read-only; every
failed API call is an error (SQLSTATE 58000 for the provider's), never an
empty result. A password (` + pgPasswordEnv + ` or --password-file) is
required to listen beyond loopback. See docs/pg.md.`,
		Example: `  engine pg --listen 127.0.0.1:5432
  psql -h 127.0.0.1 -p 5432 -d github -c "SELECT count(*) FROM repos.repos WHERE org = 'acme'"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			host, _, err := net.SplitHostPort(listen)
			if err != nil {
				return usageError("--listen %q: %v (write HOST:PORT, e.g. 127.0.0.1:5432)", listen, err)
			}
			password := g.io.Getenv(pgPasswordEnv)
			if passwordFile != "" {
				b, err := os.ReadFile(passwordFile)
				if err != nil {
					return usageError("--password-file: %v", err)
				}
				if fi, err := os.Stat(passwordFile); err == nil && fi.Mode().Perm()&0o077 != 0 {
					fmt.Fprintf(g.io.Err, "warning: the password file %s is accessible to other users (mode %04o): anyone who can read it can use this server; make it private with chmod 600 %s\n", passwordFile, fi.Mode().Perm(), passwordFile)
				}
				password, _, _ = strings.Cut(string(b), "\n")
				password = strings.TrimRight(password, "\r")
				if password == "" {
					return usageError("--password-file %s is empty: write the password in it", passwordFile)
				}
			}
			if password == "" && !loopbackHost(host) {
				return usageError("--listen %q is not a loopback address: serving other machines needs a password; set %s or --password-file FILE (docs/pg.md, \"Security\")", listen, pgPasswordEnv)
			}
			if (tlsCert == "") != (tlsKey == "") {
				return usageError("--tls-cert and --tls-key go together: give both (the certificate and its private key, PEM)")
			}
			var tlsConf *tls.Config
			if tlsCert != "" {
				pair, err := tls.LoadX509KeyPair(tlsCert, tlsKey)
				if err != nil {
					return usageError("--tls-cert/--tls-key: %v", err)
				}
				tlsConf = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
			}
			if maxConns <= 0 {
				return usageError("--max-connections %d: give a positive number of connections served at once", maxConns)
			}
			// Clients read views; people create them (exec, shell): a
			// client of the server must not redefine what other surfaces read.
			g.readOnlyViews = true
			eng, opts, err := g.newEngine()
			if err != nil {
				return err
			}
			opts.Catalog = eng.Catalog()
			opts.Fetch = pg.NoFetch
			describe, err := engine.New(opts)
			if err != nil {
				return usageError("%v", err)
			}
			if idle == 0 {
				idle = -1 // the flag's 0: never
			}
			srv, err := pg.New(pg.Config{Engine: eng, Describe: describe, Password: password, TLS: tlsConf,
				MaxConnections: maxConns, IdleTimeout: idle, Version: serverVersion(), Log: g.io.Err})
			if err != nil {
				return usageError("%v", err)
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return usageError("%v", err)
			}
			ctx, stop := stopContext()
			defer stop()
			auth := "no password (loopback only)"
			if password != "" {
				auth = "SCRAM-SHA-256 password"
			}
			if tlsConf != nil {
				auth += ", TLS offered"
			}
			fmt.Fprintf(g.io.Err, "engine pg: listening on %s (%s); databases: %s\n", ln.Addr(), auth, strings.Join(eng.ProviderNames(), ", "))
			if err := srv.Serve(ctx, ln); err != nil {
				return &exitError{code: exitProvider, msg: "error: pg: " + err.Error()}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&listen, "listen", "127.0.0.1:5432", "address to serve the PostgreSQL protocol on (HOST:PORT); beyond loopback it needs a password")
	f.StringVar(&passwordFile, "password-file", "", "file holding the password clients must give (SCRAM-SHA-256); default: the variable "+pgPasswordEnv)
	f.StringVar(&tlsCert, "tls-cert", "", "certificate (PEM) to offer TLS with (sslmode=require); with --tls-key")
	f.StringVar(&tlsKey, "tls-key", "", "private key (PEM) of --tls-cert")
	f.IntVar(&maxConns, "max-connections", pg.DefaultMaxConnections, "most client connections served at once; a further one is refused (SQLSTATE 53300)")
	f.DurationVar(&idle, "idle-timeout", pg.DefaultIdleTimeout, "close a connection idle this long between statements (0: never)")
	return cmd
}

// loopbackHost reports whether host (of --listen) is a loopback address.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
