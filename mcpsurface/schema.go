package mcpsurface

import "github.com/google/jsonschema-go/jsonschema"

// The output schemas are written out rather than inferred so that every
// field is optional: a success carries the result fields, a failure only
// "error", and both validate.

func obj(props map[string]*jsonschema.Schema, required ...string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: props, Required: required}
}

func typ(t, desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: t, Description: desc} }

func errorSchema() *jsonschema.Schema {
	return obj(map[string]*jsonschema.Schema{
		"message":             typ("string", ""),
		"kind":                {Type: "string", Enum: []any{"provider", "incomplete", "sql", "plan", "timeout", "cancelled", "internal"}},
		"http_status":         typ("integer", ""),
		"provider":            typ("string", ""),
		"retryable":           typ("boolean", ""),
		"retry_after_seconds": typ("integer", ""),
	}, "message", "kind", "retryable")
}

func resultProps() map[string]*jsonschema.Schema {
	return map[string]*jsonschema.Schema{
		"columns": {Type: "array", Items: obj(map[string]*jsonschema.Schema{
			"name": typ("string", ""), "type": typ("string", ""),
		}, "name", "type")},
		"rows":            {Type: "array", Items: &jsonschema.Schema{Type: "array"}, Description: "rows as arrays in column order"},
		"row_count":       typ("integer", "true total rows of the result"),
		"returned_rows":   typ("integer", ""),
		"result_id":       typ("string", ""),
		"result_uri":      typ("string", ""),
		"truncated_cells": typ("integer", "cells longer than the server's cell cap, cut and marked \"…[cut: N of M bytes shown]\"; the kept result holds them whole"),
		"notice":          typ("string", ""),
		"error":           errorSchema(),
	}
}

// QueryOutputSchema is run_select_query's output schema.
func QueryOutputSchema() *jsonschema.Schema {
	p := resultProps()
	p["truncated"] = typ("boolean", "rows or cells were cut (see notice)")
	p["stats"] = obj(map[string]*jsonschema.Schema{
		"http_requests": typ("integer", ""), "pages": typ("integer", ""), "elapsed_ms": typ("integer", ""),
		"fetched":     typ("integer", "pages whose body came from the provider"),
		"revalidated": typ("integer", "pages answered 304 Not Modified from the response cache (no rate limit)"),
		"cache_hits":  typ("integer", "pages served by the response cache without a request (--cache-ttl)"),
		"rate_limit": {Type: "array", Description: "per rate-limit bucket: requests this statement used, what remains and when it resets", Items: obj(map[string]*jsonschema.Schema{
			"provider": typ("string", ""), "bucket": typ("string", "e.g. core, search, code_search"),
			"used": typ("integer", "requests of this statement"), "limit": typ("integer", ""),
			"remaining": typ("integer", ""), "reset": typ("string", "RFC 3339, UTC"),
		}, "provider", "bucket", "used")},
	})
	return obj(p)
}

// PageOutputSchema is fetch_result_page's output schema.
func PageOutputSchema() *jsonschema.Schema {
	p := resultProps()
	p["offset"] = typ("integer", "")
	p["limit"] = typ("integer", "")
	p["has_more"] = typ("boolean", "")
	p["next_offset"] = typ("integer", "")
	return obj(p)
}
