// Package defaults fills options left unset: the one rule of the option
// structs of the providers' packages and of the surfaces, that a zero or
// negative bound means "take the default".
package defaults

// Set sets *v to d when it is zero or negative (unset).
func Set[T ~int | ~int64](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}
