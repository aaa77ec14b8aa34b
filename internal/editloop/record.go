package editloop

import (
	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/critic"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/route"
)

// Record is the full account of one edit, the same in process and in a
// workflow: `ace edit --record` writes it as JSON, the workflow carries it
// across continue-as-new and publishes its EditResult from it.
type Record struct {
	Instruction string `json:"instruction,omitempty"`
	// Recipe is the recipe's name for a recipe edit.
	Recipe string `json:"recipe,omitempty"`
	Origin string `json:"origin"` // snapshot ref
	// Final is the kept snapshot as its render measured it (the kept
	// iteration's Measured when set, else its Snapshot; the origin when no
	// iteration is kept): the deck checked and exported;
	// Selected is the kept iteration's number N (1-based, as in
	// Iterations), 0 when the origin stands. One numbering everywhere.
	Final    string         `json:"final"`
	Selected int            `json:"selected"`
	Outcome  policy.Outcome `json:"outcome"`
	Reason   string         `json:"reason"`

	// Checks are the recipe expectations that failed on the kept deck;
	// Expectations how many the recipe has. ChecksOnOrigin says they were
	// evaluated on the original deck because no iteration was kept.
	Checks         []recipe.Failure `json:"failedChecks,omitempty"`
	Expectations   int              `json:"expectations,omitempty"`
	ChecksOnOrigin bool             `json:"checksOnOrigin,omitempty"`
	// Gate is a recipe's gate mode (recipe.GatePerDeck or GatePerSlide);
	// Reverted the slides the kept iteration's per-slide gate put back as
	// they were in the original, with the violations that made them fail.
	Gate     recipe.GateMode `json:"gate,omitempty"`
	Reverted []SlideRevert   `json:"reverted,omitempty"`

	// Warnings are the input deck's problems the edit cannot fix and
	// reports instead of passing over them: pictures the importer could not
	// read, each naming the slide, node and part (Route's warnings).
	Warnings []string `json:"warnings,omitempty"`

	Route      RouteRecord       `json:"route"`
	Iterations []IterationRecord `json:"iterations"`
	// Ledger is the critic's issue ledger over the edit (ReDeck §3.3-3.4):
	// issues with their statuses, the turns' checks and the waivers.
	Ledger *critic.Ledger `json:"ledger,omitempty"`
	// Export is the kept deck as a file in the store (empty when nothing
	// is kept: failed or canceled).
	Export ExportOutput `json:"export"`
	// Usage sums every model call of the edit: router, agent and judges.
	Usage      llm.Usage     `json:"usage"`
	Policy     policy.Config `json:"policy"`
	AgentTurns int           `json:"agentTurns"`
	// StartedUnixMS is when the edit began (ms since 1970, the loop's
	// clock); DurationMS its wall time to the end of export.
	StartedUnixMS int64  `json:"startedUnixMs"`
	DurationMS    int64  `json:"durationMs"`
	Error         string `json:"error,omitempty"`
	// TurnRecord is the id of the turn record written to the skill bank
	// (Request.Skills); TurnRecordError why it could not be written.
	TurnRecord      string `json:"turnRecord,omitempty"`
	TurnRecordError string `json:"turnRecordError,omitempty"`
}

// RouteRecord is the CARE decision.
type RouteRecord struct {
	Decision route.Decision `json:"decision"`
	// AgentInstruction is what the agent works on and the judge scores
	// (RouteOutput.AgentInstruction).
	AgentInstruction string     `json:"agentInstruction,omitempty"`
	LLM              []llm.Call `json:"llm,omitempty"`
	DurationMS       int64      `json:"durationMs"`
	// Cached says the decision came from the route cache (no router call).
	Cached bool `json:"cached,omitempty"`
	// Skills is the retrieval when the edit ran with skills
	// (RouteOutput.Skills).
	Skills *retrieval.Result `json:"skills,omitempty"`
}

