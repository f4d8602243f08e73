package mcpsurface

import (
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/providers"
)

// errorOutput is the structuredContent of every error result.
type errorOutput struct {
	Error engine.ErrorBody `json:"error"`
}

// errorResult renders an error body as DESIGN.md's failure: isError true,
// structuredContent {"error": ...} and the same JSON as text.
func (s *Server) errorResult(b engine.ErrorBody) (*mcp.CallToolResult, any) {
	b.Message = providers.Redact(b.Message, s.eng.Secrets()...)
	out := errorOutput{Error: b}
	j, _ := json.Marshal(out)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(j)}}}, out
}

// engineError maps any error of the engine to its body.
func engineError(err error) engine.ErrorBody {
	var e *engine.Error
	if !errors.As(err, &e) {
		e = engine.Classify(err)
	}
	return e.Body()
}

// usageError is an error in the tool's arguments.
func usageError(kind engine.Kind, msg string) engine.ErrorBody {
	return engine.ErrorBody{Message: msg, Kind: kind}
}
