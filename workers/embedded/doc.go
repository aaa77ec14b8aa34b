// Package embedded runs ACE's infrastructure inside the ace process when no
// cluster address is configured (DESIGN.md §6): a Temporal server (all four
// services, SQLite on disk) and a NATS server with JetStream, both keeping
// their state under one data directory so that a batch survives a restart
// of ace.
//
// Facts this package relies on (measured for issue 8 on Temporal server
// v1.32.1): the SQLite plugin is pure Go (modernc.org/sqlite); with WAL a
// kill -9 loses nothing committed (synchronous=NORMAL is enough for that:
// only an OS crash or power loss can drop the last commits, see
// temporal.go); the server is ready in
// under a second and stops in about 1.2 s. Nothing in SQLite stops a second
// process from opening the same file, so Lock takes an exclusive file lock
// on the data directory first and the second process connects to the first
// one's servers instead (see Stack.json).
package embedded
