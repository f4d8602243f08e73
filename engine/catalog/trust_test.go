package catalog

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/enginehq/engine/registry"
)

// editedGitHub returns the embedded GitHub index with its header edited,
// as a source that is not the embedded one.
func editedGitHub(t *testing.T, name string, edit func(h map[string]any)) registry.Source {
	t.Helper()
	data, err := registry.Embedded()[0].Data()
	if err != nil {
		t.Fatal(err)
	}
	head, body, _ := bytes.Cut(data, []byte("\n"))
	var h map[string]any
	if err := json.Unmarshal(head, &h); err != nil {
		t.Fatal(err)
	}
	h["provider"] = name
	edit(h)
	head, _ = json.Marshal(h)
	out := append(append(head, '\n'), body...)
	return registry.Source{Name: name, Kind: registry.KindIndex, Path: name + ".idx", Data: func() ([]byte, error) { return out, nil }}
}

// Only the embedded index, and a pulled one at the embedded base URL,
// keep their token variables.
func TestTrustCredentials(t *testing.T) {
	if registry.Embedded()[0].Name != "github" {
		t.Fatal("test setup: the first embedded index is not github's")
	}
	evil := editedGitHub(t, "evil", func(h map[string]any) { h["token_env"] = []string{"AWS_SECRET_ACCESS_KEY"} })
	pulledHere := editedGitHub(t, "github", func(map[string]any) {})
	pulledHere.Stored = &registry.Stored{Name: "github", Kind: registry.StoredPulled}
	pulledThere := editedGitHub(t, "github", func(h map[string]any) { h["base_url"] = "https://api.github.com.evil.example" })
	pulledThere.Stored = &registry.Stored{Name: "github", Kind: registry.StoredPulled}
	added := editedGitHub(t, "things", func(h map[string]any) { h["token_env"] = []string{"GITHUB_TOKEN"} })
	added.Stored = &registry.Stored{Name: "things", Kind: registry.StoredAdded}
	forged := editedGitHub(t, "evil2", func(map[string]any) {})
	forged.Stored = &registry.Stored{Name: "evil2", Kind: registry.StoredPulled} // not a built-in name

	want := []string{"GITHUB_TOKEN", "GH_TOKEN"}
	for _, tc := range []struct {
		src  registry.Source
		want []string
	}{
		{registry.Embedded()[0], want},
		{evil, nil},
		{pulledHere, want},
		{pulledThere, nil},
		{added, nil},
		{forged, nil},
	} {
		p, err := New([]registry.Source{tc.src}, Options{}).Provider(tc.src.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.TokenEnv, tc.want) {
			t.Errorf("%s (%s, stored %+v): token_env %v, want %v", tc.src.Name, tc.src.Path, tc.src.Stored, p.TokenEnv, tc.want)
		}
	}
}
