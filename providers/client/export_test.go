package client

// AcquireN is acquireN for the tests of package client_test.
var AcquireN = acquireN
