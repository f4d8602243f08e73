package store

import (
	"fmt"
	"strings"
	"sync"

	"modernc.org/sqlite"
)

// Functions the user's SQL may never call, even though SQLite would.
var deniedFunctions = map[string]bool{
	"load_extension": true, "readfile": true, "writefile": true, "edit": true,
	"fts3_tokenizer": true, "sqlite_compileoption_get": false,
}

// Pragmas that only read harmless state.
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_list": true,
	"index_info": true, "function_list": true, "collation_list": true,
}

// readOnly is the authorizer of the user's statement: it allows reading
// the materialised tables, functions and recursive CTEs, and refuses
// everything else (writes, schema changes, ATTACH, DETACH, transactions,
// pragmas other than harmless reads, load_extension and file access).
type readOnly struct {
	mu     sync.Mutex
	denied string
}

func (a *readOnly) fn(action sqlite.AuthorizerActionCode, arg1, arg2, db, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
		if action == sqlite.AuthRead && db != "" && db != "main" && db != "temp" {
			return a.deny("reading database " + db)
		}
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		if deniedFunctions[strings.ToLower(arg2)] {
			return a.deny("the function " + arg2)
		}
		return sqlite.AuthorizerOK
	case sqlite.AuthPragma:
		if readPragmas[strings.ToLower(arg1)] {
			return sqlite.AuthorizerOK
		}
		return a.deny("PRAGMA " + arg1)
	case sqlite.AuthAttach:
		return a.deny("ATTACH")
	case sqlite.AuthDetach:
		return a.deny("DETACH")
	case sqlite.AuthInsert, sqlite.AuthUpdate, sqlite.AuthDelete:
		return a.deny("writing to " + arg1)
	case sqlite.AuthTransaction, sqlite.AuthSavepoint:
		return a.deny("transactions")
	}
	return a.deny(fmt.Sprintf("this operation (SQLite action %d)", action))
}

func (a *readOnly) deny(what string) sqlite.AuthorizerReturnCode {
	a.mu.Lock()
	if a.denied == "" {
		a.denied = what
	}
	a.mu.Unlock()
	return sqlite.AuthorizerDeny
}

func (a *readOnly) reason() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.denied
}

// setAuthorizer installs (fn != nil) or removes the connection's authorizer.
func (s *Store) setAuthorizer(fn sqlite.AuthorizerFn) error {
	return s.conn.Raw(func(dc any) error {
		r, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("internal: the SQLite driver has no authorizer")
		}
		return r.RegisterAuthorizer(fn)
	})
}
