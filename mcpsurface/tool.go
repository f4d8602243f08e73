package mcpsurface

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

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
	mcp.AddTool(s.mcp, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		r, err := h(ctx, req, in)
		if err != nil {
			b := engine.Classify(err).Body()
			b.Message = engine.BoundMessage(providers.Redact(b.Message, s.eng.Secrets()...))
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
		reflect.TypeFor[statValue]():   {Types: []string{"number", "string"}},
	}})
	if err != nil {
		panic(fmt.Sprintf("output schema of %T: %v", *new(Out), err))
	}
	s.Required = nil
	for _, name := range optionalObjects {
		if p := s.Properties[name]; p != nil {
			p.Required = nil
		}
	}
	return s
}

// optionalObjects are the output objects whose fields are all optional.
var optionalObjects = []string{"stats"}
