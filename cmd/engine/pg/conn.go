package pg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
)

// conn is one client connection after startup.
type conn struct {
	s              *Server
	nc             net.Conn
	be             *pgproto3.Backend
	user, database string
	pid            uint32
	secret         []byte
	settings       map[string]string
	stmts          map[string]*prepared
	portals        map[string]*portal
	tx             byte // 'I' idle, 'T' in a transaction block, 'E' failed one
	// failed: an error of the extended protocol; messages are skipped
	// until Sync.
	failed bool

	mu     sync.Mutex
	cancel context.CancelFunc // of the running statement
}

// prepared is a statement of the extended protocol (Parse).
type prepared struct {
	text      string
	paramOIDs []uint32
	// described: the columns Describe sent (nil: not described), which
	// Execute keeps to.
	described []column
}

// portal is a bound statement (Bind).
type portal struct {
	stmt      *prepared
	text      string // parameters bound
	formats   []int16
	described []column
	done      bool
}

// column is a result column as sent: its name, type and format.
type column struct {
	name   string
	typ    pgType
	format int16
}

func (c *conn) setting(name string) string {
	if v, ok := c.settings[strings.ToLower(name)]; ok {
		return v
	}
	switch strings.ToLower(name) {
	case "session_authorization":
		return c.user
	}
	return defaultSettings[strings.ToLower(name)]
}

func (c *conn) lookupSetting(name string) (string, bool) {
	if v, ok := c.settings[name]; ok {
		return v, true
	}
	if name == "session_authorization" {
		return c.user, true
	}
	v, ok := defaultSettings[name]
	return v, ok
}

func (c *conn) cancelStatement() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
}

// statementContext is the context of one statement, cancelled by a
// CancelRequest or the server's end.
func (c *conn) statementContext(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	c.cancel = cancel
	c.mu.Unlock()
	return ctx, func() {
		c.mu.Lock()
		c.cancel = nil
		c.mu.Unlock()
		cancel()
	}
}

func (c *conn) serve(ctx context.Context) {
	c.tx = 'I'
	for {
		if d := c.s.cfg.IdleTimeout; d > 0 {
			c.nc.SetReadDeadline(time.Now().Add(d))
		}
		msg, err := c.be.Receive()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				e := errorf(stateIdle, "terminating connection due to idle-session timeout (idle-timeout %s)", c.s.cfg.IdleTimeout)
				e.severity = "FATAL"
				c.be.Send(e.response())
				c.be.Flush()
			}
			return
		}
		c.nc.SetReadDeadline(time.Time{})
		if c.failed {
			switch msg.(type) {
			case *pgproto3.Sync:
			case *pgproto3.Terminate:
				return
			default:
				continue
			}
		}
		switch m := msg.(type) {
		case *pgproto3.Query:
			c.simpleQuery(ctx, m.String)
			c.be.Send(&pgproto3.ReadyForQuery{TxStatus: c.tx})
		case *pgproto3.Parse:
			c.extended(c.parse(m))
		case *pgproto3.Bind:
			c.extended(c.bind(m))
		case *pgproto3.Describe:
			c.extended(c.describe(ctx, m))
		case *pgproto3.Execute:
			c.extended(c.execute(ctx, m))
		case *pgproto3.Close:
			if m.ObjectType == 'S' {
				delete(c.stmts, m.Name)
			} else {
				delete(c.portals, m.Name)
			}
			c.be.Send(&pgproto3.CloseComplete{})
		case *pgproto3.Sync:
			c.failed = false
			delete(c.portals, "")
			c.be.Send(&pgproto3.ReadyForQuery{TxStatus: c.tx})
		case *pgproto3.Flush:
		case *pgproto3.Terminate:
			return
		default:
			c.be.Send(errorf(stateFeature, "%T is not supported: this endpoint answers queries only", msg).response())
		}
		if err := c.be.Flush(); err != nil {
			return
		}
	}
}

// extended reports an error of an extended-protocol message and skips
// to the next Sync.
func (c *conn) extended(err error) {
	if err == nil {
		return
	}
	c.sendError(err)
	c.failed = true
}

