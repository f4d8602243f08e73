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
}

// raiseClauses are the leaves' "or raise the limit" endings, which say
// what an operator may do: an agent cannot, so they are left out.
var raiseClauses = []string{" or raise the request limit", " or raise the page limit"}

// agentMessage is e's message as an agent reads it: without the way out
// it cannot take (raising a server limit), with the one it can (the
// server's setting named as such; the next step of a provider's
// refusal, engine.Error.NextStep).
func agentMessage(e *engine.Error) string {
	msg := e.Error()
	setting, _, _ := strings.Cut(e.Setting, ":")
	if add, ok := serverSettings[setting]; ok {
		for _, c := range raiseClauses {
			msg = strings.Replace(msg, c, "", 1)
		}
		msg = strings.TrimRight(msg, ". ") + ". " + add
	}
	if next := e.NextStep(); next != "" {
		msg = strings.TrimRight(msg, ". ") + ". Next: " + next + "."
	}
	return msg
}
