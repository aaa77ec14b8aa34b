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

// Activity names, as registered by workers and called by EditWorkflow.
const (
	ActivityRoute   = "Route"
	ActivityAct     = "Act"
	ActivityApply   = "Apply"
	ActivityRender  = "Render"
	ActivityDiff    = "Diff"
	ActivityJudge   = "Judge"
	ActivityExport  = "Export"
	ActivityPublish = "Publish"
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

// RouteInput asks CARE for the context slice of an instruction (ACE §3.2).
type RouteInput struct {
	DeckRef     string `json:"deckRef"`
	Instruction string `json:"instruction,omitempty"`
	RecipeRef   string `json:"recipeRef,omitempty"`
	Model       string `json:"model,omitempty"`
}

// RouteOutput is the routing decision; the context itself is rebuilt (or
// read from the cache) by Act, so payloads stay small.
type RouteOutput struct {
	Mode         string `json:"mode"`
	TargetSlides []int  `json:"targetSlides,omitempty"` // 0-based
	NeedsImage   bool   `json:"needsImage,omitempty"`
	Reason       string `json:"reason,omitempty"`
	Source       string `json:"source,omitempty"` // heuristic | llm | llm+heuristic | recipe
	Usage        Usage  `json:"usage"`
}

// ActInput is one agent turn: the current state s, the original
// instruction and the feedback x from the last iteration (empty on the
// first), or a recipe to compile.
type ActInput struct {
	DeckRef     string      `json:"deckRef"`
	OriginRef   string      `json:"originRef"`
	Instruction string      `json:"instruction,omitempty"`
	Feedback    string      `json:"feedback,omitempty"`
	RecipeRef   string      `json:"recipeRef,omitempty"`
	Route       RouteOutput `json:"route"`
	Iteration   int         `json:"iteration"`
	Model       string      `json:"model,omitempty"`
}

// ActOutput refers to the batch of tool calls (JSON in the store).
type ActOutput struct {
	CallsRef   string   `json:"callsRef"`
	Calls      int      `json:"calls"`
	ToolErrors []string `json:"toolErrors,omitempty"`
	Usage      Usage    `json:"usage"`
}

// ApplyInput runs the tool calls on the immutable snapshot DeckRef.
type ApplyInput struct {
	DeckRef  string `json:"deckRef"`
	CallsRef string `json:"callsRef"`
}

// ApplyOutput is the new snapshot s'.
type ApplyOutput struct {
	DeckRef string   `json:"deckRef"`
	Applied int      `json:"applied"`
	Errors  []string `json:"errors,omitempty"`
}

// Violation is one measured layout problem (internal/render).
type Violation struct {
	Key     string   `json:"key"`
	Kind    string   `json:"kind"`
	SlideID string   `json:"slideId"`
	NodeIDs []string `json:"nodeIds,omitempty"`
	Reason  string   `json:"reason,omitempty"`
}

// RenderInput renders DeckRef; with Baseline set (the origin's
// violations) it also evaluates the hard geometry gate.
type RenderInput struct {
	DeckRef   string      `json:"deckRef"`
	OriginRef string      `json:"originRef,omitempty"`
	Images    bool        `json:"images,omitempty"`
	Baseline  []Violation `json:"baseline,omitempty"`
	Gate      bool        `json:"gate,omitempty"`
}

// SlideImage is a rendered slide PNG in the store.
type SlideImage struct {
	Slide int    `json:"slide"` // 0-based
	Ref   string `json:"ref"`
}

// RenderOutput holds measured violations, PNG refs when asked, and the
// gate verdict: violations(s') <= violations(d0).
type RenderOutput struct {
	Violations    []Violation  `json:"violations,omitempty"`
	Images        []SlideImage `json:"images,omitempty"`
	Slides        int          `json:"slides"`
	GatePassed    bool         `json:"gatePassed"`
	NewViolations []string     `json:"newViolations,omitempty"`
}

// DiffInput compares origin d0 with the current state (JsonDiff).
type DiffInput struct {
	OriginRef string `json:"originRef"`
	DeckRef   string `json:"deckRef"`
}

// DiffOutput refers to the diff text for the judge.
type DiffOutput struct {
	TextRef       string  `json:"textRef"`
	Distinct      int     `json:"distinct"`
	Score         float64 `json:"score"`
	Empty         bool    `json:"empty"`
	TouchesVisual bool    `json:"touchesVisual,omitempty"`
}

// JudgeInput asks the IF judge to score the edit 0-5 (ACE §3.3).
type JudgeInput struct {
	Instruction string       `json:"instruction"`
	RecipeRef   string       `json:"recipeRef,omitempty"`
	DiffTextRef string       `json:"diffTextRef"`
	OriginRef   string       `json:"originRef"`
	DeckRef     string       `json:"deckRef"`
	Images      []SlideImage `json:"images,omitempty"`
	Model       string       `json:"model,omitempty"`
}

// JudgeOutput is the score and critique; Skipped when no judge model is
// configured (the geometry gate alone decides, DESIGN.md §6).
type JudgeOutput struct {
	Score    *float64 `json:"score,omitempty"`
	Critique string   `json:"critique,omitempty"`
	Skipped  bool     `json:"skipped,omitempty"`
	Usage    Usage    `json:"usage"`
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
	OriginViolations   []Violation        `json:"originViolations,omitempty"`
	Base               string             `json:"base"`
	Feedback           string             `json:"feedback,omitempty"`
	History            []policy.Iteration `json:"history,omitempty"`
	ToolCalls          []int              `json:"toolCalls,omitempty"`
	Violations         []int              `json:"violations,omitempty"`
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
