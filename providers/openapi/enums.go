package openapi

import (
	"math"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// paramValues gives a parameter's allowed values and default as the API
// reads them (Param.Enum, Param.Default), from its schema of type typ
// (paramType's). An enum is kept only on a scalar string or integer
// parameter whose values are all of that type (nulls dropped: a null is
// never sent); an enum on array items, of booleans or of mixed types is
// not kept. A default is kept when it is a scalar string, integer or
// boolean.
func paramValues(s *openapi3.Schema, typ string) (enum []string, def string) {
	if s == nil {
		return nil, ""
	}
	for _, v := range s.Enum {
		if v == nil {
			continue
		}
		text, ok := scalarText(v, typ)
		if !ok || (typ != providers.TypeText && typ != providers.TypeInteger) {
			enum = nil
			break
		}
		enum = append(enum, text)
	}
	if s.Default != nil {
		switch typ {
		case providers.TypeText, providers.TypeInteger, providers.TypeBoolean:
			def, _ = scalarText(s.Default, typ)
		}
	}
	return enum, def
}

// scalarText writes a JSON value of a parameter of type typ as the API
// reads it in a query string: a string as it is, an integral number in
// decimal, a boolean as true or false. ok is false for a value of another
// type.
func scalarText(v any, typ string) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, typ == providers.TypeText
	case float64:
		if typ == providers.TypeInteger && x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return strconv.FormatInt(int64(x), 10), true
		}
	case int:
		return strconv.Itoa(x), typ == providers.TypeInteger
	case int64:
		return strconv.FormatInt(x, 10), typ == providers.TypeInteger
	case bool:
		return strconv.FormatBool(x), typ == providers.TypeBoolean
	}
	return "", false
}
