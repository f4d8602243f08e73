package mcpsurface

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
)

// Config is the server's settings.
type Config struct {
	Caps  Caps
	Store StoreOptions
	// MaxResourceBytes bounds the rendering of one result resource
	// (engine://results/{id}); a longer one is refused with a pointer to
	// fetch_result_page (0: DefaultMaxResourceBytes).
	MaxResourceBytes int
	// Log receives one line per tool result (never stdout; default discard).
	Log io.Writer
	// Version is reported to clients as serverInfo.version (default
	// "devel"); engine mcp passes the version of `engine --version`.
	Version string
	// MaxTasks bounds the statements running as tasks at once (the tasks
	// extension; 0: DefaultMaxTasks).
	MaxTasks int
}

// Server is the engine's MCP server. One Server serves any number of
// sessions (stdio, or streamable HTTP).
type Server struct {
	eng   *engine.Engine
	cfg   Config
	store *Store
	mcp   *mcp.Server
	logMu sync.Mutex
	// args describes each tool's arguments (argsOf), for the error of a
	// call whose arguments its input schema refuses.
	args map[string]string
	// tasks are the statements run as tasks (tasks.go).
	tasks *tasks
}

// instructions are sent once at initialisation; every word costs context.
// Hosts may drop them: run_select_query's description repeats what a
// query needs (queryDescription).
const instructions = `SQL over REST APIs. Tables are provider.service.resource (e.g. github.repos.repos); WHERE must bind a method's required keys (describe_resource shows them). Push aggregation, filtering and joins into SQL rather than fetching raw rows: %s; kept results page with fetch_result_page.`

// New makes a server over eng.
func New(eng *engine.Engine, cfg Config) (*Server, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.MaxResourceBytes <= 0 {
		cfg.MaxResourceBytes = DefaultMaxResourceBytes
	}
	if cfg.Version == "" {
		cfg.Version = "devel"
	}
	if cfg.Store.MaxRowBytes <= 0 {
		cfg.Store.MaxRowBytes = 2 * int64(eng.MaxValueBytes())
	}
	st, err := OpenStore(cfg.Store)
	if err != nil {
		return nil, err
	}
	cap := "results are not capped in rows"
	if cfg.Caps.MaxRows > 0 {
		cap = fmt.Sprintf("results are capped at %d rows", cfg.Caps.MaxRows)
	}
	if cfg.Caps.MaxBytes > 0 {
		cap += fmt.Sprintf(" and about %d KiB", max(cfg.Caps.MaxBytes>>10, 1))
	}
	s := &Server{eng: eng, cfg: cfg, store: st, args: map[string]string{}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "engine", Version: cfg.Version},
		&mcp.ServerOptions{Instructions: fmt.Sprintf(instructions, cap), Capabilities: declared(), SetCacheable: s.cacheable})
	s.addQueryTools()
	s.addApp()
	s.addDiscoveryTools()
	s.addResources()
	s.addTasks()
	s.mcp.AddReceivingMiddleware(legacyCapabilities, s.tasksMiddleware, s.argumentErrors, declaredOnly)
	return s, nil
}

// MCP returns the SDK server (to Run on a transport).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close cancels the running tasks and drops the kept results.
func (s *Server) Close() error {
	s.tasks.closeAll()
	return s.store.Close()
}

func boolPtr(b bool) *bool { return &b }

// annotations: every tool only reads; only run_select_query reaches the
// providers' APIs (open world), the others answer from the catalog or the
// kept results.
func annotations(title string, openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, DestructiveHint: boolPtr(false), IdempotentHint: true, OpenWorldHint: boolPtr(openWorld)}
}

// logResult writes one line per tool result with its size (text blocks
// plus the structured output, if any) in bytes and in o200k tokens
// (Tokens), so waste is visible.
func (s *Server) logResult(tool string, res *mcp.CallToolResult, structured any, detail string) {
	var all []byte
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			all = append(all, t.Text...)
		}
	}
	if structured != nil {
		if b, err := json.Marshal(structured); err == nil {
			all = append(all, b...)
		}
	}
	status := "ok"
	if res.IsError {
		status = "error"
	}
	tokens := tokenField(string(all))
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, "engine mcp: tool=%s status=%s bytes=%d %s %s\n", tool, status, len(all), tokens, detail)
}
