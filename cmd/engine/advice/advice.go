// Package advice renders engine errors in plain words with what to do
// next (retry and when, which token to set, which WHERE keys are missing).
// exec and shell print errors through it; it must not import the
// surfaces.
package advice

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
)

// Credentials tells the explanation whether a provider's requests went out
// without a secret, and which variable would supply one.
type Credentials struct {
	Anonymous bool
	TokenEnv  string // e.g. GITHUB_TOKEN
	// Advice is the provider profile's credentials advice, used when no
	// token variable is read for the provider (a --provider document).
	Advice string
	// App is what the provider's profile calls its app credentials (e.g.
	// "GitHub App"), "" when it declares none; AppEnv names the variables
	// that give them without --auth (app ID, private key path, private
	// key: the app ID first, then each way to give the key), when the
	// provider reads them.
	App    string
	AppEnv []string
}

// Explain renders an engine error in plain words: what failed, then what
// to do. now is used to turn retry_after_seconds into a wall-clock time.
func Explain(e *engine.Error, cred Credentials, now time.Time) string {
	if e.Kind == engine.KindCancelled {
		return "query cancelled"
	}
	var b strings.Builder
	// The message is one line (paths and names in it may hold newlines:
	// shown escaped, so it cannot forge a line of a CI log); the advice
	// lines follow.
	fmt.Fprintf(&b, "error (%s): %s", e.Kind, result.Sanitize(e.Error()))
	advice := func(format string, args ...any) {
		b.WriteString("\n  ")
		fmt.Fprintf(&b, format, args...)
	}
	switch e.Kind {
	case engine.KindProvider:
		explainProvider(e, cred, now, advice)
	case engine.KindIncomplete:
		if e.Retryable() {
			advice("retryable: the provider's answer is partial (a search that timed out, or whose matches changed while it was read), so no rows are shown; run the statement again, or narrow the search.")
		} else {
			advice("not retryable: the engine cannot get every row of this query, so no rows are shown; narrow the query as the message says.")
		}
	case engine.KindPlan:
		if e.Table != "" && len(e.Missing) > 0 {
			advice("DESCRIBE %s lists its columns and the WHERE keys each method needs.", e.Table)
		}
	case engine.KindTimeout:
		if e.Setting == "" {
			// a request's own timeout or the provider's: no limit of ours ran out
			advice("a retry may help; narrow the query (WHERE keys, LIMIT) or raise --query-timeout.")
		}
	case engine.KindInternal:
		advice("this is a bug in engine; please report it with the statement.")
	}
	if a := SettingAdvice(e.Setting); a != "" {
		advice("%s", a)
	}
	return b.String()
}

// settingAdvice spells the engine's settings (engine.Error.Setting) as
// the CLI's flags: the library's messages name no flags (an MCP agent has
// none), so the CLI adds them here, as cli/cli's FlagError does.
var settingAdvice = map[string]string{
	"max-requests":    "the limit is --max-requests; raise it only if the statement really needs more.",
	"max-pages":       "the limit is --max-pages; raise it only if the statement really needs more.",
	"query-timeout":   "the limit is --query-timeout; raise it only if the statement really needs longer.",
	"max-value-bytes": "the limit is --max-value-bytes (ENGINE_MAX_VALUE_BYTES); raise it only for data that really holds such values.",
	"provider":        "providers are given with --provider NAME=PATH[,profile=FILE].",
	"base-url":        "base URLs are given with --base-url NAME=URL (or ENGINE_BASE_URL_NAME).",
	"auth":            "credentials are given with --auth (a JSON object keyed by provider name).",
	"param":           "parameters set once are given with --param NAME.PARAM=VALUE.",
	"cache-dir":       "the cache directory is --cache-dir (ENGINE_CACHE_DIR); --no-cache turns the cache off.",
}

// SettingAdvice is the CLI's advice for an error about setting (the flag
// that changes it), or "".
// A setting may name its subject after a colon ("provider:acme"): the
// advice then names it where it says NAME.
func SettingAdvice(setting string) string {
	setting, subject, ok := strings.Cut(setting, ":")
	a := settingAdvice[setting]
	if ok && subject != "" {
		a = strings.ReplaceAll(a, "NAME", subject)
	}
	return a
}