func (c *conn) sendError(err error) {
	pe := fromEngine(err)
	c.be.Send(pe.response())
	if c.tx == 'T' {
		c.tx = 'E'
	}
}

func (c *conn) parse(m *pgproto3.Parse) error {
	if len(splitStatements(m.Query)) > 1 {
		return errorf(stateSyntax, "cannot insert multiple commands into a prepared statement")
	}
	c.stmts[m.Name] = &prepared{text: m.Query, paramOIDs: m.ParameterOIDs}
	c.be.Send(&pgproto3.ParseComplete{})
	return nil
}

func (c *conn) bind(m *pgproto3.Bind) error {
	ps, ok := c.stmts[m.PreparedStatement]
	if !ok {
		return errorf("26000", "prepared statement %q does not exist", m.PreparedStatement)
	}
	params := make([]param, len(m.Parameters))
	for i, raw := range m.Parameters {
		var oid uint32
		if i < len(ps.paramOIDs) {
			oid = ps.paramOIDs[i]
		}
		format := int16(0)
		switch {
		case len(m.ParameterFormatCodes) == 1:
			format = m.ParameterFormatCodes[0]
		case i < len(m.ParameterFormatCodes):
			format = m.ParameterFormatCodes[i]
		}
		v, err := decodeParam(raw, oid, format)
		if err != nil {
			if pe := (*pgError)(nil); errors.As(err, &pe) {
				return pe
			}
			return errorf("22P02", "parameter $%d: %v", i+1, err)
		}
		params[i] = v
	}
	text, err := bindParams(ps.text, params)
	if err != nil {
		return errorf("08P01", "%v", err)
	}
	c.portals[m.DestinationPortal] = &portal{stmt: ps, text: text, formats: m.ResultFormatCodes, described: ps.described}
	c.be.Send(&pgproto3.BindComplete{})
	return nil
}

func formatOf(formats []int16, i int) int16 {
	switch {
	case len(formats) == 1:
		return formats[0]
	case i < len(formats):
		return formats[i]
	}
	return 0
}

func (c *conn) describe(ctx context.Context, m *pgproto3.Describe) error {
	if m.ObjectType == 'S' {
		ps, ok := c.stmts[m.Name]
		if !ok {
			return errorf("26000", "prepared statement %q does not exist", m.Name)
		}
		n := max(maxParam(ps.text), len(ps.paramOIDs))
		oids := paramTypes(ps.text, n)
		dummies := make([]param, n)
		for i := range oids {
			if i < len(ps.paramOIDs) && ps.paramOIDs[i] != 0 {
				oids[i] = ps.paramOIDs[i]
			}
			dummies[i] = dummy(oids[i], i)
		}
		var cols []column
		for attempt := 0; ; attempt++ {
			text, err := bindParams(ps.text, dummies)
			if err != nil {
				return errorf(stateProtocol, "%v", err)
			}
			cols, err = c.columnsOf(ctx, text, nil)
			if err == nil {
				break
			}
			// A stand-in value the engine refused (a value outside a
			// key's enum, a string for a boolean): take the one it
			// names, and describe again.
			if attempt > 2*len(dummies) || !redummy(err, dummies) {
				return err
			}
		}
		for i, d := range dummies {
			if oids[i] != 0 {
				continue
			}
			switch d.(type) {
			case bool: // compared with a boolean column
				oids[i] = oidBool
			case int64:
				oids[i] = oidInt8
			}
		}
		ps.paramOIDs = oids // Bind reads the parameters as described
		c.be.Send(&pgproto3.ParameterDescription{ParameterOIDs: oids})
		ps.described = cols
		c.sendRowDescription(cols)
		return nil
	}
	p, ok := c.portals[m.Name]
	if !ok {
		return errorf("34000", "portal %q does not exist", m.Name)
	}
	cols, err := c.columnsOf(ctx, p.text, p.formats)
	if err != nil {
		return err
	}
	if p.described != nil && len(p.described) == len(cols) {
		// keep the statement's types, with the portal's formats
		for i := range cols {
			cols[i].typ = p.described[i].typ
		}
	}
	p.described = cols
	c.sendRowDescription(cols)
	return nil
}

