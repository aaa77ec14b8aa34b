package workflows

import (
	"github.com/acecanvas/ace/internal/policy"
)

// Task queues, one per kind of worker (DESIGN.md §4): workflow tasks run on
// QueueEdit; LLM steps on QueueLLM (workers own the model client and the
// rate limiter); renders on QueueRender (workers own the Chromium pool);
// pure CPU steps on QueueDiff.
const (
	QueueEdit   = "ace-edit"
	QueueLLM    = "ace-llm"
	QueueRender = "ace-render"
	QueueDiff   = "ace-diff"
)

// Roles maps the worker role names of `ace worker --queues` to task
// queues, in start order of AllRoles.
var Roles = map[string]string{"edit": QueueEdit, "llm": QueueLLM, "render": QueueRender, "diff": QueueDiff}

// AllRoles lists every role.
var AllRoles = []string{"edit", "llm", "render", "diff"}

// Activity names, as registered by workers and called by EditWorkflow.
const (
	ActivityRoute   = "Route"
	ActivityAct     = "Act"
	ActivityApply   = "Apply"
	ActivityRender  = "Render"
	ActivityDiff    = "Diff"
	ActivityJudge   = "Judge"
	ActivityCheck   = "Check"
	ActivityExport  = "Export"
	ActivityPublish = "Publish"
	// ActivityProgress publishes one iteration's Progress event.
	ActivityProgress = "Progress"
)

// Application error types. An activity returns them as non-retryable
// application errors; the retry policies list them too, so a retry never
// repeats a failure that cannot change.
const (
	// ErrBadInput: an unreadable deck, recipe or request. The message names
	// the input and the fix.
	ErrBadInput = "ace.BadInput"
	// ErrNoModel: a natural-language edit with no model configured
	// (OPENAI_BASE_URL / ACE_AGENT_MODEL unset).
	ErrNoModel = "ace.NoModel"
	// ErrContextLength: the routed context does not fit the model.
	ErrContextLength = "ace.ContextLength"
)

var nonRetryable = []string{ErrBadInput, ErrNoModel, ErrContextLength}

