package mcpsurface

import (
	"fmt"
	"strings"
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
// Counting takes about 0.2 ms per KB, so text past exactTokenBytes (a
// result resource, or a result with the caps off) is estimated from its
// first exactTokenBytes; exact is false then.
func Tokens(s string) (n int, exact bool) {
	o200kOnce.Do(func() {
		o200k, _ = tokenizer.Get(tokenizer.O200kBase)
	})
	if o200k == nil {
		return (len(s) + 3) / 4, false
	}
	sample := s
	if len(s) > exactTokenBytes {
		sample = strings.ToValidUTF8(s[:exactTokenBytes], "")
	}
	n, err := o200k.Count(sample)
	if err != nil {
		return (len(s) + 3) / 4, false
	}
	if len(sample) < len(s) {
		return int(float64(n) * float64(len(s)) / float64(len(sample))), false
	}
	return n, true
}

// exactTokenBytes is the most text Tokens counts exactly.
const exactTokenBytes = 1 << 20

// tokenField is the log field of a token count: "tokens=N", with
// " (estimated)" after it when the count is not exact.
func tokenField(s string) string {
	n, exact := Tokens(s)
	if exact {
		return fmt.Sprintf("tokens=%d", n)
	}
	return fmt.Sprintf("tokens=%d (estimated)", n)
}
