package mcpsurface

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine/result"
)

// The tasks extension (docs/mcp.md, "Protocol"): a client of protocol
// 2026-07-28 that declares it in a request's _meta clientCapabilities
// gets run_select_query as a task: the call
// answers at once with the task (resultType "task"), the statement runs
// on with its own context, tasks/get reports its status and progress and,
// once done, carries the same CallToolResult a plain call gives, and
// tasks/cancel cancels the statement (its requests stop). A client that
// does not declare it gets plain calls, and tasks/* methods answer
// -32021. A session of 2025-11-25 or earlier (initialize) gets plain
// calls whatever it declares, and tasks/* answer -32601: the envelope is
// 2026-07-28's, which such a client cannot read. Tasks belong to the
// principal that made them.
const tasksExtension = "io.modelcontextprotocol/tasks"

// Error codes of the extension (SEP-2575, SEP-2243).
const (
	codeMissingClientCapability = -32021
	codeHeaderMismatch          = -32020
)

// DefaultMaxTasks bounds the tasks running at once in one server.
const DefaultMaxTasks = 16

// taskPollMs is the poll interval suggested to clients.
const taskPollMs = 1000

// Task statuses.
const (
	taskWorking   = "working"
	taskCompleted = "completed"
	taskFailed    = "failed"
	taskCancelled = "cancelled"
)

type taskParams struct {
	mcp.ParamsBase
	TaskID         string         `json:"taskId"`
	InputResponses map[string]any `json:"inputResponses,omitempty"`
}

// taskResult is the task envelope: a CreateTaskResult (resultType
// "task") or a tasks/get answer (resultType "complete"), or, with only
// ResultType, the ack of tasks/cancel and tasks/update.
type taskResult struct {
	mcp.ResultBase
	ResultType     string              `json:"resultType"`
	TaskID         string              `json:"taskId,omitempty"`
	Status         string              `json:"status,omitempty"`
	StatusMessage  string              `json:"statusMessage,omitempty"`
	CreatedAt      string              `json:"createdAt,omitempty"`
	LastUpdatedAt  string              `json:"lastUpdatedAt,omitempty"`
	TTLMs          int64               `json:"ttlMs,omitempty"`
	PollIntervalMs int                 `json:"pollIntervalMs,omitempty"`
	Result         *mcp.CallToolResult `json:"result,omitempty"`
	Error          *taskError          `json:"error,omitempty"`
}

type taskError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

type task struct {
	id, owner string
	created   time.Time
	cancel    context.CancelFunc

	// guarded by tasks.mu
	status  string
	message string
	updated time.Time
	result  *mcp.CallToolResult
	err     *taskError
	pages   int
	planned int
}

// tasks holds a server's tasks: at most max running, and at most max
// finished ones, each kept for keep after it finished (the oldest
// finished go first).
type tasks struct {
	mu   sync.Mutex
	m    map[string]*task
	max  int
	keep time.Duration
}

func newTasks(max int, keep time.Duration) *tasks {
	if max <= 0 {
		max = DefaultMaxTasks
	}
	if keep <= 0 {
		keep = 30 * time.Minute
	}
	return &tasks{m: map[string]*task{}, max: max, keep: keep}
}

type taskKey struct{}

// runningTask is the task a statement runs in (nil for a plain call).
func runningTask(ctx context.Context) *task {
	t, _ := ctx.Value(taskKey{}).(*task)
	return t
}

// taskProgress returns the progress callbacks of the task ctx runs in,
// which record pages, or a notice of a long wait until the next page, in
// its status message (nil for a plain call).
func (s *Server) taskProgress(ctx context.Context) (onPage func(int), onEstimate func(int), onNotice func(string)) {
	t := runningTask(ctx)
	if t == nil {
		return nil, nil, nil
	}
	ts := s.tasks
	onPage = func(pages int) {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if t.status != taskWorking {
			return
		}
		t.pages, t.updated = pages, time.Now()
		t.message = result.Plural(pages, "page") + " fetched"
		if t.planned > 0 && pages <= t.planned {
			t.message = fmt.Sprintf("%d of %d planned pages fetched", pages, t.planned)
		}
	}
	onEstimate = func(n int) {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if n <= 0 || t.pages > 0 || t.status != taskWorking {
			return
		}
		t.planned, t.updated = n, time.Now()
		t.message = "planned: " + result.Plural(n, "first-page request")
	}
	onNotice = func(msg string) {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if t.status == taskWorking {
			t.message, t.updated = msg, time.Now()
		}
	}
	return onPage, onEstimate, onNotice
}

