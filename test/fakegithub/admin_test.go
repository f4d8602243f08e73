package fakegithub

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func adminDo(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw json.RawMessage
	json.NewDecoder(resp.Body).Decode(&raw)
	return resp.StatusCode, raw
}

func TestAdminEndpoints(t *testing.T) {
	s := ForTest(t)
	st, b := adminDo(t, "POST", s.URL()+"/_fake/faults", `{"path":"^/orgs/acme/repos$","page":2,"kind":"status","status":500,"times":1}`)
	if st != 201 {
		t.Fatalf("POST fault: %d %s", st, b)
	}
	st, _ = adminDo(t, "POST", s.URL()+"/_fake/faults", `[{"path":"^/user$","kind":"slow","delay":"20ms"},{"path":"^/rate_limit$","kind":"slow","delay_ms":5}]`)
	if st != 201 {
		t.Fatalf("POST faults array: %d", st)
	}
	fs := s.Faults()
	if len(fs) != 3 || fs[1].Delay != 20*time.Millisecond || fs[2].Delay != 5*time.Millisecond {
		t.Errorf("faults: %+v", fs)
	}
	for _, bad := range []string{`{"kind":"nope"}`, `{"kind":"status","path":"("}`, `not json`} {
		if st, _ := adminDo(t, "POST", s.URL()+"/_fake/faults", bad); st != 400 {
			t.Errorf("%s: %d", bad, st)
		}
	}
	if resp, _ := get(t, s.URL()+"/orgs/acme/repos?page=2"); resp.StatusCode != 500 {
		t.Errorf("injected over HTTP: %d", resp.StatusCode)
	}
	get(t, s.URL()+"/orgs/acme/repos?page=2")
	st, b = adminDo(t, "GET", s.URL()+"/_fake/requests", "")
	var log []Request
	if err := json.Unmarshal(b, &log); err != nil || st != 200 {
		t.Fatalf("GET requests: %d %v", st, err)
	}
	if len(log) != 2 || log[0].Status != 500 || log[1].Status != 200 || log[0].Page != 2 {
		t.Errorf("log: %+v", log)
	}
	adminDo(t, "DELETE", s.URL()+"/_fake/requests", "")
	adminDo(t, "DELETE", s.URL()+"/_fake/faults", "")
	if len(s.Requests()) != 0 || len(s.Faults()) != 0 {
		t.Errorf("after DELETE: %d requests, %d faults", len(s.Requests()), len(s.Faults()))
	}
	if st, _ := adminDo(t, "GET", s.URL()+"/_fake/nope", ""); st != 404 {
		t.Errorf("unknown admin: %d", st)
	}
	st, b = adminDo(t, "GET", s.URL()+"/_fake/requests", "")
	if st != 200 || string(b) != "[]" {
		t.Errorf("empty log: %s", b)
	}
}
