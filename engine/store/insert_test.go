package store

import "context"

// Insert adds one row from a decoded item to a table without parts (the
// engine inserts through Part.Insert). fixed holds the values of
// parameter columns (by column name).
func (t *Table) Insert(ctx context.Context, item map[string]any, fixed map[string]any) error {
	return t.insertItem(ctx, 0, item, fixed)
}

// InsertJSON is Insert for a JSON object item (Part.InsertJSON's path).
func (t *Table) InsertJSON(ctx context.Context, raw []byte, fixed map[string]any) error {
	return t.insertJSON(ctx, 0, raw, fixed)
}
