package providers

import (
	"fmt"
	"sort"
	"strings"
)

// ParamPreset is one parameter set once for a provider in its profile
// (params): a Value, or the environment variable Env that holds it (which,
// like every variable a profile names, must start with the provider's
// prefix, EnvPrefix).
type ParamPreset struct {
	Value string `json:"value,omitempty"`
	Env   string `json:"env,omitempty"`
}

// PresetValues resolves the profile's params (Header.Params) with
// getenv, then overrides them with given (the config's, by the API's
// name): the values to send for every method that takes a header or
// query parameter of that name (compared ignoring case), keyed by the
// lower-case name. A profile's variable that is unset leaves its
// parameter to WHERE.
func (h *Header) PresetValues(given map[string]string, getenv func(string) string) map[string]string {
	out := map[string]string{}
	prefix := EnvPrefix(h.Provider)
	for name, p := range h.Params {
		switch {
		case p.Value != "":
			out[strings.ToLower(name)] = p.Value
		case p.Env != "" && strings.HasPrefix(p.Env, prefix) && getenv != nil:
			if v := strings.TrimSpace(getenv(p.Env)); v != "" {
				out[strings.ToLower(name)] = v
			}
		}
	}
	for name, v := range given {
		out[strings.ToLower(name)] = v
	}
	return out
}

// SetPresets makes every header or query parameter named in values
// (lower-case API names, PresetValues) optional with its preset value,
// in the resources decoded from now on. Call it before the first
// Resource.
func (p *Provider) SetPresets(values map[string]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(values) == 0 {
		p.presets = nil
		return
	}
	p.presets = values
}

// Presets returns the preset parameter names, sorted (for messages).
func (p *Provider) Presets() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.presets))
	for k := range p.presets {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// applyPresets sets the presets on r's parameters.
func (p *Provider) applyPresets(r *Resource) {
	if len(p.presets) == 0 {
		return
	}
	for _, m := range r.Methods {
		for i := range m.Params {
			pp := &m.Params[i]
			if pp.In != InHeader && pp.In != InQuery {
				continue
			}
			if v, ok := p.presets[strings.ToLower(pp.Key())]; ok {
				pp.Preset, pp.Required = v, false
			}
		}
	}
}

// CheckPresetName validates a parameter name set once (a profile's or the
// config's params).
func CheckPresetName(name string) error {
	if name == "" || strings.ContainsAny(name, " \t\r\n:=") {
		return fmt.Errorf("%q is not a parameter name", name)
	}
	return nil
}
