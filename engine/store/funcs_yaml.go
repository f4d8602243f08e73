package store

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/enginehq/engine/engine/result"
)

// yaml_to_json reads YAML with go.yaml.in/yaml/v3, the YAML
// organisation's maintained fork of gopkg.in/yaml.v3 (archived in 2025):
// its resolver follows YAML 1.2's core schema for untyped values, so a
// workflow's on: key, and yes, no, on and off anywhere, stay strings
// (YAML 1.1 read them as booleans; GitHub Actions reads on as "on").
// The document is decoded into the library's node tree, which keeps
// aliases as references, and the JSON is written here, node by node, so
// the expansion of aliases is bounded by this code, not by the library:
// the JSON may be at most the value limit long and nest at most
// maxYAMLDepth deep (an alias counts as a level), so a billion-laughs
// document stops at the limit, in milliseconds and that much memory.
//
// Scalars become JSON by their resolved tag: null, booleans (true,
// false), integers (decimal, 0x, 0o) and floats as numbers (.inf and
// .nan, which JSON cannot hold, as strings), everything else (strings,
// timestamps, binary, custom tags) as strings as written. Mapping keys
// are the keys' text; a key given twice is an error, as YAML says; merge
// keys (<<) are expanded, the mapping's own keys winning. A stream of
// several documents is a JSON array of them, an empty one null.

// maxYAMLDepth bounds the nesting of the JSON yaml_to_json writes
// (mappings, sequences and aliases), which also bounds its recursion.
const maxYAMLDepth = 256

func yamlToJSON(args []driver.Value) (out driver.Value, err error) {
	const fn = "yaml_to_json"
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, funcError(fn, "the YAML cannot be read (%v)", p)
		}
	}()
	j, err := YAMLToJSON(text(args[0]), funcLimit.Load())
	if err != nil {
		return nil, err
	}
	return j, nil
}

// YAMLToJSON is yaml_to_json: the JSON text of a YAML stream, at most
// limit bytes long.
func YAMLToJSON(src string, limit int64) (string, error) {
	const fn = "yaml_to_json"
	dec := yaml.NewDecoder(strings.NewReader(src))
	var docs []*yaml.Node
	for {
		n := new(yaml.Node)
		err := dec.Decode(n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", funcError(fn, "%s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		docs = append(docs, n)
	}
	w := &jsonWriter{limit: limit}
	var err error
	switch len(docs) {
	case 0:
		w.b.WriteString("null")
	case 1:
		err = w.node(docs[0], 0)
	default:
		w.b.WriteByte('[')
		for i, d := range docs {
			if i > 0 {
				w.b.WriteByte(',')
			}
			if err = w.node(d, 1); err != nil {
				break
			}
		}
		w.b.WriteByte(']')
	}
	if err == nil && int64(w.b.Len()) > limit {
		err = errYAMLTooLong
	}
	switch {
	case errors.Is(err, errYAMLTooLong):
		return "", tooLong(fn, limit)
	case err != nil:
		return "", funcError(fn, "%v", err)
	}
	return w.b.String(), nil
}

var errYAMLTooLong = errors.New("too long")

type jsonWriter struct {
	b     bytes.Buffer
	limit int64
}

func (w *jsonWriter) node(n *yaml.Node, depth int) error {
	if depth > maxYAMLDepth {
		return fmt.Errorf("the document nests deeper than %d levels (aliases included)", maxYAMLDepth)
	}
	if int64(w.b.Len()) > w.limit {
		return errYAMLTooLong
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			w.b.WriteString("null")
			return nil
		}
		return w.node(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return fmt.Errorf("line %d: alias *%s names no anchor", n.Line, n.Value)
		}
		return w.node(n.Alias, depth+1)
	case yaml.ScalarNode:
		w.scalar(n)
		return nil
	case yaml.SequenceNode:
		w.b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.b.WriteByte(',')
			}
			if err := w.node(c, depth+1); err != nil {
				return err
			}
		}
		w.b.WriteByte(']')
		return nil
	case yaml.MappingNode:
		pairs, err := mappingPairs(n, depth)
		if err != nil {
			return err
		}
		w.b.WriteByte('{')
		for i, p := range pairs {
			if i > 0 {
				w.b.WriteByte(',')
			}
			result.WriteJSONString(&w.b, p.key)
			w.b.WriteByte(':')
			if err := w.node(p.value, depth+1); err != nil {
				return err
			}
		}
		w.b.WriteByte('}')
		return nil
	}
	return fmt.Errorf("line %d: a YAML node of an unknown kind", n.Line)
}