// dummy is a stand-in value of the type oid for parameter i, for
// describing a statement before its parameters are bound: the columns of
// a result do not depend on them. A string names its parameter (p1,
// p2, ...) so that an error about it says which one (redummy).
func dummy(oid uint32, i int) param {
	switch oid {
	case oidInt2, oidInt4, oidInt8, oidOID:
		return int64(1)
	case oidFloat4, oidFloat8, oidNumeric:
		return float64(1)
	case oidBool:
		return true
	}
	return "p" + strconv.Itoa(i+1)
}

var (
	dummyRe = regexp.MustCompile(`'p([0-9]+)'`)
	enumRe  = regexp.MustCompile(`takes one of ([^,;]+)`)
)

// redummy replaces the stand-in value an engine error refuses with one it
// accepts: the first value of a key's enum ("state takes one of open,
// closed, all"), TRUE for a boolean column, 1 for a number. It reports
// whether it changed one.
func redummy(err error, dummies []param) bool {
	msg := err.Error()
	m := dummyRe.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	k, _ := strconv.Atoi(m[1])
	if k < 1 || k > len(dummies) || dummies[k-1] != "p"+m[1] {
		return false
	}
	switch {
	case enumRe.MatchString(msg):
		dummies[k-1] = strings.TrimSpace(enumRe.FindStringSubmatch(msg)[1])
	case strings.Contains(msg, "BOOLEAN"):
		dummies[k-1] = true
	case strings.Contains(msg, "INTEGER") || strings.Contains(msg, "number"):
		dummies[k-1] = int64(1)
	default:
		return false
	}
	return true
}

func (c *conn) sendRowDescription(cols []column) {
	if cols == nil {
		c.be.Send(&pgproto3.NoData{})
		return
	}
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		fields[i] = pgproto3.FieldDescription{Name: []byte(col.name), DataTypeOID: col.typ.oid, DataTypeSize: col.typ.size, TypeModifier: -1, Format: col.format}
	}
	c.be.Send(&pgproto3.RowDescription{Fields: fields})
}

// columnsOf describes a statement's result without running it: the
// session's own statements answer here, the system catalog's run (it is
// small), and the engine's go through the describing engine, which
// sends no request. nil: the statement returns no rows.
func (c *conn) columnsOf(ctx context.Context, text string, formats []int16) ([]column, error) {
	var cols []result.Column
	switch c.classify(text) {
	case kindSession:
		return nil, nil
	case kindShow:
		cols = []result.Column{{Name: showName(text), Type: result.TypeText}}
	case kindSystem:
		sys, err := c.s.sys.get(ctx, c.database)
		if err != nil {
			return nil, err
		}
		cs, _, err := sys.query(ctx, text, c.session())
		if err != nil {
			return nil, errorf(stateSystemQuery, "%v", err)
		}
		cols = cs
	default:
		res, err := c.s.cfg.Describe.Query(ctx, c.engineText(text), engine.QueryOptions{})
		if err != nil {
			return nil, err
		}
		cols = res.Columns
	}
	out := make([]column, len(cols))
	for i, col := range cols {
		out[i] = column{name: columnName(col.Name), typ: typeOf(col.Type), format: formatOf(formats, i)}
	}
	return out, nil
}

func (c *conn) execute(ctx context.Context, m *pgproto3.Execute) error {
	p, ok := c.portals[m.Portal]
	if !ok {
		return errorf("34000", "portal %q does not exist", m.Portal)
	}
	if p.done {
		c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte("SELECT 0")})
		return nil
	}
	if m.MaxRows > 0 {
		return errorf(stateFeature, "fetching a result in parts (Execute with a row limit, a cursor) is not supported: fetch the whole result (JDBC: fetch size 0)")
	}
	p.done = true
	return c.run(ctx, p.text, p.formats, p.described, false)
}

