package mcpsurface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// rpcGuard answers, over HTTP, two cases the SDK's streamable handler
// would answer otherwise than the rest of the protocol (docs/mcp.md,
// "Transports and safety"):
//
//   - a call of a method the server does not know, in a session
//     (2025-11-25 and earlier): the SDK answers HTTP 400 with a plain-text
//     body; it is JSON-RPC -32601 ("method not found") with the call's
//     id, as over stdio and under 2026-07-28;
//   - under 2026-07-28, tasks/get, tasks/cancel and tasks/update whose
//     Mcp-Name header differs from the body's taskId: HTTP 400 with
//     JSON-RPC -32020, as the SDK answers every other header mismatch
//     (Mcp-Method, Mcp-Name of tools/call), not -32020 inside HTTP 200.
//
// It reads the body of a POST (at most maxBody bytes; a longer one is
// passed on whole, for the SDK's 413) and gives it on unchanged.
func rpcGuard(next http.Handler, maxBody int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			http.Error(w, "engine mcp: reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(b), r.Body), r.Body}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				TaskID any `json:"taskId"`
			} `json:"params"`
		}
		if int64(len(b)) > maxBody || json.Unmarshal(b, &msg) != nil || msg.Method == "" {
			next.ServeHTTP(w, r) // a batch, a response, or not JSON: the SDK's
			return
		}
		call := len(msg.ID) > 0 && string(msg.ID) != "null"
		if r.Header.Get("Mcp-Protocol-Version") >= StatelessProtocol {
			switch msg.Method {
			case "tasks/get", "tasks/cancel", "tasks/update":
				id, _ := msg.Params.TaskID.(string)
				if name := r.Header.Get("Mcp-Name"); name != "" && call && name != id {
					writeRPCError(w, http.StatusBadRequest, msg.ID, codeHeaderMismatch,
						fmt.Sprintf("header mismatch: Mcp-Name header value %q does not match body taskId %q", name, id))
					return
				}
			}
			next.ServeHTTP(w, r)
			return
		}
		if !call {
			next.ServeHTTP(w, r)
			return
		}
		uw := &unknownMethodWriter{ResponseWriter: w, suffix: fmt.Sprintf("%q unsupported", msg.Method)}
		next.ServeHTTP(uw, r)
		if uw.held {
			if strings.Contains(uw.body.String(), uw.suffix) {
				writeRPCError(w, http.StatusOK, msg.ID, -32601,
					fmt.Sprintf("method not found: %q (this server serves tools and resources; see tools/list)", msg.Method))
				return
			}
			w.WriteHeader(http.StatusBadRequest)
			w.Write(uw.body.Bytes()) //nolint:errcheck
		}
	})
}

// unknownMethodWriter holds back a plain-text 400 of the SDK, which
// rpcGuard turns into a JSON-RPC error when it says the method is not
// known; anything else passes through.
type unknownMethodWriter struct {
	http.ResponseWriter
	suffix string
	held   bool
	body   bytes.Buffer
}

func (u *unknownMethodWriter) WriteHeader(code int) {
	if code == http.StatusBadRequest && strings.HasPrefix(u.Header().Get("Content-Type"), "text/plain") {
		u.held = true
		return
	}
	u.ResponseWriter.WriteHeader(code)
}

func (u *unknownMethodWriter) Write(p []byte) (int, error) {
	if u.held {
		if u.body.Len() < 4096 {
			u.body.Write(p)
		}
		return len(p), nil
	}
	return u.ResponseWriter.Write(p)
}

func (u *unknownMethodWriter) Flush() {
	if f, ok := u.ResponseWriter.(http.Flusher); ok && !u.held {
		f.Flush()
	}
}

func (u *unknownMethodWriter) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// writeRPCError writes one JSON-RPC error response.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	w.Header().Del("Content-Length")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b) //nolint:errcheck
}
