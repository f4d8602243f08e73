package fakegithub

import (
	"encoding/json"
	"io"
	"net/http"
)

// admin serves the out-of-process control endpoints (never logged, never
// faulted):
//
//	POST   /_fake/faults    body: one Fault (or a JSON array of them) → 201
//	GET    /_fake/faults    current rules
//	DELETE /_fake/faults    clear all rules
//	GET    /_fake/requests  request log (JSON array of Request)
//	DELETE /_fake/requests  clear the log
//	POST   /_fake/reset     clear rules and log
func (s *Server) admin(w http.ResponseWriter, r *http.Request) {
	reply := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.Encode(v) //nolint:errcheck
	}
	ok := obj{"ok": true}
	switch r.Method + " " + r.URL.Path {
	case "POST /_fake/faults":
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			reply(http.StatusBadRequest, obj{"error": err.Error()})
			return
		}
		var fs []Fault
		if len(body) > 0 && body[0] == '[' {
			err = json.Unmarshal(body, &fs)
		} else {
			var f Fault
			err = json.Unmarshal(body, &f)
			fs = []Fault{f}
		}
		if err == nil {
			for _, f := range fs {
				if _, err = compileFault(f); err != nil {
					break
				}
			}
		}
		if err != nil {
			reply(http.StatusBadRequest, obj{"error": err.Error()})
			return
		}
		for _, f := range fs {
			s.inject(f) //nolint:errcheck // validated above
		}
		reply(http.StatusCreated, s.Faults())
	case "GET /_fake/faults":
		reply(http.StatusOK, s.Faults())
	case "DELETE /_fake/faults":
		s.ClearFaults()
		reply(http.StatusOK, ok)
	case "GET /_fake/requests":
		reply(http.StatusOK, s.Requests())
	case "DELETE /_fake/requests":
		s.ResetRequests()
		reply(http.StatusOK, ok)
	case "POST /_fake/reset":
		s.ClearFaults()
		s.ResetRequests()
		reply(http.StatusOK, ok)
	default:
		reply(http.StatusNotFound, obj{"error": "unknown admin endpoint " + r.Method + " " + r.URL.Path})
	}
}
