package editloop

import (
	"time"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/critic"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/skills"
)

// Steps are the loop's steps. internal/runner implements them with direct
// calls (`ace edit`); workflows implements them with Temporal activities,
// each step on its task queue. Every input and output refers to decks,
// tool calls, diff texts and pictures by store ref (content hashes), never
// by value, so workflow payloads stay small and every step is idempotent.
//
// A step returns an error only when it could not do its work after its
// own retries; the loop decides what that means for the edit. An error
// that wraps ErrCanceled is a cancellation, never retried or survived.
type Steps interface {
	// Route runs CARE once per edit (ACE §3.2) and resolves what the agent
	// works on (the instruction, or a recipe's instruction steps).
	Route(RouteInput) (RouteOutput, error)
	// Act compiles a recipe against the snapshot (iteration 1 of a recipe
	// edit; no model).
	Act(ActInput) (ActOutput, error)
	// AgentTurn is one model turn of an iteration's step loop (ReDeck
	// §3.1): the previous step's results in, the model's next calls out.
	AgentTurn(TurnInput) (TurnOutput, error)
	// ApplyRound applies a turn's deck calls to the working copy.
	ApplyRound(RoundInput) (RoundOutput, error)
	// Observe measures the slides changed since the iteration began and
	// says what changed in the layout (observe.Build); it is also the
	// submit gate.
	Observe(ObserveInput) (observe.Observation, error)
	// Apply replays Act's calls on the base snapshot as one atomic commit
	// and must reproduce Act's working copy.
	Apply(ApplyInput) (ApplyOutput, error)
	// Diff is JsonDiff of the origin against the new snapshot (ACE App. E).
	Diff(DiffInput) (DiffOutput, error)
	// Render measures the changed slides of the new snapshot and of the
	// origin and evaluates the hard geometry gate (ReDeck: no new
	// violations).
	Render(RenderInput) (RenderOutput, error)
	// Judge scores the edit 0-5 with a critique (ACE §3.3), and VQ when
	// asked. A judge model outage is a missing score, not an error.
	Judge(JudgeInput) (JudgeOutput, error)
	// Critique is the critic's turn (ReDeck §3.3): the scheduled checks,
	// the geometry of the render, the issue ledger updated.
	Critique(CritiqueInput) (CritiqueOutput, error)
	// Waive asks the critic whether the instruction itself requires new
	// hard violations a submit found (waivers go into the ledger).
	Waive(WaiveInput) (WaiveOutput, error)
	// Check evaluates a recipe's expectations on the kept deck.
	Check(CheckInput) (CheckOutput, error)
	// Export writes the kept deck as a file in the store.
	Export(ExportInput) (ExportOutput, error)
	// Now is the clock of the loop: the wall clock in process,
	// workflow.Now in a workflow (deterministic on replay).
	Now() time.Time
	// RecordTurn writes an edit's turn record to the skill bank at the end
	// of an edit with skills on (Designer-RSI App. C.4; the workflow does
	// it in an activity).
	RecordTurn(RecordTurnInput) (RecordTurnOutput, error)
	// Iterated is told after each iteration is recorded with its decision.
	// The workflow publishes progress there and continues as new when its
	// history grows long (a non-nil error ends Run and is returned as is).
	Iterated(rec *Record) error
}

// RouteInput asks for the routing decision of an edit.
type RouteInput struct {
	DeckRef     string `json:"deckRef"`
	Instruction string `json:"instruction,omitempty"`
	// RecipeRef is the store ref of a recipe's YAML; RecipePath names it
	// in errors and anchors its asset directory.
	RecipeRef  string `json:"recipeRef,omitempty"`
	RecipePath string `json:"recipePath,omitempty"`
	// Mode, when set, fixes the context mode (Request.ContextMode): the
	// heuristic picks the targets, no router model is called.
	Mode route.Mode `json:"mode,omitempty"`
	// Skills asks for retrieval against the skill bank (Request.Skills).
	Skills bool `json:"skills,omitempty"`
}

