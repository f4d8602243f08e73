package engine

import (
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers"
)

// MaxMessageBytes bounds an error message as every surface shows it (exec,
// the shell, check reports, MCP error results): a longer one keeps its
// beginning and end and says how much was elided in the middle. Provider
// answers are quoted in errors (messages, URLs with their cursors), and
// an 8 MiB cursor in a next link once made an 8 MB error.
const MaxMessageBytes = 4096

// BoundMessage is s within MaxMessageBytes (providers.ElideMiddle).
// Secrets must be redacted before: a secret cut in two would not be found.
func BoundMessage(s string) string { return providers.ElideMiddle(s, MaxMessageBytes) }

// MaxValueBytes is the longest value, stored row or result row of a
// statement (Options.MaxValueBytes, or store.DefaultMaxValueBytes).
func (e *Engine) MaxValueBytes() int {
	if e.opts.MaxValueBytes > 0 {
		return e.opts.MaxValueBytes
	}
	return store.DefaultMaxValueBytes
}
