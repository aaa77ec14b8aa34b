// Package workflows holds ACE's Temporal workflow code: EditWorkflow, the
// durable form of the edit loop. The loop itself is editloop.Run, the one
// function `ace edit` also runs (ACE Algorithm 1; DESIGN.md §4); this
// package only implements its steps as activities (remote ones on their
// task queues, short in-memory ones as local activities), its clock as
// workflow time, and adds what durability needs: the progress and record
// queries, the cancel signal, continue-as-new and publishing the result.
// It is deterministic and does no I/O.
//
// It also fixes the contract between the workflow and its workers
// (activity names, task queues, error types), so the workflow never
// imports the activity implementations and their clients.
package workflows