// simpleQuery runs the statements of one Query message, stopping at the
// first error.
func (c *conn) simpleQuery(ctx context.Context, text string) {
	stmts := splitStatements(text)
	if len(stmts) == 0 {
		c.be.Send(&pgproto3.EmptyQueryResponse{})
		return
	}
	for _, st := range stmts {
		if err := c.run(ctx, st, nil, nil, true); err != nil {
			c.sendError(err)
			return
		}
	}
}

type stmtKind int

const (
	kindEngine stmtKind = iota
	kindSystem
	kindSession // BEGIN, COMMIT, SET, ...: the session's own, no rows
	kindShow    // SHOW of a setting
)

func (c *conn) classify(text string) stmtKind {
	w := firstWords(text, 2)
	if len(w) == 0 {
		return kindEngine
	}
	switch w[0] {
	case "begin", "start", "commit", "end", "rollback", "abort", "set", "reset", "discard", "deallocate", "close", "unlisten", "savepoint", "release":
		return kindSession
	case "show":
		if len(w) > 1 {
			if _, ok := c.lookupSetting(w[1]); ok || w[1] == "transaction" || w[1] == "all" {
				return kindShow
			}
		}
		return kindEngine
	}
	if isSystem(text) {
		return kindSystem
	}
	return kindEngine
}

func showName(text string) string {
	w := firstWords(text, 4)
	if len(w) >= 4 && w[1] == "transaction" {
		return "transaction_isolation"
	}
	if len(w) > 1 {
		return w[1]
	}
	return "setting"
}

func (c *conn) session() session {
	return session{database: c.database, user: c.user, settings: c.lookupSetting}
}

// engineText is a statement for the engine: its two-part table names
// qualified with the database.
func (c *conn) engineText(text string) string {
	cat := c.s.cfg.Engine.Catalog()
	return qualify(text, c.database, func(service, _ string) bool {
		if cat.IsProvider(service) {
			return false
		}
		services, err := cat.Services(c.database)
		if err != nil {
			return false
		}
		for _, s := range services {
			if s.Name == service {
				return true
			}
		}
		return false
	})
}

// run runs one statement and sends its result: the row description
// (simple protocol: described here; extended: by Describe, if the client
// asked), the rows, and the command tag. Errors are returned, not sent.
func (c *conn) run(ctx context.Context, text string, formats []int16, described []column, simple bool) error {
	switch c.classify(text) {
	case kindSession:
		tag, err := c.sessionStatement(text)
		if err != nil {
			return err
		}
		c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
		return nil
	case kindShow:
		name := showName(text)
		v := c.setting(name)
		if name == "all" {
			v = ""
		}
		w := newRowWriter(c, formats, described, simple)
		if err := w.begin([]result.Column{{Name: name, Type: result.TypeText}}); err != nil {
			return err
		}
		if err := w.row([]any{v}); err != nil {
			return err
		}
		return w.end("SHOW")
	case kindSystem:
		if c.tx == 'E' {
			return errorf("25P02", "current transaction is aborted, commands ignored until end of transaction block")
		}
		sys, err := c.s.sys.get(ctx, c.database)
		if err != nil {
			return err
		}
		cols, rows, err := sys.query(ctx, text, c.session())
		if err != nil {
			return errorf(stateSystemQuery, "%v (a system catalog query: pg_catalog and information_schema answer from the provider catalog, in a subset of Postgres's SQL)", err)
		}
		w := newRowWriter(c, formats, described, simple)
		if err := w.begin(cols); err != nil {
			return err
		}
		for _, r := range rows {
			if err := w.row(r); err != nil {
				return err
			}
		}
		return w.end("")
	}
	if c.tx == 'E' {
		return errorf("25P02", "current transaction is aborted, commands ignored until end of transaction block")
	}
	w := newRowWriter(c, formats, described, simple)
	sctx, done := c.statementContext(ctx)
	defer done()
	etext := c.engineText(text)
	res, err := c.s.cfg.Engine.Query(sctx, etext, engine.QueryOptions{Columns: w.begin, Rows: w.row})
	if err != nil {
		if w.err != nil {
			return w.err
		}
		var e *engine.Error
		if errors.As(err, &e) && e.Kind == engine.KindCancelled {
			return &pgError{code: stateCancelled, message: "canceling statement due to user request", detail: "kind=cancelled retryable=false"}
		}
		pe := fromEngine(err)
		if errors.As(err, &e) && e.Pos >= 0 && e.Pos <= len(text) && etext == text && simple {
			// the client's own text: psql points at the place
			pe.position = int32(utf8.RuneCountInString(text[:e.Pos])) + 1
		}
		return pe
	}
	if !w.begun {
		w.begin(res.Columns)
	}
	if w.pending {
		w.types(res.Columns)
	}
	return w.end("")
}

