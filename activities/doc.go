// Package activities adapts the edit loop's steps (runner.Steps, the same
// functions `ace edit` calls) to Temporal activities, one method per step
// of EditWorkflow: Route, Act, Apply, Diff, Render, Judge, Check, Export,
// plus Progress and Publish to NATS. A method calls its step and maps the
// error to Temporal's retry semantics (classify); no loop logic and no
// step logic lives here.
//
// Every activity is idempotent: outputs are content-addressed, so a retry
// after a crash writes the same bytes under the same ref, and Publish
// dedupes on a Nats-Msg-Id derived from the job id.
package activities
