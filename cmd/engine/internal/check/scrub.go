package check

import "github.com/enginehq/engine/providers"

// scrub removes secrets from text that leaves the process.
func scrub(s string, secrets []string) string {
	if len(secrets) == 0 {
		return s
	}
	return providers.Redact(s, secrets...)
}
