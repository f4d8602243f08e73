package check

import (
	"fmt"
	"strconv"
	"strings"
)

// Expect is what a control's result must look like to pass.
type Expect struct {
	// Kind is "empty", "nonempty" or "count".
	Kind string
	// Op and N are the comparison of a "count" expectation: the row count
	// must satisfy count Op N.
	Op string
	N  int
}

// ParseExpect reads "empty", "nonempty" or "count <op> N" with op one of
// = == != < <= > >=. An empty string means "empty".
func ParseExpect(s string) (Expect, error) {
	t := strings.Join(strings.Fields(strings.ToLower(s)), " ")
	switch t {
	case "", "empty":
		return Expect{Kind: "empty"}, nil
	case "nonempty", "non-empty", "not empty":
		return Expect{Kind: "nonempty"}, nil
	}
	rest, ok := strings.CutPrefix(t, "count")
	if !ok {
		return Expect{}, fmt.Errorf("expect %q: use empty, nonempty or count <op> N (op one of = != < <= > >=)", s)
	}
	rest = strings.ReplaceAll(rest, " ", "")
	for _, op := range []string{"==", "!=", "<=", ">=", "=", "<", ">"} {
		if num, ok := strings.CutPrefix(rest, op); ok {
			n, err := strconv.Atoi(num)
			if err != nil || n < 0 {
				return Expect{}, fmt.Errorf("expect %q: %q is not a non-negative whole number", s, num)
			}
			if op == "==" {
				op = "="
			}
			return Expect{Kind: "count", Op: op, N: n}, nil
		}
	}
	return Expect{}, fmt.Errorf("expect %q: count needs an operator and a number, e.g. count <= 3 (op one of = != < <= > >=)", s)
}

// Met reports whether a result of rows rows satisfies the expectation.
func (e Expect) Met(rows int) bool {
	switch e.Kind {
	case "nonempty":
		return rows > 0
	case "count":
		switch e.Op {
		case "=":
			return rows == e.N
		case "!=":
			return rows != e.N
		case "<":
			return rows < e.N
		case "<=":
			return rows <= e.N
		case ">":
			return rows > e.N
		case ">=":
			return rows >= e.N
		}
		return false
	}
	return rows == 0
}

func (e Expect) String() string {
	if e.Kind == "count" {
		return fmt.Sprintf("count %s %d", e.Op, e.N)
	}
	if e.Kind == "" {
		return "empty"
	}
	return e.Kind
}
