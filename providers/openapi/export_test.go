package openapi

// SetDecompressLimit lowers the gzip bound for a test and returns the
// function that restores it.
func SetDecompressLimit(n int64) func() {
	old := decompressLimit
	decompressLimit = n
	return func() { decompressLimit = old }
}
