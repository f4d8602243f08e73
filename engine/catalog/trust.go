package catalog

import (
	"fmt"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

// Which definitions may name credentials. An index header names the
// environment variables a provider's token is read from (token_env), and
// those of its app auth kind (auth.app.env: GitHub's GITHUB_APP_*).
// Whoever wrote the index chooses its base
// URL too, so only two kinds of definitions are trusted with them: the
// index compiled into the binary, and a `registry pull` of a built-in
// provider whose base URL is still the embedded index's (the pull's own
// check, made again at every load because the stored index is a file).
// Every other index (--provider NAME=FILE.idx, a document's compiled
// index, a provider kept by `registry add`, or any file found in the
// registry directory, whatever its checksum) loses its token variables
// (both kinds) when it is loaded: such a provider gets credentials only from --auth
// for its name (docs/providers.md, "Credentials").

// trustCredentials applies that rule to p, loaded from src; it returns
// why the token variables were dropped, or "".
func trustCredentials(src registry.Source, p *providers.Provider) string {
	if src.Embedded {
		return ""
	}
	named := p.DropCredentialEnv()
	if src.Stored != nil && src.Stored.Kind == registry.StoredPulled {
		emb, err := embeddedIndex(src.Name)
		switch {
		case err != nil:
			return fmt.Sprintf("no embedded index of %s to check the pulled one against (%v)", src.Name, err)
		case p.BaseURL != emb.BaseURL:
			return fmt.Sprintf("the pulled index's base URL %q is not the embedded index's %q", p.BaseURL, emb.BaseURL)
		}
		p.CredentialEnvFrom(&emb.Header)
		return ""
	}
	if !named {
		return ""
	}
	return "only the embedded index and a pulled built-in description may name token variables"
}

// embeddedIndex decodes the header of the embedded index of name.
func embeddedIndex(name string) (*providers.Provider, error) {
	for _, e := range registry.Embedded() {
		if e.Name != name {
			continue
		}
		data, err := e.Data()
		if err != nil {
			return nil, err
		}
		return providers.Decode(data)
	}
	return nil, fmt.Errorf("%s is not a built-in provider", name)
}
