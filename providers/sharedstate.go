package providers

import "time"

// SharedStateTimeout bounds one call to the state that processes share
// (--state: the governor's windows, the response cache, MCP kept
// results), plus 1 ms per 50 kB moved. Past it the caller goes on with
// its own local state (docs/orgscale.md, "When Redis is down"). It is
// long enough for a loaded machine (a 2-core CI box running the race
// detector answers a loopback Redis in tens of milliseconds) and short
// enough that a frozen server costs a statement about a second.
const SharedStateTimeout = time.Second
