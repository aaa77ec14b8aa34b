// Package activities adapts ACE's domain steps (internal/*) to Temporal
// activities, one method per step of EditWorkflow: Route, Act, Apply,
// Render, Diff, Judge, Export, Publish. Each method loads its inputs from
// the content-addressed store by ref, calls the domain function, and
// writes its outputs back by ref; no loop logic lives here (that is
// internal/policy, called by the workflow).
//
// Every activity is idempotent: outputs are content-addressed, so a retry
// after a crash writes the same bytes under the same ref, and Publish
// dedupes on a Nats-Msg-Id derived from the job id.
package activities