// addTasks registers the tasks methods, which the middleware answers.
func (s *Server) addTasks() {
	s.tasks = newTasks(s.cfg.MaxTasks, s.store.Options().TTL)
	for _, m := range []string{"tasks/get", "tasks/cancel", "tasks/update"} {
		// The SDK needs a handler to accept the method; tasksMiddleware
		// answers it before the handler is reached.
		_ = mcp.AddReceivingCustomMethod(s.mcp, m, func(context.Context, *mcp.ServerSession, *taskParams) (*taskResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tasks method reached no handler"}
		})
	}
}

// newProtocol reports whether req is a request of protocol
// StatelessProtocol (2026-07-28) or later: it carries its version in
// _meta. A request of a session opened by initialize (2025-11-25 or
// earlier; initialize never negotiates a later version) carries none.
func newProtocol(req mcp.Request) bool {
	p := req.GetParams()
	if p == nil {
		return false
	}
	v, _ := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string)
	return v >= StatelessProtocol
}

// tasksNegotiated reports whether req may be served as a task: a request
// of protocol 2026-07-28 or later whose _meta client capabilities declare
// the extension. The extension's envelope (resultType "task") is of that
// protocol: a client of 2025-11-25 or earlier that declares it in its
// initialize capabilities (MCP Inspector 2.12 does by default) would read
// it as a CallToolResult without content, so such sessions get plain
// results (docs/mcp.md, "Protocol").
func tasksNegotiated(req mcp.Request) bool {
	if !newProtocol(req) {
		return false
	}
	caps, _ := req.GetParams().GetMeta()[mcp.MetaKeyClientCapabilities].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	_, ok := ext[tasksExtension]
	return ok
}

// legacyCapabilities drops the tasks extension from the capabilities an
// initialize answers: a session it opens speaks 2025-11-25 or earlier,
// where the server serves no tasks (server/discover, of 2026-07-28,
// still declares it).
func legacyCapabilities(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if ir, ok := res.(*mcp.InitializeResult); ok && err == nil && ir.Capabilities != nil {
			if _, ok := ir.Capabilities.Extensions[tasksExtension]; ok {
				caps := *ir.Capabilities
				caps.Extensions = map[string]any{}
				for k, v := range ir.Capabilities.Extensions {
					if k != tasksExtension {
						caps.Extensions[k] = v
					}
				}
				if len(caps.Extensions) == 0 {
					caps.Extensions = nil
				}
				out := *ir
				out.Capabilities = &caps
				return &out, nil
			}
		}
		return res, err
	}
}

// tasksMiddleware makes run_select_query a task for a client that
// negotiated the extension, and answers tasks/get, tasks/cancel and
// tasks/update.
func (s *Server) tasksMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
			p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
			if !ok || p.Name != "run_select_query" || !tasksNegotiated(req) {
				return next(ctx, method, req)
			}
			return s.tasks.start(ctx, method, req, next)
		case "tasks/get", "tasks/cancel", "tasks/update":
			if !newProtocol(req) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
					Message: fmt.Sprintf("method %q is not served in this session: tasks are served under protocol %s (the %s extension); a session of an earlier version gets run_select_query's result from the call itself", method, StatelessProtocol, tasksExtension)}
			}
			if !tasksNegotiated(req) {
				data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{tasksExtension: map[string]any{}}}})
				return nil, &jsonrpc.Error{Code: codeMissingClientCapability, Data: data,
					Message: fmt.Sprintf("%s needs the %s extension: declare it in the client capabilities (extensions)", method, tasksExtension)}
			}
			p, _ := req.GetParams().(*taskParams)
			if p == nil || p.TaskID == "" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: method + " needs taskId: pass the taskId the tools/call answered"}
			}
			if x := req.GetExtra(); x != nil && x.Header != nil {
				if name := x.Header.Get("Mcp-Name"); name != "" && name != p.TaskID {
					return nil, &jsonrpc.Error{Code: codeHeaderMismatch, Message: fmt.Sprintf("header mismatch: Mcp-Name header value %q does not match body taskId %q", name, p.TaskID)}
				}
			}
			return s.tasks.handle(method, p.TaskID, principal(req))
		}
		return next(ctx, method, req)
	}
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func (ts *tasks) envelope(t *task, resultType string) *taskResult {
	return &taskResult{ResultType: resultType, TaskID: t.id, Status: t.status, StatusMessage: t.message,
		CreatedAt: stamp(t.created), LastUpdatedAt: stamp(t.updated), TTLMs: ts.keep.Milliseconds(), PollIntervalMs: taskPollMs}
}

