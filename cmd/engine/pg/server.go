package pg

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/xdg-go/scram"

	"github.com/enginehq/engine/engine"
)

// Defaults of the server's bounds.
const (
	DefaultMaxConnections = 32
	DefaultIdleTimeout    = 10 * time.Minute
	// flushBytes is how many bytes of rows are gathered before they are
	// written: a result streams in pieces of this size whatever its
	// length.
	flushBytes = 64 << 10
)

// Config configures a Server.
type Config struct {
	// Engine runs the statements.
	Engine *engine.Engine
	// Describe is an engine on the same catalog that sends no request
	// (its fetchers answer no rows: NoFetch): it describes a statement's
	// columns, for the extended protocol's Describe, without running it.
	Describe *engine.Engine
	// Password, when set, is required of every client (SCRAM-SHA-256);
	// "" lets every client in (loopback only: the command refuses
	// anything else).
	Password string
	// TLS, when set, is offered to clients that ask (SSLRequest).
	TLS *tls.Config
	// MaxConnections bounds the connections served at once (0: the
	// default); a further client is refused with SQLSTATE 53300.
	MaxConnections int
	// IdleTimeout closes a connection idle this long between statements
	// (0: the default; negative: never).
	IdleTimeout time.Duration
	// Version is the engine's version, for version().
	Version string
	// Log receives one line per connection problem (nil: none).
	Log io.Writer
}

// Server serves the engine over the PostgreSQL v3 protocol.
type Server struct {
	cfg   Config
	sys   systemDBs
	scram *scram.Server
	slots chan struct{}

	mu    sync.Mutex
	conns map[uint32]*conn
	wg    sync.WaitGroup
}

// New makes a server.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil || cfg.Describe == nil {
		return nil, errors.New("pg: an engine and a describing engine are required")
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = DefaultMaxConnections
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	s := &Server{cfg: cfg, sys: systemDBs{cat: cfg.Engine.Catalog()}, slots: make(chan struct{}, cfg.MaxConnections), conns: map[uint32]*conn{}}
	if cfg.Password != "" {
		salt := make([]byte, 16)
		if _, err := rand.Read(salt); err != nil {
			return nil, err
		}
		client, err := scram.SHA256.NewClient("", cfg.Password, "")
		if err != nil {
			return nil, fmt.Errorf("the password cannot be used for SCRAM-SHA-256: %v", err)
		}
		creds, err := client.GetStoredCredentialsWithError(scram.KeyFactors{Salt: string(salt), Iters: 4096})
		if err != nil {
			return nil, fmt.Errorf("the password cannot be used for SCRAM-SHA-256: %v", err)
		}
		// Postgres clients send the user in the startup message and an
		// empty name in SCRAM: every user name has the one password.
		s.scram, err = scram.SHA256.NewServer(func(string) (scram.StoredCredentials, error) { return creds, nil })
		if err != nil {
			return nil, err
		}
	}
	registerFunctions(cfg.Version)
	return s, nil
}

// Serve accepts connections on ln until ctx ends, then closes ln and
// waits for the connections' statements to be cancelled and their
// connections closed.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				s.closeAll()
				s.wg.Wait()
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveConn(ctx, nc)
		}()
	}
}

func (s *Server) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.cancelStatement()
		c.nc.Close()
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "engine pg: "+format+"\n", args...)
	}
}

// serveConn runs one connection: startup (TLS, cancel, authentication),
// then its messages until it ends.
func (s *Server) serveConn(ctx context.Context, nc net.Conn) {
	defer nc.Close()
	// The startup must not take forever either.
	nc.SetDeadline(time.Now().Add(time.Minute))
	be := pgproto3.NewBackend(nc, nc)
	var startup *pgproto3.StartupMessage
	for startup == nil {
		msg, err := be.ReceiveStartupMessage()
		if err != nil {
			return
		}
		switch m := msg.(type) {
		case *pgproto3.SSLRequest:
			if s.cfg.TLS == nil {
				if _, err := nc.Write([]byte{'N'}); err != nil {
					return
				}
				continue
			}
			if _, err := nc.Write([]byte{'S'}); err != nil {
				return
			}
			tc := tls.Server(nc, s.cfg.TLS)
			if err := tc.HandshakeContext(ctx); err != nil {
				s.logf("TLS handshake with %s: %v", nc.RemoteAddr(), err)
				return
			}
			nc = tc
			defer nc.Close()
			be = pgproto3.NewBackend(nc, nc)
		case *pgproto3.GSSEncRequest:
			if _, err := nc.Write([]byte{'N'}); err != nil {
				return
			}
		case *pgproto3.CancelRequest:
			s.cancel(m.ProcessID, m.SecretKey)
			return
		case *pgproto3.StartupMessage:
			startup = m
		default:
			return
		}
	}
	fatal := func(e *pgError) {
		e.severity = "FATAL"
		be.Send(e.response())
		be.Flush()
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		fatal(errorf(stateTooMany, "too many connections: this server serves %d at once (max-connections); try again when one closes", s.cfg.MaxConnections))
		return
	}
	user := startup.Parameters["user"]
	database := startup.Parameters["database"]
	if database == "" {
		database = user
	}
	if !s.cfg.Engine.Catalog().IsProvider(database) && database != maintenanceDB {
		fatal(&pgError{code: stateNoDatabase, message: fmt.Sprintf("database %q does not exist: a database here is a provider; this server has %s", database, strings.Join(s.cfg.Engine.Catalog().Names(), ", ")),
			hint: "connect with the provider as the database name (psql -d " + firstOr(s.cfg.Engine.Catalog().Names(), "github") + ")"})
		return
	}
	if s.scram != nil {
		if err := s.authenticate(be); err != nil {
			if pe := (*pgError)(nil); errors.As(err, &pe) {
				fatal(pe)
			}
			s.logf("authentication of %q from %s failed: %v", user, nc.RemoteAddr(), err)
			return
		}
	}
	be.Send(&pgproto3.AuthenticationOk{})
	c := &conn{s: s, nc: nc, be: be, user: user, database: database,
		settings: map[string]string{}, stmts: map[string]*prepared{}, portals: map[string]*portal{}}
	c.settings["application_name"] = startup.Parameters["application_name"]
	for k, v := range startup.Parameters {
		if k != "user" && k != "database" {
			c.settings[strings.ToLower(k)] = v
		}
	}
	for _, k := range reportedSettings {
		be.Send(&pgproto3.ParameterStatus{Name: k, Value: c.setting(k)})
	}
	c.pid, c.secret = s.register(c)
	defer s.unregister(c.pid)
	be.Send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret})
	be.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
	if err := be.Flush(); err != nil {
		return
	}
	nc.SetDeadline(time.Time{})
	c.serve(ctx)
}