// IterationRecord is one act-apply-diff-render-judge iteration.
type IterationRecord struct {
	N int `json:"n"` // 1-based
	// Base is the snapshot the iteration started from; Feedback what the
	// agent was told about the previous iteration (nil on iteration 1).
	Base     string           `json:"base"`
	Feedback *policy.Feedback `json:"feedback,omitempty"`
	Snapshot string           `json:"snapshot,omitempty"`

	Mode         string `json:"mode,omitempty"`
	ContextBytes int    `json:"contextBytes,omitempty"`
	// ContextNote says why Mode is lower than the route's: the routed
	// context was over its token budget (route.Bounded).
	ContextNote string `json:"contextNote,omitempty"`
	Turns       int    `json:"turns"`
	// ActStopped says how the agent's step loop ended: "submitted" (the
	// gate passed), "step_budget" (the iteration's steps ran out first),
	// "turn_cap" (the edit's agent turns ran out), "recipe" (a compiled
	// recipe without instruction steps).
	ActStopped string `json:"actStopped,omitempty"`
	// Account is the agent's own one-line account of the edit it handed
	// in: submit's summary, else the text of its answer (an answer without
	// calls is a submit). The IF judge reads it as a claim to check, so a
	// deliberate "nothing needed changing" is not mistaken for inaction.
	Account string `json:"account,omitempty"`
	// Steps are the agent's steps: one per model turn.
	Steps []StepRecord `json:"steps,omitempty"`
	// ToolCalls is how many calls applied; CallsRef their JSON in the
	// store (a list of agent.Call).
	ToolCalls  int               `json:"toolCalls"`
	CallsRef   string            `json:"callsRef,omitempty"`
	ToolErrors []agent.ToolError `json:"toolErrors,omitempty"`
	// Warnings from a recipe's compiler (e.g. instruction steps skipped).
	Warnings []string `json:"warnings,omitempty"`

	DiffDistinct  int      `json:"diffDistinct"`
	DiffEmpty     bool     `json:"diffEmpty,omitempty"`
	DiffTextRef   string   `json:"diffTextRef,omitempty"`
	TouchesVisual bool     `json:"touchesVisual,omitempty"`
	ChangedSlides []string `json:"changedSlides,omitempty"`

	// Waivers are the hard violations the critic let through the gate in
	// this iteration because the instruction requires them, each with the
	// quote; Critic is the critic's turn (its checks, issue changes, model
	// calls and problems).
	Waivers []critic.Waiver    `json:"waivers,omitempty"`
	Critic  *critic.TurnReport `json:"critic,omitempty"`

	// Rendered is false when no renderer ran: the gate was not evaluated
	// (and Notes says so).
	Rendered      bool     `json:"rendered"`
	Violations    int      `json:"violations"`
	GatePassed    bool     `json:"gatePassed"`
	NewViolations []string `json:"newViolations,omitempty"`
	// Blocked are the attempt's slides whose new violations failed the
	// gate, with the Render step's PNG of each (for the report).
	// Reverted are those the per-slide gate put back; Attempt is then the
	// snapshot before the revert (Snapshot is after it).
	Blocked  []BlockedSlide `json:"blocked,omitempty"`
	Reverted []SlideRevert  `json:"reverted,omitempty"`
	Attempt  string         `json:"attempt,omitempty"`
	// Measured is Snapshot with the geometry its render decided written
	// back (RenderOutput.Measured); empty when that changed nothing.
	Measured string `json:"measured,omitempty"`

	Score        *float64 `json:"score,omitempty"`
	Critique     string   `json:"critique,omitempty"`
	JudgeSkipped bool     `json:"judgeSkipped,omitempty"`
	JudgeMissing bool     `json:"judgeMissing,omitempty"`
	JudgeProblem string   `json:"judgeProblem,omitempty"`
	VQ           *float64 `json:"vq,omitempty"`
	VQReason     string   `json:"vqReason,omitempty"`

	// Decision is nil when the iteration ended in a step failure.
	Decision *policy.Decision `json:"decision,omitempty"`
	LLM      []llm.Call       `json:"llm,omitempty"`
	Usage    llm.Usage        `json:"usage"`
	Timings  Timings          `json:"timingsMs"`
	// Error is the step failure that ended the iteration, if any.
	Error string `json:"error,omitempty"`
	// Notes are conditions the loop went on through (a judge outage, no
	// renderer configured).
	Notes []string `json:"notes,omitempty"`
}

