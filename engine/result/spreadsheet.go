package result

// Spreadsheets run a cell that starts with =, +, - or @ as a formula
// (=HYPERLINK(...) sends data away, =cmd|... ran commands in old Excel),
// and tab and carriage return can start one too. CSV and TSV are machine
// formats: by default they are exact, so a program reads back what the
// API said. For people who open them in a spreadsheet, SpreadsheetSafe
// (exec and shell --csv-safe) applies OWASP's rule for CSV injection.

// SpreadsheetSafe puts a single quote before a text that starts with =,
// +, -, @, a tab or a carriage return, so that a spreadsheet shows it as
// text instead of running it as a formula; any other text is unchanged.
func SpreadsheetSafe(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// safeText is s, made SpreadsheetSafe when safe.
func safeText(s string, safe bool) string {
	if safe {
		return SpreadsheetSafe(s)
	}
	return s
}

// safeCell is cell i of a csv or tsv row: its text (CellText of its
// column), made SpreadsheetSafe when safe and the value is text; numbers
// (a negative one starts with -) and booleans are not text and stay as
// they are.
func safeCell(cols []Column, i int, v any, safe bool) string {
	s := cellText(cols, i, v)
	switch v.(type) {
	case string, []byte:
		return safeText(s, safe)
	}
	return s
}
