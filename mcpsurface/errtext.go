package mcpsurface

import (
	"strings"

	"github.com/enginehq/engine/engine"
)

// serverSettings words, for an agent, the limits an error can be about
// (engine.Error.Setting): they are the server's settings, which no tool
// call changes, so the way out is a narrower statement. The CLI names
// its flags instead (cmd/engine/advice).
var serverSettings = map[string]string{
	"max-requests":             "The request limit (max-requests) is the server's setting, not the query's: narrow the statement to fewer requests (WHERE keys, fewer IN values, LIMIT) or aggregate over a smaller set.",
	"max-pages":                "The page limit of a call (max-pages) is the server's setting, not the query's: narrow the statement (WHERE keys, LIMIT) so that each call reads fewer pages.",
	engine.SettingQueryTimeout: "The time limit (query-timeout) is the server's setting, not the query's: only a narrower statement finishes in time.",
	"max-value-bytes":          "The value limit (max-value-bytes) is the server's setting, not the query's: select less (fewer columns, substr()).",
}

// agentMessage is e's message as an agent reads it, with the way out it
// can take: the server's setting named as such (the leaves say how to
// narrow, never to raise a limit: each surface adds its own way out), and
// the next step of a provider's refusal (engine.Error.NextStep).
func agentMessage(e *engine.Error) string {
	msg := e.Error()
	setting, _, _ := strings.Cut(e.Setting, ":")
	if add, ok := serverSettings[setting]; ok {
		msg = strings.TrimRight(msg, ". ") + ". " + add
	}
	if next := e.NextStep(); next != "" {
		msg = strings.TrimRight(msg, ". ") + ". Next: " + next + "."
	}
	return msg
}