// RouteOutput is the CARE decision and what the agent works on.
type RouteOutput struct {
	Decision route.Decision `json:"decision"`
	// AgentInstruction is what Act and Judge work on: the instruction, or
	// a recipe's instruction steps when an agent model is configured;
	// empty for a pure recipe (one iteration, no judge).
	AgentInstruction string `json:"agentInstruction,omitempty"`
	// Recipe is the recipe's name; Expectations how many it has; Gate
	// its gate mode (recipe key gate:, empty for an instruction).
	Recipe       string          `json:"recipe,omitempty"`
	Expectations int             `json:"expectations,omitempty"`
	Gate         recipe.GateMode `json:"gate,omitempty"`
	LLM          []llm.Call      `json:"llm,omitempty"`
	// Cached says the decision came from the route cache (no router call).
	Cached bool `json:"cached,omitempty"`
	// Warnings are the input deck's problems the edit cannot fix: its
	// unreadable pictures (scenegraph.Deck.PictureWarnings).
	Warnings []string `json:"warnings,omitempty"`
	// Skills is the retrieval (Request.Skills with an agent instruction):
	// operations, scores, the starred skills, coverage and the ref of the
	// frozen skill set load_skill answers from. Its distiller calls are
	// in LLM.
	Skills *retrieval.Result `json:"skills,omitempty"`
}

// RecordTurnInput is the turn record to write (TurnRecordOf).
type RecordTurnInput struct {
	Record skills.TurnRecord `json:"record"`
}

// RecordTurnOutput names the record written.
type RecordTurnOutput struct {
	ID string `json:"id"`
}

// ActInput compiles the recipe under RecipeRef against snapshot DeckRef.
type ActInput struct {
	DeckRef    string `json:"deckRef"`
	RecipeRef  string `json:"recipeRef"`
	RecipePath string `json:"recipePath,omitempty"`
}

