// Package recipe is ACE's deterministic migration path: a YAML recipe names
// tool calls over nodes picked by selectors (by type, name, text, colour,
// font, placeholder role, slide range, layout), plus natural-language steps
// for the agent when a model is configured, and post-conditions (expect)
// checked on the result. A recipe compiles against a deck into one
// batch_execute list of tool calls, so it goes through the same apply,
// render, diff and gate steps as a model's edit, costs nothing per deck, and
// is exactly repeatable.
//
// The format is documented in docs/recipes.md.
package recipe

import (
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/tools"
	"github.com/acecanvas/ace/internal/tools/assets"
)

// Recipe is a parsed recipe file.
type Recipe struct {
	Name        string
	Description string
	Steps       []Step
	Expect      []Expectation
	// Path is the file the recipe was read from (for error messages).
	Path string
	// AssetDir is the recipe's image library (key assets:, relative to the
	// recipe file): replace_image and create_image find pictures there by
	// file name and tags before looking in ACE_ASSET_DIR.
	AssetDir string
	// Gate is how the geometry gate judges the compiled steps (key gate:):
	// GatePerDeck (the default) or GatePerSlide.
	Gate GateMode
}

// GateMode says what the hard geometry gate keeps when a recipe's edit
// adds layout violations (docs/recipes.md, "The geometry gate").
type GateMode string

const (
	// GatePerDeck: one new violation anywhere blocks the whole edit; the
	// original deck stands (ReDeck's gate: no new violations).
	GatePerDeck GateMode = "per_deck"
	// GatePerSlide: the slides that add violations are put back as they
	// were in the original deck and the other slides keep the edit; the
	// reverted slides are listed with their violations.
	GatePerSlide GateMode = "per_slide"
)

// PerSlide reports whether the recipe asks for the per-slide gate.
func (r *Recipe) PerSlide() bool { return r != nil && r.Gate == GatePerSlide }

// ToolOptions returns base with the recipe's asset library in front of
// base's provider (or of assets.FromEnv when base has none). The compile
// step and the apply step both call it, so they see the same pictures.
func (r *Recipe) ToolOptions(base tools.Options) tools.Options {
	if r.AssetDir == "" {
		return base
	}
	next := base.Assets
	if next == nil {
		next = assets.FromEnv()
	}
	base.Assets = assets.Chain{assets.NewLocal(r.AssetDir), next}
	return base
}

// Step is one entry of steps: a tool call (optionally once per selector
// match) or an instruction for the agent.
type Step struct {
	Pos Pos
	// Tool names a tool of the registry; Args are its arguments, where
	// strings may reference the match: "${match.id}", "${match.width}".
	Tool string
	Args map[string]any
	// ForEach, when set, runs the call once per matching node, in
	// document order.
	ForEach *Selector
	// Instruction is a natural-language step handed to the agent; it is
	// skipped, with a warning, when no model is configured.
	Instruction string
	// Label is an optional human name for reports.
	Label string
}

// Pos is a line and column in the recipe file (1-based).
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("line %d, column %d", p.Line, p.Col) }

// Error is a recipe problem at a position in the file.
type Error struct {
	Path string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	where := e.Path
	if where == "" {
		where = "recipe"
	}
	return fmt.Sprintf("%s:%d:%d: %s", where, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Errors lists every problem found in one file.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}
