package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tools"
)

// Renderer is the part of *render.Pool the Render step uses.
type Renderer interface {
	Render(ctx context.Context, d *scenegraph.Deck, assets scenegraph.AssetSource, req render.Request) (*render.Result, error)
}

// Steps holds the clients the loop's steps need. Every field but Store may
// be nil: without LLM (or without a model configured) routing uses the
// heuristic, Act fails with llm.ErrNoModel and the judge is skipped; without
// Renderer the gate is not evaluated (recorded as not rendered).
type Steps struct {
	Store    store.Store
	LLM      *llm.Client
	Renderer Renderer
	// Tools configures tools.Apply (asset provider, focus).
	Tools tools.Options
	// Toolbox overrides the agent's toolbox (default: the 98-tool registry
	// with Tools as options).
	Toolbox agent.Toolbox
	// MaxTokens per agent completion (0 = agent.DefaultMaxTokens).
	MaxTokens int
	// Cache holds routing decisions and routed contexts (route.RouteCached,
	// route.ContextCached), keyed by the snapshot ref (its content hash),
	// the instruction and route.SerializerVersion: Redis shared by every
	// worker when ACE_REDIS_URL is set, else in-process (cache.New). nil
	// means no caching. A cache failure is a miss (package cache), never an
	// error of the step.
	Cache cache.Cache

	once sync.Once
	box  agent.Toolbox
}

func (s *Steps) toolbox() agent.Toolbox {
	s.once.Do(func() {
		s.box = s.Toolbox
		if s.box == nil {
			s.box = agent.NewRegistry(s.toolOptions())
		}
	})
	return s.box
}

// toolOptions is s.Tools with, when a renderer is set and the options do
// not bring their own, measurement through the renderer (layout tools that
// look for free space, add_footer, then see text that overflows its box)
// and slide pictures for export_slide_image and footer colours. Act and Apply use the
// same options, so replaying a batch gives the same snapshot.
func (s *Steps) toolOptions() tools.Options {
	o := s.Tools
	if s.Renderer != nil {
		ctx := context.Background()
		if o.Measure == nil {
			o.Measure = render.MeasureFunc(ctx, s.Renderer, store.Assets(ctx, s.Store))
		}
		if o.Backdrop == nil { // add_footer's colour from the painted slide
			o.Backdrop = render.BackdropFunc(ctx, s.Renderer, store.Assets(ctx, s.Store))
		}
		if o.Renderer == nil { // export_slide_image returns a real PNG
			o.Renderer = render.SlidePNG{Ctx: ctx, Renderer: s.Renderer, Assets: store.Assets(ctx, s.Store)}
		}
	}
	return o
}

func (s *Steps) deck(ctx context.Context, ref string) (*scenegraph.Deck, error) {
	d, err := store.GetDeck(ctx, s.Store, ref)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", ref, err)
	}
	return d, nil
}

// RouteInput asks CARE for the context slice of an instruction.
type RouteInput struct {
	DeckRef     string `json:"deckRef"`
	Instruction string `json:"instruction"`
}

// RouteOutput is the routing decision and the router model's calls (none
// when Cached: the decision came from Steps.Cache).
type RouteOutput struct {
	Decision route.Decision `json:"decision"`
	LLM      []llm.Call     `json:"llm,omitempty"`
	Cached   bool           `json:"cached,omitempty"`
}

// Route runs the CARE router: the model router when a router model is
// configured (it falls back to the heuristic per field), else the heuristic.
// With Steps.Cache set, a decision for the same snapshot and instruction
// comes from the cache (route.RouteCached: separate keys for model and
// heuristic routing; a model failure's heuristic fallback is not cached).
func (s *Steps) Route(ctx context.Context, in RouteInput) (RouteOutput, error) {
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return RouteOutput{}, err
	}
	if !s.LLM.HasModel(llm.RoleRouter) {
		dec, hit := route.RouteCached(ctx, s.Cache, in.DeckRef, in.Instruction, d, nil)
		return RouteOutput{Decision: dec, Cached: hit}, nil
	}
	cl := &llm.Classifier{Client: s.LLM}
	dec, hit := route.RouteCached(ctx, s.Cache, in.DeckRef, in.Instruction, d, cl)
	return RouteOutput{Decision: dec, LLM: cl.Calls(), Cached: hit}, nil
}