// sessionStatement runs a statement of the session (BEGIN, SET, ...)
// and returns its command tag.
func (c *conn) sessionStatement(text string) (string, error) {
	toks := significant(lex(text))
	w := firstWords(text, 3)
	switch w[0] {
	case "begin", "start":
		if c.tx == 'I' {
			c.tx = 'T'
		}
		return "BEGIN", nil
	case "commit", "end":
		tag := "COMMIT"
		if c.tx == 'E' {
			tag = "ROLLBACK"
		}
		c.tx = 'I'
		return tag, nil
	case "rollback", "abort":
		if len(w) > 1 && w[1] == "to" {
			if c.tx == 'E' {
				c.tx = 'T'
			}
			return "ROLLBACK", nil
		}
		c.tx = 'I'
		return "ROLLBACK", nil
	case "savepoint":
		return "SAVEPOINT", nil
	case "release":
		return "RELEASE", nil
	case "discard":
		return "DISCARD ALL", nil
	case "deallocate":
		return "DEALLOCATE", nil
	case "close":
		return "CLOSE CURSOR", nil
	case "unlisten":
		return "UNLISTEN", nil
	case "reset":
		if len(w) > 1 {
			delete(c.settings, w[1])
		}
		return "RESET", nil
	case "set":
		// SET [SESSION | LOCAL] name { TO | = } value [, ...]
		i := 1
		if i < len(toks) && (strings.EqualFold(toks[i].text, "session") || strings.EqualFold(toks[i].text, "local")) {
			i++
		}
		if i >= len(toks) {
			return "", errorf(stateSyntax, "syntax error at end of input: SET needs a name and a value")
		}
		name := strings.ToLower(toks[i].text)
		if name == "transaction" || name == "characteristics" || name == "session" {
			return "SET", nil
		}
		if name == "time" && i+1 < len(toks) && strings.EqualFold(toks[i+1].text, "zone") {
			name, i = "timezone", i+1
		} else if i+1 < len(toks) && (toks[i+1].text == "=" || strings.EqualFold(toks[i+1].text, "to")) {
			i++
		}
		var parts []string
		for _, t := range toks[i+1:] {
			v := t.text
			if t.kind == tokString {
				v = strings.ReplaceAll(v[1:len(v)-1], "''", "'")
			}
			parts = append(parts, v)
		}
		value := strings.Join(parts, "")
		if name == "default_transaction_read_only" || name == "transaction_read_only" {
			if b, ok := asBool(value); ok && !b {
				return "", errorf(stateReadOnly, "this endpoint is read-only: %s cannot be off", name)
			}
		}
		c.settings[name] = value
		if name == "application_name" || name == "timezone" || name == "datestyle" || name == "client_encoding" {
			reported := name
			for _, r := range reportedSettings {
				if strings.EqualFold(r, name) {
					reported = r
				}
			}
			c.be.Send(&pgproto3.ParameterStatus{Name: reported, Value: value})
		}
		return "SET", nil
	}
	return "", fmt.Errorf("internal: %s is no statement of the session", w[0])
}

// rowWriter sends one result: the row description, data rows, the
// command tag. Under the simple protocol the row description waits for
// the first row (or the end), so that a column typed by its values (an
// expression) is described with its type.
type rowWriter struct {
	c         *conn
	formats   []int16
	described []column
	simple    bool
	cols      []column
	begun     bool
	pending   bool // simple: the row description is not sent yet
	n         int
	buf       []byte
	vals      [][]byte
	size      int
	err       error
}

