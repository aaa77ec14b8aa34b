// Package bench is ACE's task suite: a bench task (a deck, an instruction
// or a recipe, a category, tags) and how its result is checked. A suite is
// a YAML file (Load, Parse; format in docs/bench.md) whose tasks carry
// deterministic checks evaluated on the edited deck as a user opens it:
// exported to .pptx and imported again (Reimport), beside the original for
// relative checks, and, for no_new_violations, the renderer's verdict
// handed in as Evidence. Every failure names its slide (number and id)
// and node.
//
// The checks follow the issue that asked for `ace bench` (text present or
// absent, table cells and row order, fills and backgrounds, notes, a node's
// rotation, position or size within a tolerance, slide count and order,
// chart type and data, fonts, no new violations) and ReDeck's clean-slide
// gate (no new layout violations). Each suite task ships with a
// hand-written correct tool-call batch (LoadSolution) that the package's
// validation test applies: all checks pass on it, and at least one fails
// on the unedited deck.
//
// The harness (`ace bench`) runs tasks under arms (Arm) and compares them;
// this package only says what a task is and whether a result passes it.
package bench