// ActInput is one act step on snapshot DeckRef.
type ActInput struct {
	DeckRef     string         `json:"deckRef"`
	Instruction string         `json:"instruction"`
	Feedback    string         `json:"feedback,omitempty"` // wrapped critique; empty on iteration 1
	Route       route.Decision `json:"route"`
	// MaxTurns is the task's remaining agent-turn budget (0 = default 35).
	MaxTurns int `json:"maxTurns,omitempty"`
	// RecipeRef is the store ref of a recipe's YAML: the act step compiles
	// it against the snapshot (no model), then, when the recipe has
	// instruction steps and a model is configured, the agent carries them
	// out. RecipePath names it in errors and anchors its asset directory.
	RecipeRef  string `json:"recipeRef,omitempty"`
	RecipePath string `json:"recipePath,omitempty"`
}

// ActOutput is what the agent did: the calls that applied, in order, and
// the snapshot of its working copy (Apply replays Calls on DeckRef to the
// same snapshot).
type ActOutput struct {
	Calls   []agent.Call      `json:"calls"`
	DeckRef string            `json:"deckRef"`
	Turns   int               `json:"turns"`
	Errors  []agent.ToolError `json:"toolErrors,omitempty"`
	LLM     []llm.Call        `json:"llm"`
	Stopped string            `json:"stopped"`
	Summary string            `json:"summary,omitempty"`
	Context int               `json:"contextBytes"` // size of the routed context sent
	// ContextCached says the routed context came from Steps.Cache.
	ContextCached bool   `json:"contextCached,omitempty"`
	Mode          string `json:"mode"`
	// Recipe only: the asset directory Apply must use, the compiler's
	// warnings and the instruction steps handed to the agent.
	AssetDir     string   `json:"assetDir,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`
	Instructions []string `json:"instructions,omitempty"`
}

// Act serialises the routed context of the current snapshot (from
// Steps.Cache when it holds it for this snapshot, mode and targets) and runs
// the design agent. The error wraps llm.ErrNoModel when no agent model is
// configured and llm.ErrContextLength when the prompt does not fit.
func (s *Steps) Act(ctx context.Context, in ActInput) (ActOutput, error) {
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return ActOutput{}, err
	}
	if in.RecipeRef != "" {
		return s.actRecipe(ctx, d, in)
	}
	text, hit, err := route.ContextCached(ctx, s.Cache, in.DeckRef, d, in.Route)
	if err != nil {
		return ActOutput{}, fmt.Errorf("routed context (%s): %w", in.Route.Mode, err)
	}
	ag := &agent.Agent{LLM: s.LLM, Tools: s.toolbox(), MaxTokens: s.MaxTokens}
	res, err := ag.Act(ctx, agent.Input{Deck: d, Mode: string(in.Route.Mode), Context: text,
		Instruction: in.Instruction, Feedback: in.Feedback, MaxTurns: in.MaxTurns})
	out := ActOutput{DeckRef: in.DeckRef, Context: len(text), ContextCached: hit, Mode: string(in.Route.Mode)}
	if res != nil {
		out.Calls, out.Turns, out.Errors, out.LLM, out.Stopped, out.Summary = res.Calls, res.Turns, res.Errors, res.LLM, res.Stopped, res.Summary
	}
	if err != nil {
		return out, err
	}
	if len(res.Calls) > 0 {
		if out.DeckRef, err = store.PutDeck(ctx, s.Store, res.Deck); err != nil {
			return out, fmt.Errorf("store the agent's snapshot: %w", err)
		}
	}
	return out, nil
}

// ApplyInput replays tool calls on a snapshot.
type ApplyInput struct {
	DeckRef string       `json:"deckRef"`
	Calls   []agent.Call `json:"calls"`
	// AssetDir is a recipe's image library (ActOutput.AssetDir).
	AssetDir string `json:"assetDir,omitempty"`
}

// ApplyOutput is the new snapshot.
type ApplyOutput struct {
	DeckRef string `json:"deckRef"`
	Applied int    `json:"applied"`
}

