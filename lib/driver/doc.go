// Package driver talks to cliff-driver, the Rust coprocess that runs the
// real Cranelift (see driver/PROTOCOL.md): one long-running process per
// worker, JSON lines both ways, so that no case pays for a process start.
//
// A Client owns one driver process. Every request has a deadline; a driver
// that misses it is killed. A driver that dies (a Cranelift abort, a
// signal, the deadline) makes the request fail with a *DiedError that says
// how it died; the Client starts a fresh process for the next request, so
// callers decide what the lost request means (cliff-run retries a batch
// one module at a time to find the module that killed it).
package driver
