package mcpsurface

import (
	"context"
	"net/http"

	"github.com/enginehq/engine/engine/result"
)

// Helpers only the tests use.

// Put keeps res and returns its id; kept is false when res alone exceeds
// MaxBytes.
func (s *Store) Put(ctx context.Context, res *result.Result) (id string, kept bool, err error) {
	sp, err := s.NewSpool()
	if err != nil {
		return "", false, err
	}
	defer sp.Close()
	for _, row := range res.Rows {
		sp.Add(row)
	}
	return s.Keep(ctx, sp, res.Columns)
}

// HTTPHandler serves the streamable HTTP transport at HTTPPath with the
// default bounds and no browser origin allowed (see HTTPHandlerOpts).
func (s *Server) HTTPHandler(maxBody int64) http.Handler {
	return s.HTTPHandlerOpts(HTTPOptions{MaxBody: maxBody})
}

// Rows returns up to limit rows from offset (limit < 0: all).
func (s *Store) Rows(ctx context.Context, k *KeptInfo, offset, limit int) ([][]any, error) {
	var out [][]any
	err := s.Each(ctx, k, offset, limit, func(row []any) (bool, error) {
		out = append(out, row)
		return true, nil
	})
	return out, err
}