// Usage is what model calls cost, in tokens and USD.
type Usage struct {
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"inputTokens"`
	OutputTokens int64   `json:"outputTokens"`
	CachedTokens int64   `json:"cachedTokens"`
	CostUSD      float64 `json:"costUsd"`
}

// Add accumulates o into u.
func (u *Usage) Add(o Usage) {
	u.Calls += o.Calls
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CachedTokens += o.CachedTokens
	u.CostUSD += o.CostUSD
}

// RouteInput asks CARE for the context slice (ACE §3.2). With a recipe,
// Route also resolves what the agent works on: the recipe's instruction
// steps when a model is configured, nothing for a pure recipe.
type RouteInput struct {
	DeckRef     string `json:"deckRef"`
	Instruction string `json:"instruction,omitempty"`
	RecipeRef   string `json:"recipeRef,omitempty"`
	RecipePath  string `json:"recipePath,omitempty"`
}

// RouteOutput is the routing decision (route.Decision's fields).
type RouteOutput struct {
	Mode         string `json:"mode"`
	TargetSlides []int  `json:"targetSlides,omitempty"` // 0-based
	NeedsImage   bool   `json:"needsImage,omitempty"`
	Reason       string `json:"reason,omitempty"`
	Source       string `json:"source,omitempty"`
	// AgentInstruction is what Act and Judge work on after routing: the
	// instruction, or a recipe's instruction steps; empty for a pure
	// recipe (one iteration, no judge).
	AgentInstruction string `json:"agentInstruction,omitempty"`
	// Expectations is true when the recipe has expectations to Check.
	Expectations bool  `json:"expectations,omitempty"`
	Usage        Usage `json:"usage"`
}

// ActInput is one agent turn (or the recipe compile on iteration 1).
type ActInput struct {
	DeckRef     string      `json:"deckRef"`
	Instruction string      `json:"instruction,omitempty"`
	Feedback    string      `json:"feedback,omitempty"`
	Route       RouteOutput `json:"route"`
	MaxTurns    int         `json:"maxTurns,omitempty"`
	RecipeRef   string      `json:"recipeRef,omitempty"`
	RecipePath  string      `json:"recipePath,omitempty"`
}

// ActOutput refers to the applied tool calls (JSON in the store) and the
// agent's working copy, which Apply must reproduce.
type ActOutput struct {
	CallsRef   string   `json:"callsRef,omitempty"`
	Calls      int      `json:"calls"`
	DeckRef    string   `json:"deckRef"`
	Turns      int      `json:"turns"`
	AssetDir   string   `json:"assetDir,omitempty"`
	ToolErrors []string `json:"toolErrors,omitempty"`
	Warnings   []string `json:"warnings,omitempty"`
	Usage      Usage    `json:"usage"`
}

// ApplyInput replays the calls on the immutable snapshot DeckRef.
type ApplyInput struct {
	DeckRef  string `json:"deckRef"`
	CallsRef string `json:"callsRef,omitempty"`
	AssetDir string `json:"assetDir,omitempty"`
	// Expect is Act's working-copy snapshot; a different result means a
	// tool is not deterministic, which is an error.
	Expect string `json:"expect,omitempty"`
}

// ApplyOutput is the new snapshot s'.
type ApplyOutput struct {
	DeckRef string `json:"deckRef"`
	Applied int    `json:"applied"`
}

// DiffInput compares origin d0 with the current state (JsonDiff).
type DiffInput struct {
	OriginRef string `json:"originRef"`
	DeckRef   string `json:"deckRef"`
}

// DiffOutput refers to the diff text for the judge and names the slides
// the edit touched.
type DiffOutput struct {
	TextRef       string   `json:"textRef"`
	Distinct      int      `json:"distinct"`
	Score         float64  `json:"score"`
	Empty         bool     `json:"empty"`
	TouchesVisual bool     `json:"touchesVisual,omitempty"`
	ChangedSlides []string `json:"changedSlides,omitempty"`
	AllSlides     bool     `json:"allSlides,omitempty"`
}

// RenderInput renders the touched slides of the current state and of the
// origin and evaluates the hard geometry gate (ReDeck: no new violations).
type RenderInput struct {
	DeckRef   string   `json:"deckRef"`
	OriginRef string   `json:"originRef"`
	SlideIDs  []string `json:"slideIds,omitempty"` // nil: every slide
	Images    bool     `json:"images,omitempty"`
}

// SlideImage is a rendered slide PNG in the store.
type SlideImage struct {
	SlideID string `json:"slideId"`
	Ref     string `json:"ref"`
}

// RenderOutput is the gate verdict, the current state's violation count and
// PNG refs when asked.
type RenderOutput struct {
	Rendered      int          `json:"rendered"`
	Violations    int          `json:"violations"`
	GatePassed    bool         `json:"gatePassed"`
	NewViolations []string     `json:"newViolations,omitempty"`
	Images        []SlideImage `json:"images,omitempty"`
	// NotRendered is set when the worker has no renderer: the gate was not
	// evaluated (recorded, as in the in-process runner).
	NotRendered bool `json:"notRendered,omitempty"`
}

// JudgeInput asks the IF judge to score the edit 0-5 (ACE §3.3).
type JudgeInput struct {
	Instruction   string       `json:"instruction"`
	DiffTextRef   string       `json:"diffTextRef"`
	Images        []SlideImage `json:"images,omitempty"`
	TouchesVisual bool         `json:"touchesVisual,omitempty"`
}

// JudgeOutput is the score and critique; Skipped when no judge model is
// configured or the edit is a pure recipe (DESIGN.md §6).
type JudgeOutput struct {
	Score    *float64 `json:"score,omitempty"`
	Critique string   `json:"critique,omitempty"`
	Skipped  bool     `json:"skipped,omitempty"`
	Missing  bool     `json:"missing,omitempty"`
	Usage    Usage    `json:"usage"`
}

// CheckInput evaluates a recipe's expectations on the final snapshot.
type CheckInput struct {
	RecipeRef     string   `json:"recipeRef"`
	RecipePath    string   `json:"recipePath,omitempty"`
	DeckRef       string   `json:"deckRef"`
	GateChecked   bool     `json:"gateChecked"`
	NewViolations []string `json:"newViolations,omitempty"`
}

// CheckOutput lists failed expectations, one line each.
type CheckOutput struct {
	Failures []string `json:"failures,omitempty"`
	// Expectations is how many the recipe has (0 in histories recorded
	// before this field).
	Expectations int `json:"expectations,omitempty"`
}

// ExportInput writes the final snapshot in Format (pptx | json | "" = the
// origin's import format).
type ExportInput struct {
	DeckRef string `json:"deckRef"`
	Format  string `json:"format,omitempty"`
}

// ExportOutput refers to the exported file in the store.
type ExportOutput struct {
	Ref    string `json:"ref"`
	Format string `json:"format"`
	Bytes  int64  `json:"bytes"`
}

// LoopState is what EditWorkflow carries across continue-as-new.
type LoopState struct {
	Route              *RouteOutput       `json:"route,omitempty"`
	AgentTurns         int                `json:"agentTurns,omitempty"`
	Base               string             `json:"base"`
	Feedback           string             `json:"feedback,omitempty"`
	History            []policy.Iteration `json:"history,omitempty"`
	ToolCalls          []int              `json:"toolCalls,omitempty"`
	Violations         []int              `json:"violations,omitempty"`
	Rendered           []bool             `json:"rendered,omitempty"`
	IterationMillis    []int64            `json:"iterationMillis,omitempty"`
	Usage              Usage              `json:"usage"`
	StartedUnixMillis  int64              `json:"startedUnixMillis"`
	FinalViolations    int                `json:"finalViolations"`
	ContinuedAsNewRuns int                `json:"continuedAsNewRuns,omitempty"`
}

// Progress is the answer to the "progress" query.
type Progress struct {
	Phase      string             `json:"phase"` // route | act | apply | render | diff | judge | export | publish | done
	Iteration  int                `json:"iteration"`
	Iterations []policy.Iteration `json:"iterations,omitempty"`
	Usage      Usage              `json:"usage"`
	Canceled   bool               `json:"canceled,omitempty"`
	LastReason string             `json:"lastReason,omitempty"`
}

// QueryProgress and SignalCancel name the workflow's query and signal.
const (
	QueryProgress = "progress"
	SignalCancel  = "cancel"
)