func firstOr(names []string, def string) string {
	if len(names) > 0 {
		return names[0]
	}
	return def
}

// authenticate runs SCRAM-SHA-256 (RFC 5802, RFC 7677) as Postgres does.
func (s *Server) authenticate(be *pgproto3.Backend) error {
	refused := &pgError{code: stateAuth, message: "password authentication failed: the password is ENGINE_PG_PASSWORD (or --password-file) of the server"}
	be.Send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
	if err := be.Flush(); err != nil {
		return err
	}
	if err := be.SetAuthType(pgproto3.AuthTypeSASL); err != nil {
		return err
	}
	msg, err := be.Receive()
	if err != nil {
		return err
	}
	init, ok := msg.(*pgproto3.SASLInitialResponse)
	if !ok || init.AuthMechanism != "SCRAM-SHA-256" {
		return &pgError{code: stateAuth, message: "authentication requires SCRAM-SHA-256"}
	}
	conv := s.scram.NewConversation()
	out, err := conv.Step(string(init.Data))
	if err != nil {
		return refused
	}
	be.Send(&pgproto3.AuthenticationSASLContinue{Data: []byte(out)})
	if err := be.Flush(); err != nil {
		return err
	}
	if err := be.SetAuthType(pgproto3.AuthTypeSASLContinue); err != nil {
		return err
	}
	msg, err = be.Receive()
	if err != nil {
		return err
	}
	resp, ok := msg.(*pgproto3.SASLResponse)
	if !ok {
		return refused
	}
	out, err = conv.Step(string(resp.Data))
	if err != nil || !conv.Valid() {
		return refused
	}
	be.Send(&pgproto3.AuthenticationSASLFinal{Data: []byte(out)})
	return nil
}

func (s *Server) register(c *conn) (pid uint32, secret []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b [8]byte
	for {
		rand.Read(b[:])
		pid = binary.BigEndian.Uint32(b[:4])&0x7fffffff | 1
		if _, taken := s.conns[pid]; !taken {
			break
		}
	}
	s.conns[pid] = c
	return pid, append([]byte(nil), b[4:]...)
}

func (s *Server) unregister(pid uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, pid)
}

// cancel stops the running statement of the connection pid, when the
// secret is its (CancelRequest).
func (s *Server) cancel(pid uint32, secret []byte) {
	s.mu.Lock()
	c := s.conns[pid]
	s.mu.Unlock()
	if c != nil && subtle.ConstantTimeCompare(c.secret, secret) == 1 {
		c.cancelStatement()
	}
}

// reportedSettings are the settings sent at connect (ParameterStatus), as
// a Postgres server reports them.
var reportedSettings = []string{"server_version", "server_encoding", "client_encoding", "DateStyle", "IntervalStyle", "TimeZone",
	"integer_datetimes", "standard_conforming_strings", "application_name", "is_superuser", "session_authorization", "default_transaction_read_only", "in_hot_standby"}

// defaultSettings are the values of the settings a client may SHOW or
// current_setting() before it SETs them.
var defaultSettings = map[string]string{
	"server_version": serverVersion, "server_version_num": "150000", "server_encoding": "UTF8", "client_encoding": "UTF8",
	"datestyle": "ISO, MDY", "intervalstyle": "postgres", "timezone": "UTC", "integer_datetimes": "on",
	"standard_conforming_strings": "on", "is_superuser": "off", "default_transaction_read_only": "on",
	"transaction_read_only": "on", "in_hot_standby": "off", "transaction_isolation": "read committed",
	"default_transaction_isolation": "read committed", "search_path": `"$user", public`, "max_identifier_length": "63",
	"lc_collate": "C", "lc_ctype": "C", "lc_messages": "C", "statement_timeout": "0", "extra_float_digits": "1",
	"block_size": "8192", "max_index_keys": "32", "bytea_output": "hex", "escape_string_warning": "on",
}