func newRowWriter(c *conn, formats []int16, described []column, simple bool) *rowWriter {
	return &rowWriter{c: c, formats: formats, described: described, simple: simple}
}

func (w *rowWriter) begin(cols []result.Column) error {
	if w.begun {
		return nil
	}
	w.begun = true
	w.cols = make([]column, len(cols))
	for i, col := range cols {
		w.cols[i] = column{name: columnName(col.Name), typ: typeOf(col.Type), format: formatOf(w.formats, i)}
	}
	if !w.simple {
		if w.described != nil {
			if len(w.described) != len(cols) {
				w.err = errorf(stateInternal, "the statement's result has %d columns, %d were described", len(cols), len(w.described))
				return w.err
			}
			for i := range w.cols {
				w.cols[i].typ = w.described[i].typ
			}
		}
		return nil
	}
	w.pending = true
	for _, col := range cols {
		if col.Type != "" {
			continue
		}
		return nil // typed by the first row
	}
	return w.sendDescription()
}

// types types the columns of a result without rows from its final
// columns.
func (w *rowWriter) types(cols []result.Column) {
	for i := range w.cols {
		if i < len(cols) && cols[i].Type != "" {
			w.cols[i].typ = typeOf(cols[i].Type)
		}
	}
}

func (w *rowWriter) sendDescription() error {
	w.pending = false
	w.c.sendRowDescription(w.cols)
	return nil
}

func (w *rowWriter) row(row []any) error {
	if w.err != nil {
		return w.err
	}
	if w.pending {
		for i, v := range row {
			if i < len(w.cols) && v != nil && w.cols[i].typ == typeText {
				// an untyped column: its first value says
				w.cols[i].typ = typeOfValue(v)
			}
		}
		w.sendDescription()
	}
	w.n++
	w.buf = w.buf[:0]
	if cap(w.vals) < len(row) {
		w.vals = make([][]byte, len(row))
	}
	w.vals = w.vals[:len(row)]
	offs := make([]int, 0, len(row)+1)
	for i, v := range row {
		if v == nil {
			offs = append(offs, -1)
			continue
		}
		oid, format := uint32(oidText), int16(0)
		if i < len(w.cols) {
			oid, format = w.cols[i].typ.oid, w.cols[i].format
		}
		start := len(w.buf)
		b, err := encode(w.buf, v, oid, format)
		if err != nil {
			w.err = errorf("22P03", "column %d: %v", i+1, err)
			return w.err
		}
		w.buf = b
		offs = append(offs, start)
	}
	for i := range row {
		if offs[i] < 0 {
			w.vals[i] = nil
			continue
		}
		end := len(w.buf)
		for j := i + 1; j < len(row); j++ {
			if offs[j] >= 0 {
				end = offs[j]
				break
			}
		}
		w.vals[i] = w.buf[offs[i]:end:end]
	}
	w.c.be.Send(&pgproto3.DataRow{Values: w.vals})
	w.size += len(w.buf) + 4*len(row) + 7
	if w.size >= flushBytes {
		w.size = 0
		if err := w.c.be.Flush(); err != nil {
			w.err = err
			return err
		}
	}
	return nil
}

// end sends the command tag ("SELECT n" unless tag is given).
func (w *rowWriter) end(tag string) error {
	if w.err != nil {
		return w.err
	}
	if w.pending {
		w.sendDescription()
	}
	if tag == "" {
		tag = fmt.Sprintf("SELECT %d", w.n)
	}
	w.c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	return nil
}

// columnName is a result column's name as Postgres names it: a function
// call without an alias (count(*), version()) is named by its function
// (count, version); the system catalog's functions lose their pgsys_
// prefix.
func columnName(name string) string {
	if i := strings.IndexByte(name, '('); i > 0 && strings.HasSuffix(name, ")") {
		fn := strings.TrimSpace(name[:i])
		if isIdent(fn) {
			return strings.TrimPrefix(strings.ToLower(fn), "pgsys_")
		}
	}
	return name
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) || (i == 0 && !isWordStart(s[i])) {
			return false
		}
	}
	return s != ""
}
