package result

import (
	"bytes"
	"fmt"
	"strings"
)

// Format is one output format of results. The registry of formats is the
// only list of them: exec's and the shell's -o, the shell's .mode, the
// help text of every command and the MCP result resource's ?format= and
// MIME types are derived from it. A format is added by one file that
// calls RegisterFormat from an init function (markdown.go is an example).
type Format struct {
	// Name is what -o, .mode and ?format= take.
	Name string
	// Description is a few words for help text.
	Description string
	// MIMEType is the media type of the rendering.
	MIMEType string
	// Exact marks a machine format: values are written whole and exact,
	// never sanitized or cut, so a program can read them back (json, csv,
	// tsv). The other formats are for people: names and values pass
	// through Sanitize, and the table cuts long cells.
	Exact bool
	// NewEncoder makes the encoder of one result.
	NewEncoder func(EncodeOptions) Encoder
}

// EncodeOptions are what a Stream tells a format's encoder.
type EncodeOptions struct {
	// Width > 0 fits a table to that many columns of a terminal.
	Width int
	// HoldAll: every row is in memory already (Write), so a format that
	// sizes its columns may look at all of them, and the declared column
	// types are kept.
	HoldAll bool
	// SpreadsheetSafe makes the csv and tsv formats safe to open in a
	// spreadsheet (SpreadsheetSafe); other formats ignore it.
	SpreadsheetSafe bool
}

// Encoder renders one result into b, the Stream's buffer; the Stream
// writes the buffer out, counts rows and keeps the first error.
type Encoder interface {
	// Begin starts the result (cols is the Stream's copy).
	Begin(b *bytes.Buffer, cols []Column) error
	// Row renders one row.
	Row(b *bytes.Buffer, row []any) error
	// End finishes the result.
	End(b *bytes.Buffer) error
}

// formats is the registry, in the order help text lists them; the
// built-in formats come first.
var formats = []*Format{
	{Name: "table", Description: "aligned columns for a terminal", MIMEType: "text/plain; charset=utf-8",
		NewEncoder: func(o EncodeOptions) Encoder { return &tableEncoder{width: o.Width, holdAll: o.HoldAll} }},
	{Name: "json", Description: "an array of objects", MIMEType: "application/json", Exact: true,
		NewEncoder: func(EncodeOptions) Encoder { return &jsonEncoder{} }},
	{Name: "csv", Description: "RFC 4180 with a header line", MIMEType: "text/csv", Exact: true,
		NewEncoder: func(o EncodeOptions) Encoder { return &csvEncoder{safe: o.SpreadsheetSafe} }},
	{Name: "tsv", Description: `tab separated, \t \n \\ escaped`, MIMEType: "text/tab-separated-values", Exact: true,
		NewEncoder: func(o EncodeOptions) Encoder { return &tsvEncoder{safe: o.SpreadsheetSafe} }},
	{Name: "line", Description: `one "column = value" line per cell`, MIMEType: "text/plain; charset=utf-8",
		NewEncoder: func(EncodeOptions) Encoder { return &lineEncoder{} }},
}

// DefaultFormat is the format of an empty name.
const DefaultFormat = "table"

// RegisterFormat adds a format to the registry (from an init function).
// A second format of one name is a programming error and panics.
func RegisterFormat(f *Format) {
	if f.Name == "" || f.NewEncoder == nil {
		panic("result: RegisterFormat needs a name and an encoder")
	}
	for _, x := range formats {
		if x.Name == f.Name {
			panic("result: format " + f.Name + " registered twice")
		}
	}
	formats = append(formats, f)
}

// LookupFormat returns the format of a name ("" is DefaultFormat); an
// unknown name is an error that lists the formats.
func LookupFormat(name string) (*Format, error) {
	if name == "" {
		name = DefaultFormat
	}
	for _, f := range formats {
		if f.Name == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("unknown output format %q: use one of %s", name, FormatNames(", "))
}

// FormatNames joins the format names with sep: "table, json, csv, tsv,
// line" for text, "table|json|..." for a usage line.
func FormatNames(sep string) string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return strings.Join(names, sep)
}

// FormatHelp describes every format for a flag's help text:
// "table (aligned columns for a terminal), json (an array of objects), ...".
func FormatHelp() string {
	parts := make([]string, len(formats))
	for i, f := range formats {
		parts[i] = f.Name + " (" + f.Description + ")"
	}
	return strings.Join(parts, ", ")
}

// ExactFormats are the machine formats (Exact), in help-text order.
func ExactFormats() []*Format {
	var out []*Format
	for _, f := range formats {
		if f.Exact {
			out = append(out, f)
		}
	}
	return out
}