// ActOutput is the compiled recipe: its calls (JSON in the store under
// CallsRef, a list of agent.Call) and the snapshot they give, which Apply
// must reproduce.
type ActOutput struct {
	CallsRef string `json:"callsRef,omitempty"`
	Calls    int    `json:"calls"`
	DeckRef  string `json:"deckRef"`
	// AssetDir is the recipe's image library, which Apply must use;
	// Warnings the compiler's.
	AssetDir string   `json:"assetDir,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// TurnInput is one model turn of an iteration.
type TurnInput struct {
	// SessionRef is the conversation so far (JSON agent.Session in the
	// store); empty on the iteration's first turn, which starts it from
	// DeckRef's routed context, the instruction and the feedback.
	SessionRef  string           `json:"sessionRef,omitempty"`
	DeckRef     string           `json:"deckRef,omitempty"`
	Instruction string           `json:"instruction,omitempty"`
	Route       route.Decision   `json:"route"`
	Feedback    *policy.Feedback `json:"feedback,omitempty"`
	// Results answer the previous turn's calls; Note is a message that
	// answers no call (a submit refused after an answer without calls).
	Results []agent.Result `json:"results,omitempty"`
	Note    string         `json:"note,omitempty"`
	// SkillsRef is the frozen skill set (retrieval.Set) and Starred its
	// starred skills: on the first turn the agent gets their catalog
	// (retrieval.Catalog) and load_skill. Empty: no skills.
	SkillsRef string   `json:"skillsRef,omitempty"`
	Starred   []string `json:"starred,omitempty"`
}

// TurnOutput is the model's answer and the conversation with it.
type TurnOutput struct {
	SessionRef string      `json:"sessionRef"`
	Round      agent.Round `json:"round"`
	LLM        []llm.Call  `json:"llm,omitempty"`
	// First turn only: the context mode (lower than the route's when the
	// context was over its token budget, route.Bounded), the routed
	// context's size, whether it came from the route cache, and the note
	// the model was given when the context degraded.
	Mode          string `json:"mode,omitempty"`
	ContextBytes  int    `json:"contextBytes,omitempty"`
	ContextCached bool   `json:"contextCached,omitempty"`
	ContextNote   string `json:"contextNote,omitempty"`
}

// RoundInput applies a turn's deck calls to the working copy DeckRef,
// which is BaseRef with the calls under CallsRef applied.
type RoundInput struct {
	BaseRef  string      `json:"baseRef"`
	CallsRef string      `json:"callsRef,omitempty"`
	DeckRef  string      `json:"deckRef"`
	Round    agent.Round `json:"round"`
	AssetDir string      `json:"assetDir,omitempty"`
	// SkillsRef is the frozen skill set load_skill answers from (empty:
	// no skills).
	SkillsRef string `json:"skillsRef,omitempty"`
}

// RoundOutput is the new working copy, every call applied since BaseRef,
// and a result per deck call for the model.
type RoundOutput struct {
	DeckRef  string            `json:"deckRef"`
	CallsRef string            `json:"callsRef,omitempty"`
	Calls    int               `json:"calls"`
	Results  []agent.Result    `json:"results,omitempty"`
	Errors   []agent.ToolError `json:"toolErrors,omitempty"`
	Changed  bool              `json:"changed,omitempty"`
	// Loaded are the skills the round read with load_skill.
	Loaded []string `json:"loaded,omitempty"`
}

// ObserveInput measures DeckRef against the iteration's start
// BaselineRef; PrevRef is the working copy before the step (its changes
// decide which slides list anchors and which texts count as touched).
// Slides, when set, are measured instead of the slides changed since the
// baseline (check_layout).
type ObserveInput struct {
	BaselineRef string   `json:"baselineRef"`
	PrevRef     string   `json:"prevRef,omitempty"`
	DeckRef     string   `json:"deckRef"`
	Slides      []string `json:"slides,omitempty"`
	Title       string   `json:"title,omitempty"`
	// Waived are violation keys the critic waived, with the quote of the
	// instruction that requires each: they do not hold the gate.
	Waived map[string]string `json:"waived,omitempty"`
}

// CritiqueInput is one critic turn (iteration Turn): the instruction, the
// diff text the judge got, the iteration's start and end, the ledger so
// far, and what the render measured: every violation on the rendered
// slides now and in the origin.
type CritiqueInput struct {
	Turn        int    `json:"turn"`
	Instruction string `json:"instruction"`
	// Account is the agent's account of its edit (IterationRecord.Account).
	Account     string             `json:"account,omitempty"`
	DiffTextRef string             `json:"diffTextRef,omitempty"`
	StartRef    string             `json:"startRef"`
	DeckRef     string             `json:"deckRef"`
	Ledger      critic.Ledger      `json:"ledger"`
	Rendered    []string           `json:"rendered,omitempty"`
	Violations  []render.Violation `json:"violations,omitempty"`
	Baseline    []render.Violation `json:"baseline,omitempty"`
	Images      []SlideImage       `json:"images,omitempty"`
}

// CritiqueOutput is the updated ledger and what the turn did.
type CritiqueOutput struct {
	Ledger critic.Ledger     `json:"ledger"`
	Report critic.TurnReport `json:"report"`
}

// WaiveInput asks about new violations of DeckRef against BaselineRef (the
// iteration's start; the nodes that differ are the ones the edit touched).
type WaiveInput struct {
	Instruction string             `json:"instruction"`
	BaselineRef string             `json:"baselineRef"`
	DeckRef     string             `json:"deckRef"`
	Violations  []render.Violation `json:"violations"`
	Ledger      critic.Ledger      `json:"ledger"`
}

// WaiveOutput is the ledger with any waivers granted and the critic's
// decision per violation.
type WaiveOutput struct {
	Ledger    critic.Ledger           `json:"ledger"`
	Decisions []critic.WaiverDecision `json:"decisions"`
}

// ApplyInput replays the calls under CallsRef on snapshot DeckRef.
type ApplyInput struct {
	DeckRef  string `json:"deckRef"`
	CallsRef string `json:"callsRef,omitempty"`
	AssetDir string `json:"assetDir,omitempty"`
	// Expect is Act's working copy; a different result means a tool is not
	// deterministic, which is an error.
	Expect string `json:"expect,omitempty"`
}

// ApplyOutput is the new snapshot.
type ApplyOutput struct {
	DeckRef string `json:"deckRef"`
	Applied int    `json:"applied"`
}

// DiffInput compares the origin with the current snapshot. Targets are
// the route's target slides (0-based origin indices): the text for the
// judge shows the origin snapshot of those and of the slides the edit
// touched, and counts the rest (diff.Diff.RoutedText); none shows every
// slide.
type DiffInput struct {
	OriginRef string `json:"originRef"`
	DeckRef   string `json:"deckRef"`
	Targets   []int  `json:"targets,omitempty"`
}

// DiffOutput is JsonDiff's summary, a ref to its text for the judge, and
// the slides the edit touched.
type DiffOutput struct {
	TextRef       string  `json:"textRef,omitempty"`
	Distinct      int     `json:"distinct"`
	Score         float64 `json:"score"`
	Empty         bool    `json:"empty,omitempty"`
	TouchesVisual bool    `json:"touchesVisual,omitempty"`
	// ChangedSlides are the ids of slides whose content changed (current
	// deck order, then removed ones). AllSlides is set when every slide
	// may look different (the design tokens changed).
	ChangedSlides []string `json:"changedSlides,omitempty"`
	AllSlides     bool     `json:"allSlides,omitempty"`
}

// RenderInput renders slides of DeckRef and of OriginRef and compares
// their violations; Waived keys (the critic's waivers) do not fail the
// gate.
type RenderInput struct {
	DeckRef   string            `json:"deckRef"`
	OriginRef string            `json:"originRef"`
	Waived    map[string]string `json:"waived,omitempty"`
	// SlideIDs to render; nil renders every slide.
	SlideIDs []string `json:"slideIds,omitempty"`
	// Images stores a PNG per rendered slide of DeckRef.
	Images bool `json:"images,omitempty"`
	// PerSlide is a recipe's per-slide gate (recipe.GatePerSlide): when
	// slides of DeckRef add violations, they are put back as they are in
	// OriginRef and the gate judges the result (RenderOutput.DeckRef).
	PerSlide bool `json:"perSlide,omitempty"`
}

// BlockedSlide is a slide whose new hard violations failed the gate in
// an attempt: its number in the attempt's deck (1-based), the violations
// with their node ids and boxes (px, slide coordinates), and the Render
// step's PNG of the slide as the attempt left it (store ref, 1 px per
// slide px).
type BlockedSlide struct {
	SlideID    string             `json:"slideId"`
	Number     int                `json:"number"`
	Image      string             `json:"image,omitempty"`
	Violations []render.Violation `json:"violations"`
}

// SlideRevert is a slide the per-slide gate put back as it was in the
// original deck: its number (1-based) and the new violations that made
// it fail, one line each (judge.Describe).
type SlideRevert struct {
	SlideID    string   `json:"slideId"`
	Number     int      `json:"number"`
	Violations []string `json:"violations"`
}

// SlideImage is a rendered slide PNG in the store.
type SlideImage struct {
	SlideID string `json:"slideId"`
	Ref     string `json:"ref"`
}

// RenderOutput is the gate verdict with the current state's violation
// count and the PNG refs asked for. NotRendered is set when no renderer is
// configured: the gate was not evaluated (and is recorded as such).
type RenderOutput struct {
	Slides        int          `json:"slides"`
	Violations    int          `json:"violations"`
	GatePassed    bool         `json:"gatePassed"`
	NewViolations []string     `json:"newViolations,omitempty"`
	Images        []SlideImage `json:"images,omitempty"`
	NotRendered   bool         `json:"notRendered,omitempty"`
	// Rendered are the slides measured; Current and Origin every
	// violation on them in the new snapshot and the origin (for the
	// critic).
	Rendered []string           `json:"rendered,omitempty"`
	Current  []render.Violation `json:"current,omitempty"`
	Origin   []render.Violation `json:"origin,omitempty"`
	// Blocked are the slides whose new violations failed the gate, each
	// with its PNG (set when the gate failed, before any revert).
	Blocked []BlockedSlide `json:"blocked,omitempty"`
	// DeckRef, with PerSlide, is the snapshot with the Reverted slides
	// put back (empty when nothing was reverted); the verdict and the
	// violations above are then that snapshot's.
	DeckRef  string        `json:"deckRef,omitempty"`
	Reverted []SlideRevert `json:"reverted,omitempty"`
	// Measured, when the gate passed, is the snapshot it judged (DeckRef
	// when set, else RenderInput.DeckRef) with the geometry the renderer
	// decided written back (render.WriteMeasured: content-sized text and
	// auto-layout frames as drawn); empty when that changed nothing. It is
	// what the edit exports when the iteration is kept.
	Measured string `json:"measured,omitempty"`
	// Stalled is how long the step waited for a browser tab held by other
	// work (render.Result.Stalled of its renders): with the time the
	// activity waited in its task queue, what the render step spent on
	// the worker's capacity rather than on its slides (make bench's
	// render-x leaves both out).
	Stalled time.Duration `json:"stalledNs,omitempty"`
}

// PictureInput asks for the before and after pictures of an edit's
// report page (report.Picture): OriginRef and FinalRef are the edit's
// origin and exported snapshots, DrawnRef the kept iteration's judged
// snapshot when it differs from FinalRef (its pictures stand for the
// final's). It is EditWorkflow's last step, after the loop.
type PictureInput struct {
	OriginRef string `json:"originRef"`
	FinalRef  string `json:"finalRef"`
	DrawnRef  string `json:"drawnRef,omitempty"`
}

// PictureOutput counts the slides pictured now and those an earlier
// render had kept; Stalled is as in RenderOutput.
type PictureOutput struct {
	Rendered    int           `json:"rendered"`
	Kept        int           `json:"kept"`
	Stalled     time.Duration `json:"stalledNs,omitempty"`
	NotRendered bool          `json:"notRendered,omitempty"`
}

// JudgeInput asks for the IF (and optionally VQ) verdict on an edit.
type JudgeInput struct {
	Instruction string `json:"instruction"`
	DiffTextRef string `json:"diffTextRef,omitempty"`
	// Images of the changed slides; the IF judge gets them only when
	// TouchesVisual (ACE App. E), the VQ judge always.
	Images        []SlideImage `json:"images,omitempty"`
	TouchesVisual bool         `json:"touchesVisual,omitempty"`
	VQ            bool         `json:"vq,omitempty"`
	// Account is the agent's account of its edit (IterationRecord.Account).
	Account string `json:"account,omitempty"`
}

// JudgeOutput holds the verdicts. Skipped when no judge model is
// configured or the edit is a pure recipe: the gate alone decides
// (DESIGN.md §6). A judge outage sets IF.Missing and IF.Problem.
type JudgeOutput struct {
	IF      judge.Verdict  `json:"if"`
	VQ      *judge.Verdict `json:"vq,omitempty"`
	Skipped bool           `json:"skipped,omitempty"`
}

// CheckInput evaluates a recipe's expectations on the kept snapshot.
type CheckInput struct {
	RecipeRef  string `json:"recipeRef"`
	RecipePath string `json:"recipePath,omitempty"`
	DeckRef    string `json:"deckRef"`
	// Gate is what the render step found for the kept iteration.
	Gate recipe.GateResult `json:"gate"`
}

// CheckOutput lists the expectations that failed.
type CheckOutput struct {
	Failures     []recipe.Failure `json:"failures,omitempty"`
	Expectations int              `json:"expectations"`
}

// ExportInput writes snapshot DeckRef as a file: Format is pptx or json;
// empty means the origin's import format.
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