type yamlPair struct {
	key   string
	value *yaml.Node
}

// resolveAlias follows aliases to the node they name.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxYAMLDepth; i++ {
		n = n.Alias
	}
	return n
}

// mappingPairs are a mapping's keys and values in order, merge keys
// (<<) expanded in place, the mapping's own keys winning over merged
// ones and earlier merged mappings over later ones.
func mappingPairs(n *yaml.Node, depth int) ([]yamlPair, error) {
	own := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolveAlias(n.Content[i])
		if isMergeKey(k) {
			continue
		}
		key, err := keyText(k)
		if err != nil {
			return nil, err
		}
		if own[key] {
			return nil, fmt.Errorf("line %d: the mapping key %s appears twice", n.Content[i].Line, strconv.Quote(key))
		}
		own[key] = true
	}
	seen := map[string]bool{}
	var out []yamlPair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolveAlias(n.Content[i]), n.Content[i+1]
		if !isMergeKey(k) {
			key, _ := keyText(k)
			seen[key] = true
			out = append(out, yamlPair{key, v})
			continue
		}
		var merged []*yaml.Node
		switch mv := resolveAlias(v); {
		case mv == nil:
			return nil, fmt.Errorf("line %d: a merge key (<<) needs a mapping", k.Line)
		case mv.Kind == yaml.MappingNode:
			merged = []*yaml.Node{mv}
		case mv.Kind == yaml.SequenceNode:
			for _, m := range mv.Content {
				merged = append(merged, resolveAlias(m))
			}
		default:
			return nil, fmt.Errorf("line %d: a merge key (<<) takes a mapping or a list of mappings", k.Line)
		}
		for _, m := range merged {
			if m == nil || m.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("line %d: a merge key (<<) takes a mapping or a list of mappings", k.Line)
			}
			if depth+1 > maxYAMLDepth {
				return nil, fmt.Errorf("the document nests deeper than %d levels (aliases included)", maxYAMLDepth)
			}
			pairs, err := mappingPairs(m, depth+1)
			if err != nil {
				return nil, err
			}
			for _, p := range pairs {
				if !own[p.key] && !seen[p.key] {
					seen[p.key] = true
					out = append(out, p)
				}
			}
		}
	}
	return out, nil
}

func isMergeKey(k *yaml.Node) bool {
	return k != nil && k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge"
}

// keyText is a mapping key as JSON reads keys: a scalar's text as
// written (a quoted key without its quotes).
func keyText(k *yaml.Node) (string, error) {
	if k == nil || k.Kind != yaml.ScalarNode {
		line := 0
		if k != nil {
			line = k.Line
		}
		return "", fmt.Errorf("line %d: a mapping key is a mapping or a list; JSON keys are text", line)
	}
	return k.Value, nil
}

func (w *jsonWriter) scalar(n *yaml.Node) {
	switch n.ShortTag() {
	case "!!null":
		w.b.WriteString("null")
		return
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			w.b.WriteString(strconv.FormatBool(b))
			return
		}
	case "!!int":
		var v any
		if n.Decode(&v) == nil {
			switch x := v.(type) {
			case int:
				w.b.WriteString(strconv.Itoa(x))
				return
			case int64:
				w.b.WriteString(strconv.FormatInt(x, 10))
				return
			case uint64:
				w.b.WriteString(strconv.FormatUint(x, 10))
				return
			case float64:
				if !math.IsInf(x, 0) && !math.IsNaN(x) {
					w.b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
					return
				}
			}
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			w.b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			return
		}
	}
	result.WriteJSONString(&w.b, n.Value)
}
