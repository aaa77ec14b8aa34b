// Package workflows holds ACE's Temporal workflow code: EditWorkflow, the
// durable form of the ACE self-correction loop (ACE Algorithm 1; DESIGN.md
// §4). It is deterministic and does no I/O: every step is an activity
// (activities/), decks travel as store refs, and the stop / continue /
// rollback decision and the final pick are internal/policy's pure
// functions, the same ones the in-process runner calls.
//
// This package also fixes the contract between the workflow and its
// activities (names, task queues, input and output structs, error types),
// so the workflow never imports the activity implementations and their
// clients.
package workflows
