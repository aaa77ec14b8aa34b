package workflows

import (
	"github.com/acecanvas/ace/internal/llm"
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
var Roles = map[string]string{"edit": QueueEdit, "llm": QueueLLM, "render": QueueRender, "diff": QueueDiff, "evolve": QueueEvolve}

// AllRoles lists every role.
var AllRoles = []string{"edit", "llm", "render", "diff", "evolve"}

// Activity names, as registered by workers and called by EditWorkflow.
const (
	ActivityRoute      = "Route"
	ActivityAct        = "Act"
	ActivityAgentTurn  = "AgentTurn"
	ActivityApplyRound = "ApplyRound"
	ActivityObserve    = "Observe"
	ActivityApply      = "Apply"
	ActivityRender     = "Render"
	ActivityDiff       = "Diff"
	ActivityJudge      = "Judge"
	// ActivityCritique and ActivityWaive are the critic's turn and its
	// waiver question (the judge's model, the llm queue).
	ActivityCritique = "Critique"
	ActivityWaive    = "Waive"
	ActivityCheck    = "Check"
	ActivityExport   = "Export"
	ActivityPublish  = "Publish"
	// ActivityProgress publishes one iteration's Progress event.
	ActivityProgress = "Progress"
	// ActivityRecordTurn writes an edit's turn record to the skill bank
	// (an edit with skills on; the llm queue's workers hold the bank, as
	// Route needs it too).
	ActivityRecordTurn = "RecordTurn"
	// ActivityPicture makes the report's before and after pictures of a
	// finished edit (the render queue).
	ActivityPicture = "Picture"
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
	// ErrModelRefused: the model server refused the request as such (a
	// 4xx other than 408 and 429: malformed, bad key, unknown model).
	ErrModelRefused = "ace.ModelRefused"
)

var nonRetryable = []string{ErrBadInput, ErrNoModel, ErrContextLength, ErrModelRefused}

// Progress is the answer to the "progress" query.
type Progress struct {
	Phase      Phase              `json:"phase"`
	Iteration  int                `json:"iteration"`
	Iterations []policy.Iteration `json:"iterations,omitempty"`
	Usage      llm.Usage          `json:"usage"`
	Canceled   bool               `json:"canceled,omitempty"`
	LastReason string             `json:"lastReason,omitempty"`
}

// Phase is the step an EditWorkflow is in, as the progress query reports it.
type Phase string

const (
	PhaseRoute    Phase = "route"
	PhaseAct      Phase = "act"
	PhaseTurn     Phase = "turn"
	PhaseRound    Phase = "round"
	PhaseObserve  Phase = "observe"
	PhaseApply    Phase = "apply"
	PhaseDiff     Phase = "diff"
	PhaseRender   Phase = "render"
	PhaseJudge    Phase = "judge"
	PhaseCritique Phase = "critique"
	PhaseWaive    Phase = "waive"
	PhaseCheck    Phase = "check"
	PhaseExport   Phase = "export"
	PhaseRecord   Phase = "record"
	PhasePicture  Phase = "picture"
	PhasePublish  Phase = "publish"
	PhaseDone     Phase = "done"
)

// QueryProgress, QueryRecord and SignalCancel name the workflow's queries
// and signal. QueryRecord answers the edit's editloop.Record as of the
// last iteration (the whole record once the edit ended).
const (
	QueryProgress = "progress"
	QueryRecord   = "record"
	SignalCancel  = "cancel"
)
