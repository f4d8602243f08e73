package check

import "testing"

func TestParseExpect(t *testing.T) {
	ok := []struct {
		in   string
		want string
		met  []int
		not  []int
	}{
		{"", "empty", []int{0}, []int{1, 5}},
		{"empty", "empty", []int{0}, []int{1}},
		{"nonempty", "nonempty", []int{1, 9}, []int{0}},
		{"count <= 3", "count <= 3", []int{0, 3}, []int{4}},
		{"count<3", "count < 3", []int{2}, []int{3}},
		{"count >= 2", "count >= 2", []int{2, 7}, []int{1}},
		{"count > 0", "count > 0", []int{1}, []int{0}},
		{"count != 4", "count != 4", []int{3, 5}, []int{4}},
		{"count == 2", "count = 2", []int{2}, []int{1, 3}},
		{"COUNT = 0", "count = 0", []int{0}, []int{1}},
	}
	for _, c := range ok {
		e, err := ParseExpect(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if e.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.in, e, c.want)
		}
		for _, n := range c.met {
			if !e.Met(n) {
				t.Errorf("%q: %d rows should pass", c.in, n)
			}
		}
		for _, n := range c.not {
			if e.Met(n) {
				t.Errorf("%q: %d rows should fail", c.in, n)
			}
		}
	}
	for _, bad := range []string{"none", "count", "count 3", "count ~ 3", "count < -1", "count < x", "count <= 3.5", "emptyish"} {
		if _, err := ParseExpect(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}