// Apply runs the calls in order on the snapshot as one atomic commit
// (tools.Apply) and stores the result and any images the calls added. It
// is pure and idempotent: the same input gives the same snapshot ref.
func (s *Steps) Apply(ctx context.Context, in ApplyInput) (ApplyOutput, error) {
	if len(in.Calls) == 0 {
		return ApplyOutput{DeckRef: in.DeckRef}, nil
	}
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return ApplyOutput{}, err
	}
	opts := (&recipe.Recipe{AssetDir: in.AssetDir}).ToolOptions(s.toolOptions())
	opts.Blobs = scenegraph.Blobs{}
	next, results, err := tools.Apply(d, agent.ToolCalls(in.Calls), opts)
	if err != nil {
		return ApplyOutput{DeckRef: in.DeckRef}, fmt.Errorf("apply %d calls to %s: %w", len(in.Calls), in.DeckRef, err)
	}
	if err := store.PutBlobs(ctx, s.Store, opts.Blobs); err != nil {
		return ApplyOutput{}, fmt.Errorf("store images: %w", err)
	}
	ref, err := store.PutDeck(ctx, s.Store, next)
	if err != nil {
		return ApplyOutput{}, fmt.Errorf("store snapshot: %w", err)
	}
	return ApplyOutput{DeckRef: ref, Applied: len(results)}, nil
}

// RenderInput renders some slides of a snapshot.
type RenderInput struct {
	DeckRef string `json:"deckRef"`
	// SlideIDs to render; nil renders every slide. Ids not in the deck are
	// skipped.
	SlideIDs []string `json:"slideIds,omitempty"`
	// Images stores a PNG per rendered slide.
	Images bool `json:"images,omitempty"`
}

// SlideImage is a rendered slide PNG in the store.
type SlideImage struct {
	SlideID string `json:"slideId"`
	Ref     string `json:"ref"`
}

// RenderOutput holds the measured violations and PNG refs.
type RenderOutput struct {
	Violations []render.Violation `json:"violations,omitempty"`
	Images     []SlideImage       `json:"images,omitempty"`
	Rendered   int                `json:"rendered"`
}

// ErrNoRenderer is returned by Render when Steps has no renderer.
var ErrNoRenderer = errors.New("no renderer configured")

// Render lays out the slides in Chromium and reports violations and PNGs.
func (s *Steps) Render(ctx context.Context, in RenderInput) (RenderOutput, error) {
	if s.Renderer == nil {
		return RenderOutput{}, ErrNoRenderer
	}
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return RenderOutput{}, err
	}
	var idx []int
	if in.SlideIDs == nil {
		for i := range d.Slides {
			idx = append(idx, i)
		}
	} else {
		for _, id := range in.SlideIDs {
			if _, i := d.SlideByID(id); i >= 0 {
				idx = append(idx, i)
			}
		}
	}
	if len(idx) == 0 {
		return RenderOutput{}, nil
	}
	sort.Ints(idx)
	res, err := s.Renderer.Render(ctx, d, store.Assets(ctx, s.Store), render.Request{Slides: idx, Images: in.Images})
	if err != nil {
		return RenderOutput{}, fmt.Errorf("render %s: %w", in.DeckRef, err)
	}
	out := RenderOutput{Violations: res.Violations, Rendered: len(res.Slides)}
	for _, sl := range res.Slides {
		if len(sl.PNG) == 0 {
			continue
		}
		ref, err := s.Store.Put(ctx, sl.PNG)
		if err != nil {
			return out, fmt.Errorf("store slide image: %w", err)
		}
		out.Images = append(out.Images, SlideImage{SlideID: sl.SlideID, Ref: ref})
	}
	return out, nil
}

// DiffInput compares the origin with the current snapshot.
type DiffInput struct {
	OriginRef string `json:"originRef"`
	DeckRef   string `json:"deckRef"`
}

// DiffOutput is JsonDiff's summary, its text for the judge and the slides
// it touches.
type DiffOutput struct {
	Text          string  `json:"text"`
	Distinct      int     `json:"distinct"`
	Score         float64 `json:"score"`
	Empty         bool    `json:"empty"`
	TouchesVisual bool    `json:"touchesVisual,omitempty"`
	// ChangedSlides are the ids of slides whose content changed
	// (scenegraph.ChangedSlides: current deck order, then removed ones).
	// AllSlides is set when every slide may look different (the design
	// tokens changed).
	ChangedSlides []string `json:"changedSlides,omitempty"`
	AllSlides     bool     `json:"allSlides,omitempty"`
}

