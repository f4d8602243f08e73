package catalog

import (
	"errors"
	"fmt"

	"github.com/enginehq/engine/providers"
)

// Error is a catalog failure: an unknown provider, a definition that
// cannot be used, or an endpoint setting for no provider. The engine
// classifies it (engine.Classify) by ErrorKind and ErrorSetting.
type Error struct {
	// Kind is the engine's error kind: "plan" (the statement names what
	// cannot be used) or "usage" (a setting is wrong).
	Kind string
	// Setting names the setting the error is about ("provider",
	// "base-url", "auth"), or "".
	Setting string
	Err     error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ErrorKind is the engine error kind.
func (e *Error) ErrorKind() string { return e.Kind }

// ErrorSetting names the setting the error is about, or "".
func (e *Error) ErrorSetting() string { return e.Setting }

func planError(setting string, format string, args ...any) *Error {
	return &Error{Kind: "plan", Setting: setting, Err: fmt.Errorf(format, args...)}
}

func usageError(setting string, format string, args ...any) *Error {
	return &Error{Kind: "usage", Setting: setting, Err: fmt.Errorf(format, args...)}
}

// NotFound is a discovery request for a provider, service or table the
// catalog does not have. It carries the names only: each surface says
// what to do in its own terms (SHOW SERVICES, list_services).
type NotFound struct {
	// Provider is the provider asked for; Known lists the providers when
	// it is unknown.
	Provider string
	Known    []string
	// Service is set when the provider has no such service (Table empty)
	// or the table asked for is in it.
	Service string
	// Table is the resource name when the provider's service has no such
	// table; ServiceKnown tells whether the service exists.
	Table        string
	ServiceKnown bool
	// Suggestions are the closest names to what was asked, fully
	// qualified (github.repos.list_for_org, github.repos, github): at most
	// three, names a typo away, the same table name in another service or
	// the table of a service that abbreviates the name (suggest.go);
	// empty when none is close.
	Suggestions []string
	// Short is a table name of one or two parts as written (repos,
	// github.repos), when the error is about that (Catalog.ShortName):
	// Provider is then the provider it is read in, and Service the
	// service it names, if any.
	Short string
}

// DidYouMean is "did you mean a, b or c?", or "" without suggestions:
// each surface adds it to its own wording of the error.
func (e *NotFound) DidYouMean() string { return providers.DidYouMean(e.Suggestions) }

// AsNotFound returns err's *NotFound when it is one, with its suggestions
// as the surfaces put them after a semicolon (" did you mean a?", or ""),
// for each surface to phrase the error in its own terms.
func AsNotFound(err error) (nf *NotFound, dym string, ok bool) {
	if !errors.As(err, &nf) {
		return nil, "", false
	}
	if d := nf.DidYouMean(); d != "" {
		dym = " " + d
	}
	return nf, dym, true
}

func (e *NotFound) Error() string {
	var msg string
	switch {
	case e.Short != "":
		msg = fmt.Sprintf("no table %s: tables are named provider.service.resource", e.Short)
	case e.Table != "":
		msg = fmt.Sprintf("unknown table %s.%s.%s", e.Provider, e.Service, e.Table)
	case e.Service != "":
		msg = fmt.Sprintf("provider %s has no service %q", e.Provider, e.Service)
	default:
		msg = fmt.Sprintf("unknown provider %q", e.Provider)
	}
	if dym := e.DidYouMean(); dym != "" {
		msg += "; " + dym
	}
	return msg
}

// ErrorKind is "plan": the same name in a SELECT would fail to plan.
func (e *NotFound) ErrorKind() string { return "plan" }
