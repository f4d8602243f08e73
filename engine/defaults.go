package engine

// DefaultMaxRequests is Options.MaxRequests when it is 0: the most
// requests one statement may send (the CLI's --max-requests defaults to
// it).
const DefaultMaxRequests = 1000
