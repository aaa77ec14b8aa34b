// Package editloop is ACE's edit loop, written once: route, then per
// iteration act, apply, diff, render with the hard geometry gate, judge,
// and internal/policy's stop / continue / roll back; at the end the kept
// iteration, the recipe's expectations and the export (ACE Algorithm 1;
// DESIGN.md §4).
//
// Run sequences a Steps implementation and records everything in a
// Record. `ace edit` runs it in process (internal/runner's Steps, direct
// calls); EditWorkflow runs it with each step an activity
// (workflows.EditWorkflow). Both therefore take the same decisions on the
// same step results, and both produce the same Record, from which the
// CLI's table, summary.json, the reports and the published EditResult are
// made. The package does no I/O of its own and reads no clock but
// Steps.Now.
package editloop