// WithSetting is err's message followed by the advice for the setting it
// carries (the first ErrorSetting in its chain that names one), if any:
// the same advice Explain gives.
func WithSetting(err error) string {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if s, ok := e.(interface{ ErrorSetting() string }); ok && s.ErrorSetting() != "" {
			if a := SettingAdvice(s.ErrorSetting()); a != "" {
				return err.Error() + "; " + a
			}
			break
		}
	}
	return err.Error()
}

func explainProvider(e *engine.Error, cred Credentials, now time.Time, advice func(string, ...any)) {
	p := e.Provider
	if p == nil {
		return
	}
	what := "network error"
	switch p.Kind {
	case "pagination":
		what = "pages the engine cannot follow"
	case "link":
		what = "a next page the engine will not follow"
	case "timeout":
		what = "each attempt timed out"
	}
	if p.Status > 0 {
		what = fmt.Sprintf("HTTP %d", p.Status)
	}
	if p.RateLimited {
		what += " (rate limit)"
	}
	if p.Attempts > 1 {
		what += fmt.Sprintf(" after %d attempts", p.Attempts)
	}
	appSent := p.Kind == "auth" && (p.Status > 0 || p.Retryable)
	switch {
	case p.Kind == "budget" || p.Kind == "paused":
		advice("nothing was sent to %s: the credential's rate-limit budget does not allow it now.", p.Provider)
	case p.Kind == "auth" && !appSent:
		advice("nothing was sent to %s: the %s settings do not cover this request.", p.Provider, appName(cred))
	case p.Kind == "auth" && p.Status == 0:
		advice("provider %s gave no answer to the %s's token request (%s).", p.Provider, appName(cred), what)
	case p.Kind == "unreachable":
		advice("%s could not be reached: no request got to provider %s.", hostOf(p.URL, p.Provider), p.Provider)
	case p.Status == 0 && (p.Kind == "transport" || p.Kind == "timeout"):
		advice("provider %s gave no answer (%s).", p.Provider, what)
	case p.Kind == "auth":
		advice("provider %s answered %s to the %s's token request.", p.Provider, what, appName(cred))
	default:
		advice("provider %s answered %s.", p.Provider, what)
	}
	setToken := credentialHint(cred, p.Provider) // "set GITHUB_TOKEN", or the provider's own advice
	orToken := ""
	if cred.Anonymous {
		orToken = ", or " + setToken + " for a higher limit"
	}
	switch {
	case p.Kind == "auth" && !appSent:
		advice("not retryable: fix the %s settings as the message says (%s).", appName(cred), appSettings(cred))
	case p.Kind == "auth" && p.Status == 401:
		advice("not retryable: the %s's JWT was refused: check the app ID and that the private key is that app's (%s).", appName(cred), appSettings(cred))
	case p.Kind == "auth" && !p.Retryable:
		advice("not retryable: the %s's credentials could not be exchanged for an installation token; the message says why (%s).", appName(cred), appSettings(cred))
	case p.Kind == "unreachable" && p.Retryable:
		advice("retryable: the name could not be resolved now; running the statement again may work once the network is back; %s.", offlineHint(p.Provider))
	case p.Kind == "unreachable":
		advice("not retryable: check the network and the provider's address; %s.", offlineHint(p.Provider))
	case p.RateLimited && p.RetryAfterSeconds() > 0:
		at := now.Add(time.Duration(p.RetryAfterSeconds()) * time.Second).UTC()
		advice("retryable: rate limit: retry after %s UTC (in %s)%s.", at.Format("15:04"), humanWait(p.RetryAfterSeconds()), orToken)
	case p.RateLimited:
		advice("retryable: rate limit: wait a minute and retry%s.", orToken)
	case p.Retryable && p.RetryAfterSeconds() > 0:
		at := now.Add(time.Duration(p.RetryAfterSeconds()) * time.Second).UTC()
		advice("retryable: a temporary failure; retry after %s UTC (in %s).", at.Format("15:04"), humanWait(p.RetryAfterSeconds()))
	case p.Retryable && p.Status == 0 && p.Kind == "timeout":
		advice("retryable: the provider was too slow; running the statement again may work, and --request-timeout (30 s by default) gives each attempt longer where it is always slow.")
	case p.Retryable && p.Status == 0 && p.Kind == "transport":
		advice("retryable: the connection failed or timed out; running the statement again may work; if this machine is offline, %s.", offlineHint(p.Provider))
	case p.Retryable:
		advice("retryable: a temporary failure; running the statement again may work.")
	case p.Kind == "pagination":
		advice("not retryable: the rows would be incomplete; declare the method's pagination in the provider's profile as the message says (docs/providers.md).")
	case p.Kind == "link":
		advice("not retryable: the provider's Link header points where its next page cannot be (the message says where), so the rows would be wrong or endless and none are shown; the fault is the provider's: report it to them, or narrow the query to one page (LIMIT).")
	case p.Kind == "decode" && p.Status >= 200 && p.Status <= 299:
		advice("not retryable: the provider answered, but not in the shape its description declares for this method, so its rows cannot be read; the description is wrong here: declare what the rows are in the provider's profile (tables.rows, docs/providers.md).")
	case p.Status >= 200 && p.Status <= 299:
		advice("not retryable: the provider said in its answer that the request failed; the message says why and what to do.")
	case p.Kind == "redirect":
		advice("not retryable: the provider answered with a redirect, which is not this method's answer; the message says where it pointed and what to do.")
	case p.Status == 401 && cred.Anonymous:
		advice("not retryable: no credentials were sent, and %s requires them; %s.", p.Provider, credentialHintOr(cred, p.Provider))
	case p.Status == 401:
		if cred.TokenEnv != "" {
			advice("not retryable: the credentials were refused; check %s (or --auth).", cred.TokenEnv)
		} else {
			advice("not retryable: the credentials were refused; %s.", setToken)
		}
	case p.Status == 403 && cred.Anonymous && cred.TokenEnv != "":
		advice("not retryable: forbidden without credentials; set %s to a token with access.", cred.TokenEnv)
	case p.Status == 403 && cred.Anonymous:
		advice("not retryable: forbidden without credentials; %s.", setToken)
	case p.Status == 403:
		advice("not retryable: the token lacks permission for this resource.")
	case p.Status == 404 && cred.Anonymous:
		advice("not retryable: not found, or private; %s if it should be visible.", setToken)
	case p.Status == 404:
		advice("not retryable: not found, or not visible to this token.")
	default:
		advice("not retryable: fix the query's WHERE values; running it again will fail the same way.")
	}
}