// Diff computes JsonDiff of origin vs current (ACE App. E).
func (s *Steps) Diff(ctx context.Context, in DiffInput) (DiffOutput, error) {
	origin, err := s.deck(ctx, in.OriginRef)
	if err != nil {
		return DiffOutput{}, err
	}
	cur, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return DiffOutput{}, err
	}
	d := diff.Compute(origin, cur)
	out := DiffOutput{Text: d.Text(origin), Distinct: d.Distinct, Score: d.Score, Empty: d.Empty(), TouchesVisual: d.TouchesVisual}
	// Exact, unlike the capped and tolerant JsonDiff: every slide whose
	// subtree digest changed, then removed slides.
	out.ChangedSlides = changedSlides(origin, cur)
	ot, _ := json.Marshal(origin.Tokens)
	ct, _ := json.Marshal(cur.Tokens)
	out.AllSlides = string(ot) != string(ct)
	return out, nil
}

// JudgeInput asks for the IF (and optionally VQ) verdict on an edit.
type JudgeInput struct {
	Instruction string `json:"instruction"`
	DiffText    string `json:"diffText"`
	// Images of the changed slides; the IF judge gets them only when
	// TouchesVisual (ACE App. E), the VQ judge always.
	Images        []SlideImage `json:"images,omitempty"`
	TouchesVisual bool         `json:"touchesVisual,omitempty"`
	VQ            bool         `json:"vq,omitempty"`
}

// JudgeOutput holds the verdicts. Skipped when no judge model is
// configured: the geometry gate alone decides (DESIGN.md §6).
type JudgeOutput struct {
	IF      judge.Verdict  `json:"if"`
	VQ      *judge.Verdict `json:"vq,omitempty"`
	Skipped bool           `json:"skipped,omitempty"`
}

// Judge runs the IF judge and, when asked, the VQ judge. A VQ failure is
// recorded in its verdict, never returned: VQ is never a stopping signal.
func (s *Steps) Judge(ctx context.Context, in JudgeInput) (JudgeOutput, error) {
	if !s.LLM.HasModel(llm.RoleJudge) || strings.TrimSpace(in.Instruction) == "" {
		// No judge model, or a pure recipe (its expectations judge it).
		return JudgeOutput{Skipped: true}, nil
	}
	var imgs []judge.Image
	for _, im := range in.Images {
		png, err := s.Store.Get(ctx, im.Ref)
		if err != nil {
			return JudgeOutput{}, fmt.Errorf("slide image %s: %w", im.Ref, err)
		}
		imgs = append(imgs, judge.Image{SlideID: im.SlideID, PNG: png})
	}
	j := &judge.Judge{LLM: s.LLM}
	ifIn := judge.IFInput{Instruction: in.Instruction, Diff: in.DiffText}
	if in.TouchesVisual {
		ifIn.Images = imgs
	}
	var out JudgeOutput
	v, err := j.IF(ctx, ifIn)
	out.IF = v
	if err != nil {
		return out, fmt.Errorf("IF judge: %w", err)
	}
	if in.VQ {
		vq, err := j.VQ(ctx, judge.VQInput{Images: imgs})
		if err != nil {
			vq.Missing, vq.Problem = true, err.Error()
		}
		out.VQ = &vq
	}
	return out, nil
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// changedSlides lists the slides whose subtree digest differs (current
// deck order), then the removed ones (origin order).
func changedSlides(origin, cur *scenegraph.Deck) []string {
	before := make(map[string]string, len(origin.Slides))
	for _, sl := range origin.Slides {
		before[sl.ID] = scenegraph.NodeDigest(sl)
	}
	var out []string
	kept := map[string]bool{}
	for _, sl := range cur.Slides {
		kept[sl.ID] = true
		if d, ok := before[sl.ID]; !ok || d != scenegraph.NodeDigest(sl) {
			out = append(out, sl.ID)
		}
	}
	for _, sl := range origin.Slides {
		if !kept[sl.ID] {
			out = append(out, sl.ID)
		}
	}
	return out
}
