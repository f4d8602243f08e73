package mcpsurface

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
)

// Every tool is registered through addTool (typed structured output) or
// addTextTool (text only), both over register: one place maps errors to
// isError results and writes the log line. A handler returns its reply or
// an error; it never builds a CallToolResult. Adding a tool is one
// handler, one addTool call and its schema snapshot
// (testdata/toolsnaps/NAME.json, `go test ./mcpsurface -run TestToolSnaps -update`).

// reply is a tool's success: the text block (TSV for results), the
// structured output (tools with an output schema) and a detail for the
// log line.
type reply[Out any] struct {
	Text   string
	Out    Out
	Detail string
}

// handler is a tool's typed handler.
type handler[In, Out any] func(context.Context, *mcp.CallToolRequest, In) (reply[Out], error)

// output is the structured output of a tool with an output schema. Its
// failed value carries only the error: the success fields are omitted.
type output[Out any] interface {
	failed(engine.ErrorBody) Out
}

// failure is the structuredContent of an error result of a text-only tool
// (and the shape every failure has on the wire: {"error": {...}}).
type failure struct {
	Error engine.ErrorBody `json:"error"`
}

// addTool registers a tool with typed structured output. The output schema
// is inferred from Out (outputSchema), descriptions from its jsonschema
// tags.
func addTool[In any, Out output[Out]](s *Server, t *mcp.Tool, h handler[In, Out]) {
	t.OutputSchema = outputSchema[Out]()
	register(s, t, h, func(b engine.ErrorBody) Out {
		var zero Out
		return zero.failed(b)
	})
}

// addTextTool registers a tool that answers with text only: no output
// schema, no structuredContent on success; a failure is {"error": ...}
// as for every tool.
func addTextTool[In any](s *Server, t *mcp.Tool, h func(context.Context, In) (string, error)) {
	register(s, t, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (reply[any], error) {
		text, err := h(ctx, in)
		if max := s.cfg.Caps.MaxBytes; max > 0 && len(text) > max {
			// Text answers (the catalog's descriptions, which a provider's
			// document writes) are bounded by the byte cap like results.
			text, _ = result.CutCell(text, max)
			text += "\n# cut at the server's byte cap (mcp_max_bytes); narrow the request (a provider, a service, compact)"
		}
		return reply[any]{Text: text}, err
	}, func(b engine.ErrorBody) any { return failure{Error: b} })
}

// register is the one wrapper of every tool: an error becomes the failure
// of the wire contract (isError true, structuredContent {"error": ...},
// the same JSON as text, secrets redacted), a success its text block and
// structured output; each result writes one log line.
func register[In, Out any](s *Server, t *mcp.Tool, h handler[In, Out], fail func(engine.ErrorBody) Out) {
	name := t.Name
	// The input schema is the SDK's inference from In, made here to name
	// the arguments in the error of a call that breaks it (argumentErrors).
	in, err := jsonschema.For[In](&jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("input schema of %s: %v", name, err))
	}
	t.InputSchema = in
	s.args[name] = argsOf(in)
	mcp.AddTool(s.mcp, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		r, err := h(ctx, req, in)
		if err != nil {
			e := engine.Classify(err)
			b := e.Body()
			b.Message = engine.BoundMessage(providers.Redact(agentMessage(e), s.eng.Secrets()...))
			out := fail(b)
			j, _ := json.Marshal(out)
			res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(j)}}}
			s.logResult(name, res, out, "kind="+string(b.Kind))
			return res, out, nil
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Text}}}
		s.logResult(name, res, r.Out, r.Detail)
		return res, r.Out, nil
	})
}

// usageErrorf is an error in a tool's arguments (kind usage).
func usageErrorf(format string, args ...any) error {
	return engine.Errorf(engine.KindUsage, format, args...)
}

