package store

import (
	"context"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers"
)

func TestPlainScan(t *testing.T) {
	cols := []providers.Column{{Name: "name", Type: providers.TypeText}, {Name: "id", Type: providers.TypeInteger}, {Name: "owner", Type: providers.TypeJSON}}
	cases := map[string]bool{
		`SELECT name FROM "t" LIMIT 5`:                                                   true,
		`SELECT * FROM "t" AS "r" WHERE 1 LIMIT 5 OFFSET 2`:                              true,
		`SELECT upper(name) || 'x', json_extract(owner, '$.a'), id + 1 FROM "t" LIMIT 3`: true,
		`SELECT json_group_array(name) FROM "t" LIMIT 1`:                                 false,
		`SELECT string_agg(name, ',') FROM "t" LIMIT 1`:                                  false,
		`SELECT jsonb_group_object(name, id) FROM "t" LIMIT 1`:                           false,
		`SELECT count(*) FROM "t" LIMIT 1`:                                               false,
		`SELECT count(*) OVER () FROM "t" LIMIT 1`:                                       false,
		`SELECT DISTINCT name FROM "t" LIMIT 1`:                                          false,
		`SELECT name FROM "t" ORDER BY id LIMIT 1`:                                       false,
		`SELECT nosuch FROM "t" LIMIT 1`:                                                 false,
	}
	for q, want := range cases {
		got, err := PlainScan(context.Background(), "t", cols, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got != want {
			t.Errorf("%s: plain scan %v, want %v", q, got, want)
		}
	}
}

func TestUnusableValuesAreDecodeErrors(t *testing.T) {
	for _, typ := range []string{providers.TypeReal, providers.TypeJSON} {
		bad := []string{"[" + strings.Repeat("[", 1000) + strings.Repeat("]", 1001)}
		if typ != providers.TypeJSON {
			bad = append(bad, "1e999", "-1e999") // JSON text holds them exactly
		}
		for _, raw := range bad {
			_, err := Value([]byte(raw), typ)
			if _, ok := err.(*DecodeError); !ok {
				t.Errorf("%s %.20s: error %v, want a DecodeError", typ, raw, err)
			}
		}
		for _, raw := range []string{"1e308", "12", `"x"`, strings.Repeat("[", 1000) + strings.Repeat("]", 1000), `["` + strings.Repeat("[", 3000) + `"]`} {
			if _, err := Value([]byte(raw), typ); err != nil {
				t.Errorf("%s %.20s: %v", typ, raw, err)
			}
		}
	}
}
