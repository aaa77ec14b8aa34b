package runner

import (
	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/route"
)

// Record is the full account of one edit, as JSON for `ace edit --record`
// and `ace report`.
type Record struct {
	Instruction string `json:"instruction,omitempty"`
	// Recipe is the recipe's name for a recipe edit.
	Recipe string `json:"recipe,omitempty"`
	Origin string `json:"origin"` // snapshot ref
	// Final is the snapshot strict-peak selection returned (the origin when
	// no iteration passed the gate); Selected its 1-based iteration, 0 for
	// the origin.
	Final    string `json:"final"`
	Selected int    `json:"selected"`
	// Outcome: "stopped" (IF >= tau), "budget" (T spent), "no_judge",
	// "applied" (a recipe without instruction steps, gate passed),
	// "turn_cap", "gate_blocked" (every iteration failed the gate),
	// "expectation_failed" (a recipe expectation does not hold),
	// "interrupted" (a later iteration failed; the best earlier one is
	// kept), or "failed".
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`

	// Checks are the recipe expectations that failed on the final deck.
	Checks []recipe.Failure `json:"failedChecks,omitempty"`

	Route      RouteRecord       `json:"route"`
	Iterations []IterationRecord `json:"iterations"`
	// Usage sums every model call of the task: router, agent and judges.
	Usage      llm.Usage     `json:"usage"`
	Policy     policy.Config `json:"policy"`
	AgentTurns int           `json:"agentTurns"`
	DurationMS int64         `json:"durationMs"`
	Error      string        `json:"error,omitempty"`
}

// RouteRecord is the CARE decision.
type RouteRecord struct {
	Decision   route.Decision `json:"decision"`
	LLM        []llm.Call     `json:"llm,omitempty"`
	DurationMS int64          `json:"durationMs"`
	// Cached says the decision came from Steps.Cache (no router call).
	Cached bool `json:"cached,omitempty"`
}

// IterationRecord is one act-apply-render-diff-judge turn.
type IterationRecord struct {
	N int `json:"n"`
	// Base is the snapshot the iteration started from; Instruction what the
	// agent was told (the user's instruction, or the wrapped critique).
	Base     string `json:"base"`
	Feedback string `json:"feedback,omitempty"`
	Snapshot string `json:"snapshot"`

	Mode         string            `json:"mode"`
	ContextBytes int               `json:"contextBytes"`
	Turns        int               `json:"turns"`
	ActStopped   string            `json:"actStopped"`
	ToolCalls    []agent.Call      `json:"toolCalls"`
	ToolErrors   []agent.ToolError `json:"toolErrors,omitempty"`
	// Warnings from a recipe's compiler (e.g. instruction steps skipped).
	Warnings []string `json:"warnings,omitempty"`

	DiffDistinct  int      `json:"diffDistinct"`
	DiffEmpty     bool     `json:"diffEmpty"`
	TouchesVisual bool     `json:"touchesVisual,omitempty"`
	ChangedSlides []string `json:"changedSlides,omitempty"`
	DiffText      string   `json:"diffText,omitempty"`

	// Rendered is false when no renderer ran (the gate is then assumed
	// passed and says so in Errors).
	Rendered      bool     `json:"rendered"`
	Violations    int      `json:"violations"`
	GatePassed    bool     `json:"gatePassed"`
	NewViolations []string `json:"newViolations,omitempty"`

	Score        *float64 `json:"score,omitempty"`
	Critique     string   `json:"critique,omitempty"`
	JudgeSkipped bool     `json:"judgeSkipped,omitempty"`
	JudgeMissing bool     `json:"judgeMissing,omitempty"`
	JudgeProblem string   `json:"judgeProblem,omitempty"`
	VQ           *float64 `json:"vq,omitempty"`
	VQReason     string   `json:"vqReason,omitempty"`

	Decision policy.Decision `json:"decision"`
	LLM      []llm.Call      `json:"llm"`
	Usage    llm.Usage       `json:"usage"`
	// Timings per step, ms.
	Timings Timings `json:"timingsMs"`
	// Errors are step failures the loop survived (judge outage, no
	// renderer, ...).
	Errors []string `json:"errors,omitempty"`
}

// Timings per step, ms.
type Timings struct {
	Act    int64 `json:"act"`
	Apply  int64 `json:"apply"`
	Diff   int64 `json:"diff"`
	Render int64 `json:"render"`
	Judge  int64 `json:"judge"`
	Total  int64 `json:"total"`
}

// Calls returns every model call of the task in order.
func (r *Record) Calls() []llm.Call {
	out := append([]llm.Call(nil), r.Route.LLM...)
	for _, it := range r.Iterations {
		out = append(out, it.LLM...)
	}
	return out
}
