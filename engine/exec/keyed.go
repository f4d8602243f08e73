package exec

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/enginehq/engine/providers"
)

// maxNamedKeys bounds the failing keys a fan-out's error names; the
// others are counted.
const maxNamedKeys = 10

// keyedFailure is one call of a fan-out that the provider refused for
// its own key.
type keyedFailure struct {
	call int
	err  *providers.ProviderError
}

// keyFailure is err when the provider refused the call for its key (the
// answer would be the same for no other key): 403 other than a rate
// limit, 404, 410, 422, 451, not retryable. Anything else (401, a rate
// limit, a 5xx, a transport failure, a timeout) stops the fan-out.
func keyFailure(err error) *providers.ProviderError {
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || pe.Retryable {
		return nil
	}
	switch pe.Status {
	case http.StatusForbidden, http.StatusNotFound, http.StatusGone, http.StatusUnprocessableEntity, http.StatusUnavailableForLegalReasons:
		return pe
	}
	return nil
}

// KeyedError is a fan-out whose calls failed for their keys: the first
// failing call's error (its kind, status and provider are the
// statement's), with every failing key named, at most maxNamedKeys of
// them, and counted.
type KeyedError struct {
	First *providers.ProviderError
	// Keys are the failing calls' keys ("repo=alpha"), in call order,
	// with their status; Count is how many failed, Calls how many the
	// fan-out made.
	Keys  []string
	Count int
	Calls int
}

func (e *KeyedError) Error() string {
	msg := fmt.Sprintf("%s; %d of the fan-out's %d calls failed: %s", e.First.Error(), e.Count, e.Calls, strings.Join(e.Keys, ", "))
	if more := e.Count - len(e.Keys); more > 0 {
		msg += fmt.Sprintf(" and %d more", more)
	}
	return msg
}

// Unwrap is the first failing call's error: the statement is classified
// by it.
func (e *KeyedError) Unwrap() error { return e.First }

func newKeyedError(keyed []keyedFailure, calls []map[string]string) error {
	sort.Slice(keyed, func(i, j int) bool { return keyed[i].call < keyed[j].call })
	varying := varyingParams(calls)
	e := &KeyedError{First: keyed[0].err, Count: len(keyed), Calls: len(calls)}
	for _, k := range keyed[:min(len(keyed), maxNamedKeys)] {
		parts := make([]string, 0, len(varying))
		for _, name := range varying {
			parts = append(parts, name+"="+calls[k.call][name])
		}
		e.Keys = append(e.Keys, fmt.Sprintf("%s (%d)", strings.Join(parts, " "), k.err.Status))
	}
	return e
}

// varyingParams are the parameters whose values differ between the
// calls (the fan-out's keys), sorted; all of them when none differ.
func varyingParams(calls []map[string]string) []string {
	var out, all []string
	for name, v := range calls[0] {
		all = append(all, name)
		for _, c := range calls[1:] {
			if c[name] != v {
				out = append(out, name)
				break
			}
		}
	}
	if len(out) == 0 {
		out = all
	}
	sort.Strings(out)
	return out
}
