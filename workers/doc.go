// Package workers wires ACE's durable execution together: it connects to
// Temporal, NATS and the store (starting the embedded stack when no
// address is configured, DESIGN.md §6), registers on each task queue only
// what that queue needs, runs the NATS dispatcher that turns batch jobs
// into EditWorkflows, and gives `ace batch` its submit / follow / status
// operations (DESIGN.md §5). The same code runs on a laptop and a
// cluster; only the addresses differ.
package workers