// offlineHint says how to query without reaching the provider's host.
func offlineHint(provider string) string {
	return "--base-url " + provider + "=URL points it at another server, and offline `make demo` in a checkout of engine serves a fake GitHub on loopback"
}

// appName is what the provider calls its app credentials.
func appName(cred Credentials) string {
	if cred.App != "" {
		return cred.App
	}
	return "app"
}

// appSettings says where the app credentials are set: --auth's app entry,
// or the variables the provider reads for them.
func appSettings(cred Credentials) string {
	s := `--auth's "app" entry`
	switch n := len(cred.AppEnv); {
	case n == 1:
		s += ", or " + cred.AppEnv[0]
	case n > 1:
		s += ", or " + cred.AppEnv[0] + " with " + strings.Join(cred.AppEnv[1:], " or ")
	}
	return s
}

// credentialHintOr is credentialHint, with --auth as the alternative to
// a token variable.
func credentialHintOr(cred Credentials, provider string) string {
	if cred.TokenEnv != "" {
		return "set " + cred.TokenEnv + " (or --auth)"
	}
	return credentialHint(cred, provider)
}

// hostOf is the host of a request URL, or "provider NAME" when it has none.
func hostOf(rawURL, provider string) string {
	if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
		return u.Host
	}
	return "provider " + provider
}

func humanWait(s int) string {
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%d min", (s+59)/60)
	}
	m := (s + 59) / 60
	return fmt.Sprintf("%dh%02d", m/60, m%60)
}

// credentialHint says how to give a provider credentials: "set VAR" for
// a provider whose token variable is read (built-in profiles), else its
// profile's advice, else --auth for its name.
func credentialHint(cred Credentials, provider string) string {
	switch {
	case cred.TokenEnv != "":
		return "set " + cred.TokenEnv
	case cred.Advice != "":
		return strings.TrimSuffix(cred.Advice, ".")
	}
	return fmt.Sprintf(`pass credentials with --auth '{"%s":{"type":"bearer","credentialsenvvar":"VAR"}}'`, provider)
}
