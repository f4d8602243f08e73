//go:build corpus

package corpus_test

import (
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/openapi"
)

// schemeEnv gives every security scheme of a description a made-up
// secret in the variable the engine reads for it (docs/providers.md,
// "Auth from the description"), as a user who set them would: the
// engine sends each method's credentials where the description says
// (Trello's key and token in the query), and Prism, whose copy has no
// security requirements, ignores them.
func schemeEnv(name, file string, data []byte) []string {
	idx, err := openapi.Compile(name, file, data, nil, false)
	if err != nil {
		return nil
	}
	p, err := providers.Decode(idx)
	if err != nil || p.Security == nil {
		return nil
	}
	var out []string
	for _, s := range p.Security.Schemes {
		v := "corpus-" + s.Name
		if s.Type == providers.SchemeBasic {
			v = "corpus:" + s.Name
		}
		out = append(out, p.SchemeEnv(s)+"="+v)
	}
	return out
}
