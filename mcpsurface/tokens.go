package mcpsurface

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Token counts are o200k tokens (the encoding of current OpenAI models,
// close to other hosts' counts; docs/mcp.md, "What a result costs"): the
// log line of each result and the token figures of docs/mcp.md use it.
// bytes/4 undercounts TSV and JSON by up to half.

var (
	o200kOnce sync.Once
	o200k     tokenizer.Codec
)

// Tokens counts s in o200k tokens (bytes/4 if the encoding cannot load).
func Tokens(s string) int {
	o200kOnce.Do(func() {
		o200k, _ = tokenizer.Get(tokenizer.O200kBase)
	})
	if o200k != nil {
		if n, err := o200k.Count(s); err == nil {
			return n
		}
	}
	return (len(s) + 3) / 4
}