// outputSchema infers Out's schema. The error's kind enumerates
// engine.Kinds(). The top-level fields are all optional (a success carries
// the result fields, a failure only "error", and both validate), and so
// are the fields of the objects named in optionalObjects (stats).
func outputSchema[Out any]() *jsonschema.Schema {
	kinds := make([]any, 0, len(engine.Kinds()))
	for _, k := range engine.Kinds() {
		kinds = append(kinds, string(k))
	}
	s, err := jsonschema.For[Out](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[engine.Kind](): {Type: "string", Enum: kinds},
		reflect.TypeFor[statValue]():   {AnyOf: []*jsonschema.Schema{{Type: "number"}, {Type: "string"}}},
	}})
	if err != nil {
		panic(fmt.Sprintf("output schema of %T: %v", *new(Out), err))
	}
	// Portable schemas (the MCP Inspector's --strict): a field that is
	// never null on the wire has one type, not ["null", "array"] as Go's
	// nil slices and pointers are inferred; and no boolean schemas.
	nonNull(s, neverNull...)
	if p := s.Properties["rows"]; p != nil && p.Items != nil {
		// A row is an array of cells; a cell is any JSON value. The
		// inferred schema of [][]any says so with the boolean schema true,
		// which strict validators refuse: the cell types are named instead.
		p.Items = &jsonschema.Schema{Type: "array", Description: "one row: a cell per column", Items: cellSchema()}
	}
	s.Required = nil
	for _, name := range optionalObjects {
		if p := s.Properties[name]; p != nil {
			p.Required = nil
		}
	}
	return s
}

// cellSchema is a result cell: TEXT is a string, INTEGER and REAL a
// number, BOOLEAN a boolean, NULL null, and a JSON column any JSON value.
// Each type is a branch of its own (one type per schema ports to the
// single-type dialects some hosts map tool schemas onto).
func cellSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{Description: "a cell: string, number, boolean or null; a JSON column's value may be an object or array"}
	for _, t := range []string{"string", "number", "boolean", "null", "object", "array"} {
		s.AnyOf = append(s.AnyOf, &jsonschema.Schema{Type: t})
	}
	return s
}

// neverNull are the top-level output fields that are always present and
// never null on a success (newRowsOut makes them non-nil).
var neverNull = []string{"columns", "rows"}

// nonNull gives one type to the properties of s, at any depth, that are
// never null on the wire although their Go type is nilable: those that
// are omitted when empty (not required: encoding/json leaves a nil slice
// or pointer out) and those named in names (top level only).
func nonNull(s *jsonschema.Schema, names ...string) {
	if s == nil {
		return
	}
	for name, p := range s.Properties {
		if p == nil {
			continue
		}
		if !slices.Contains(s.Required, name) || slices.Contains(names, name) {
			if i := slices.Index(p.Types, "null"); i >= 0 && len(p.Types) == 2 {
				p.Type, p.Types = p.Types[1-i], nil
			}
		}
		nonNull(p)
		nonNull(p.Items)
	}
}

// optionalObjects are the output objects whose fields are all optional.
var optionalObjects = []string{"stats"}

// argsOf describes a tool's arguments from its input schema, in their
// order: "result_id (string, required), offset (integer), limit (integer)".
func argsOf(in *jsonschema.Schema) string {
	var parts []string
	for _, name := range in.PropertyOrder {
		p := in.Properties[name]
		if p == nil {
			continue
		}
		d := name + " (" + cmp.Or(p.Type, strings.Join(p.Types, "|"))
		if slices.Contains(in.Required, name) {
			d += ", required"
		}
		parts = append(parts, d+")")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// argumentErrors makes a tool call whose arguments break the tool's input
// schema (checked by the SDK before the handler runs, and answered by it
// with a text-only error) an error result of the wire contract like any
// other: kind usage, structuredContent {"error": ...}, a message that
// names the arguments the tool takes. Every other error result of a tool
// already carries structuredContent (register).
func (s *Server) argumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		call, ok := req.(*mcp.CallToolRequest)
		if err != nil || !ok || call.Params == nil {
			return res, err
		}
		r, ok := res.(*mcp.CallToolResult)
		if !ok || !r.IsError || r.StructuredContent != nil {
			return res, err
		}
		name := call.Params.Name
		detail := "arguments do not decode"
		if len(r.Content) > 0 {
			if t, ok := r.Content[0].(*mcp.TextContent); ok {
				detail = strings.TrimPrefix(strings.TrimPrefix(t.Text, `validating "arguments": `), "validating root: ")
				// The validator names a JSON null so.
				detail = strings.ReplaceAll(detail, "<invalid reflect.Value>", "null")
			}
		}
		b := engine.Classify(usageErrorf("%s: invalid arguments (%s); it takes %s", name, detail, s.args[name])).Body()
		b.Message = engine.BoundMessage(providers.Redact(b.Message, s.eng.Secrets()...))
		out := failure{Error: b}
		j, _ := json.Marshal(out)
		fixed := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(j)}}, StructuredContent: out}
		s.logResult(name, fixed, out, "kind="+string(b.Kind))
		return fixed, nil
	}
}