// StepRecord is one step of the agent within an iteration: its model
// turn, the deck calls applied, the step tools it used and what the
// observation after it found.
type StepRecord struct {
	Turn int `json:"turn"`
	// Tools are the tools the turn called, in order; Calls the same calls
	// in short (the tool and its arguments cut to ShortCallRunes, for the
	// report's timeline); Text the turn's words.
	Tools []string `json:"tools,omitempty"`
	Calls []string `json:"calls,omitempty"`
	Text  string   `json:"text,omitempty"`
	// Applied is how many deck calls applied; Errors how many failed.
	Applied int `json:"applied,omitempty"`
	Errors  int `json:"errors,omitempty"`
	// Skills are the skills the step read with load_skill.
	Skills []string `json:"skills,omitempty"`
	// Changed says the deck changed; Undone that undo_step took a step
	// back.
	Changed bool `json:"changed,omitempty"`
	Undone  bool `json:"undone,omitempty"`
	// DeltaViol and New are the last observation's (violations now minus
	// at the iteration's start on the changed slides; the new ones),
	// Resolved how many of the start's are gone; nil DeltaViol when the
	// step observed nothing.
	DeltaViol *int     `json:"deltaViol,omitempty"`
	New       []string `json:"new,omitempty"`
	Resolved  int      `json:"resolved,omitempty"`
	// ByKind splits DeltaViol by violation kind; ResolvedViolations
	// describes the Resolved ones.
	ByKind             []observe.KindDelta `json:"byKind,omitempty"`
	ResolvedViolations []string            `json:"resolvedViolations,omitempty"`
	// Submit is the gate's verdict when the step submitted (an answer
	// without calls counts as a submit); Waived the new violations the
	// gate let through because the critic waived them.
	Submit *bool    `json:"submit,omitempty"`
	Waived []string `json:"waived,omitempty"`
	// ObservationBytes is the size of the observation text the agent got.
	ObservationBytes int `json:"observationBytes,omitempty"`
	// Issues are the critic's ledger changes the step's geometry made
	// (an issue resolved, or regressed by this step).
	Issues []critic.Change `json:"issues,omitempty"`
	// StartedUnixMS is when the step's model turn began (ms since 1970,
	// the loop's clock); Timings its parts.
	StartedUnixMS int64       `json:"startedUnixMs,omitempty"`
	Timings       StepTimings `json:"timingsMs"`
}

// StepTimings are one step's parts in ms of the loop's clock: the model
// turn, applying its deck calls, the observations after them (an undo's
// and a check_layout's too) and the submit gate (its observation, when
// not the step's own, and the critic's waiver questions). Total runs from
// the turn's start to the step's end.
type StepTimings struct {
	Agent   int64 `json:"agent"`
	Apply   int64 `json:"apply,omitempty"`
	Observe int64 `json:"observe,omitempty"`
	Gate    int64 `json:"gate,omitempty"`
	Total   int64 `json:"total"`
}

// Timings per step, ms of the loop's clock.
type Timings struct {
	// Act is the agent's step loop (its turns, applies and observations),
	// or a recipe's compile; Observe is the observations' share of it.
	Act     int64 `json:"act"`
	Observe int64 `json:"observe,omitempty"`
	Apply   int64 `json:"apply"`
	Diff    int64 `json:"diff"`
	Render  int64 `json:"render"`
	Judge   int64 `json:"judge"`
	Critic  int64 `json:"critic,omitempty"`
	Total   int64 `json:"total"`
}

// Calls returns every model call of the edit in order.
func (r *Record) Calls() []llm.Call {
	out := append([]llm.Call(nil), r.Route.LLM...)
	for _, it := range r.Iterations {
		out = append(out, it.LLM...)
	}
	return out
}

// Kept is the selected iteration, nil when the origin stands.
func (r *Record) Kept() *IterationRecord {
	if r.Selected < 1 || r.Selected > len(r.Iterations) {
		return nil
	}
	return &r.Iterations[r.Selected-1]
}

// history is the policy's view of the iterations that completed.
func (r *Record) history() []policy.Iteration {
	var h []policy.Iteration
	for _, it := range r.Iterations {
		if it.Error != "" {
			continue
		}
		h = append(h, iterationOf(it))
	}
	return h
}
