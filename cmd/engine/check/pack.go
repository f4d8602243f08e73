package check

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
)

// packs are the embedded control packs: packs/NAME.yaml, each a control
// file with a pack: header (engine check --pack NAME).
//
//go:embed packs/*.yaml
var packs embed.FS

// PackSource is how a pack's controls name their file in reports and
// problems: "pack:NAME".
func PackSource(name string) string { return "pack:" + name }

// PackNames are the embedded packs' names, sorted.
func PackNames() []string {
	entries, _ := packs.ReadDir("packs")
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// PackData is the YAML of the embedded pack name, as shipped (engine
// check --pack NAME --print writes it, to start a file of one's own).
func PackData(name string) ([]byte, error) {
	data, err := packs.ReadFile(path.Join("packs", name+".yaml"))
	if err != nil {
		return nil, fmt.Errorf("no pack %q (engine check --list-packs lists them: %s)", name, strings.Join(PackNames(), ", "))
	}
	return data, nil
}

// LoadPack loads the embedded pack name.
func LoadPack(name string) (*File, []Problem) {
	data, err := PackData(name)
	if err != nil {
		return nil, []Problem{{File: PackSource(name), Message: err.Error()}}
	}
	return Load(PackSource(name), data)
}

// Combine makes one file of several control files and packs, in order:
// their controls one after the other (an id defined twice is a problem
// naming both places), their variables merged (a variable two files give
// different values is a problem; one that any of them leaves unset must be
// given with --var), their views (two definitions of one name are a
// problem), and the defaults of at most one of them.
func Combine(files []*File) (*File, []Problem) {
	if len(files) == 1 {
		return files[0], nil
	}
	var ps []Problem
	var names []string
	out := &File{Vars: map[string]*Var{}}
	viewFrom := map[string]string{}
	seen := map[string]*Control{}
	var defaultsFrom string
	for _, f := range files {
		names = append(names, f.Name)
		if len(f.Defaults.lines) > 0 {
			if defaultsFrom != "" {
				ps = append(ps, Problem{File: f.Name, Message: fmt.Sprintf("defaults: only one file of a run may give defaults (%s gives them too); give base URLs and auth with flags instead", defaultsFrom)})
			} else {
				out.Defaults, defaultsFrom = f.Defaults, f.Name
			}
		}
		for name, v := range f.Vars {
			prev, ok := out.Vars[name]
			switch {
			case !ok:
				cp := *v
				out.Vars[name] = &cp
			case v.Set && prev.Set && strings.Join(v.Values, "\x00") != strings.Join(prev.Values, "\x00"):
				ps = append(ps, Problem{File: f.Name, Line: v.Line, Message: fmt.Sprintf("vars.%s: another file of the run gives it another value; give it once with --var %s=...", name, name)})
			case v.Set && !prev.Set:
				cp := *v
				out.Vars[name] = &cp
			}
		}
		for name, def := range f.Views {
			if prev, ok := out.Views[name]; ok && prev != def {
				ps = append(ps, Problem{File: f.Name, Message: fmt.Sprintf("views.%s: %s defines another view of that name; rename one", name, viewFrom[name])})
				continue
			}
			if out.Views == nil {
				out.Views = map[string]string{}
			}
			out.Views[name], viewFrom[name] = def, f.Name
		}
		for _, c := range f.Controls {
			if first, dup := seen[c.ID]; dup && c.ID != "" {
				ps = append(ps, Problem{File: f.Name, Line: c.Line, Control: c.ID, Message: fmt.Sprintf("duplicate id (first defined in %s at line %d)", first.File, first.Line)})
				continue
			}
			seen[c.ID] = c
			out.Controls = append(out.Controls, c)
		}
	}
	out.Name = strings.Join(names, " + ")
	return out, ps
}