// sweep drops expired finished tasks and, past max finished ones, the
// oldest. ts.mu is held.
func (ts *tasks) sweep(now time.Time) (running int) {
	var done []*task
	for id, t := range ts.m {
		if t.status == taskWorking {
			running++
			continue
		}
		if now.Sub(t.updated) > ts.keep {
			delete(ts.m, id)
			continue
		}
		done = append(done, t)
	}
	if len(done) > ts.max {
		sort.Slice(done, func(i, j int) bool { return done[i].updated.Before(done[j].updated) })
		for _, t := range done[:len(done)-ts.max] {
			delete(ts.m, t.id)
		}
	}
	return running
}

// start runs the call as a task and answers its CreateTaskResult.
func (ts *tasks) start(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	now := time.Now()
	ts.mu.Lock()
	if running := ts.sweep(now); running >= ts.max {
		ts.mu.Unlock()
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("too many tasks: %d statements are running as tasks, the server's bound (--max-tasks %d); wait for one to finish, or cancel one with tasks/cancel, and call again", running, ts.max)}
	}
	id, err := newTaskID()
	if err != nil {
		ts.mu.Unlock()
		return nil, err
	}
	// The statement outlives the request that started it: its own
	// context, which tasks/cancel (or the server's Close) cancels.
	tctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	t := &task{id: id, owner: principal(req), created: now, updated: now, cancel: cancel, status: taskWorking, message: "started"}
	ts.m[id] = t
	env := ts.envelope(t, "task")
	ts.mu.Unlock()

	go func() {
		defer cancel()
		res, err := next(context.WithValue(tctx, taskKey{}, t), method, req)
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if t.status != taskWorking { // cancelled meanwhile
			return
		}
		t.updated = time.Now()
		ctr, _ := res.(*mcp.CallToolResult)
		switch {
		case err != nil:
			te := &taskError{Code: jsonrpc.CodeInternalError, Message: err.Error()}
			var je *jsonrpc.Error
			if errors.As(err, &je) {
				te.Code, te.Message = je.Code, je.Message
			}
			t.status, t.err, t.message = taskFailed, te, "failed"
		case ctr == nil:
			t.status, t.err, t.message = taskFailed, &taskError{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("tools/call answered %T, not a tool result", res)}, "failed"
		default:
			t.status, t.result, t.message = taskCompleted, ctr, "completed"
			if ctr.IsError {
				t.message = "completed with a tool error"
			}
		}
	}()
	return env, nil
}

// handle answers tasks/get, tasks/cancel and tasks/update for owner.
func (ts *tasks) handle(method, id, owner string) (mcp.Result, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	now := time.Now()
	ts.sweep(now)
	t, ok := ts.m[id]
	if !ok || t.owner != owner {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("unknown task %q: it never existed, belongs to another principal, or expired (finished tasks are kept for %s)", id, ts.keep)}
	}
	switch method {
	case "tasks/cancel":
		if t.status == taskWorking {
			t.cancel()
			t.status, t.message, t.updated = taskCancelled, "cancelled by the client", now
		}
		return &taskResult{ResultType: "complete"}, nil
	case "tasks/update":
		// run_select_query asks for no input: nothing to update.
		return &taskResult{ResultType: "complete"}, nil
	}
	env := ts.envelope(t, "complete")
	env.Result, env.Error = t.result, t.err
	return env, nil
}

// closeAll cancels the running tasks.
func (ts *tasks) closeAll() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, t := range ts.m {
		if t.status == taskWorking {
			t.cancel()
			t.status, t.message, t.updated = taskCancelled, "the server closed", time.Now()
		}
	}
}

// newTaskID is an unguessable task id.
func newTaskID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a task id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
