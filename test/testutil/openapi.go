package testutil

import (
	"fmt"
	"strings"
)

// AllOfBlowUp is the components.schemas object (JSON) of a chain of
// levels allOf lists, each naming the next level four times: 4^levels
// schemas from a few hundred bytes. L0 is the top; the last level is an
// object with an integer id.
func AllOfBlowUp(levels int) string {
	var parts []string
	for i := 0; i < levels; i++ {
		next := fmt.Sprintf(`{"$ref":"#/components/schemas/L%d"}`, i+1)
		parts = append(parts, fmt.Sprintf(`"L%d":{"allOf":[%s,%s,%s,%s]}`, i, next, next, next, next))
	}
	parts = append(parts, fmt.Sprintf(`"L%d":{"type":"object","properties":{"id":{"type":"integer"}}}`, levels))
	return "{" + strings.Join(parts, ",") + "}"
}
