package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/critic"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/report"
	"github.com/acecanvas/ace/internal/retrieval"
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
	// Toolbox overrides the agent's toolbox (default: the 100-tool registry
	// with Tools as options).
	Toolbox agent.Toolbox
	// MaxTokens per agent completion (0 = agent.DefaultMaxTokens).
	MaxTokens int
	// ContextBudget bounds the routed context in o200k tokens
	// (route.Bounded; 0 = ACE_CONTEXT_BUDGET, else 32,000).
	ContextBudget int
	// Beat, when set, is told how many slides RenderSlides has rendered so
	// far (the render activity heartbeats with it).
	Beat func(ctx context.Context, slides int)
	// Progress, when set, is told as each step of an in-process run (Run)
	// begins: what ace edit shows while it works (issue 20). The workflow
	// form reports through its events instead.
	Progress func(Progress)
	// Cache holds routing decisions and routed contexts (route.RouteCached,
	// route.ContextCached), keyed by the snapshot ref (its content hash),
	// the instruction and route.SerializerVersion: Redis shared by every
	// worker when ACE_REDIS_URL is set, else in-process (cache.New). nil
	// means no caching. A cache failure is a miss (package cache), never an
	// error of the step.
	Cache cache.Cache
	// Skills is the skill bank (*skills.Bank): Route retrieves from its
	// offered skills when a request has skills on, RecordTurn writes turn
	// records to it. nil: an edit with skills on fails at Route, saying
	// so.
	Skills SkillBank

	once sync.Once
	box  agent.Toolbox

	// digests memoises slideDigests by snapshot ref.
	digestMu sync.Mutex
	digests  map[string]map[string]string

	// decks memoises decoded snapshots by ref (see deck); deckBytes is
	// the encoded size of those held, deckOrder their refs, oldest first.
	deckMu    sync.Mutex
	decks     map[string]memoDeck
	deckOrder []string
	deckBytes int
}

// memoDeck is one decoded snapshot and its encoded size in bytes.
type memoDeck struct {
	d    *scenegraph.Deck
	size int
}

// maxDeckMemoBytes bounds the decoded snapshots Steps keeps, by the size
// of their JSON (64 MiB: the baseline and working copies of a few
// iterations of a 40-slide deck; a 1,000-slide deck's snapshots pass
// through without evicting the rest more than needed).
const maxDeckMemoBytes = 64 << 20

// maxDigestSnapshots bounds Steps.digests: an iteration's step loop needs
// its baseline and the last two working copies.
const maxDigestSnapshots = 16

// slideDigests returns each slide's subtree digest (scenegraph.NodeDigest)
// of the snapshot d stored at ref, by slide id. A ref is the hash of its
// content, so the digests of a ref never change: the step loop's
// observation, which compares the working copy with the iteration's
// baseline and the previous step after every step, computes each
// snapshot's once.
func (s *Steps) slideDigests(ref string, d *scenegraph.Deck) map[string]string {
	s.digestMu.Lock()
	m, ok := s.digests[ref]
	s.digestMu.Unlock()
	if ok {
		return m
	}
	m = make(map[string]string, len(d.Slides))
	for _, sl := range d.Slides {
		m[sl.ID] = scenegraph.NodeDigest(sl)
	}
	s.digestMu.Lock()
	if s.digests == nil || len(s.digests) >= maxDigestSnapshots {
		s.digests = map[string]map[string]string{}
	}
	s.digests[ref] = m
	s.digestMu.Unlock()
	return m
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
// look for free space, add_footer, then see text that overflows its box),
// slide pictures for export_slide_image, footer colours, the backdrop
// under text for fix_text_contrast and the fitted scale of edited
// shrink-on-overflow text. Act and Apply use the
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
		if o.TextBackdrop == nil { // fix_text_contrast on what is under the glyphs
			o.TextBackdrop = render.TextBackdropFunc(ctx, s.Renderer, store.Assets(ctx, s.Store))
		}
		if o.FitText == nil { // edited normAutofit text gets the scale it is drawn at
			o.FitText = render.FitTextFunc(ctx, s.Renderer, store.Assets(ctx, s.Store))
		}
		if o.Renderer == nil { // export_slide_image returns a real PNG
			o.Renderer = render.SlidePNG{Ctx: ctx, Renderer: s.Renderer, Assets: store.Assets(ctx, s.Store)}
		}
	}
	return o
}

// A ref is the hash of its content, so its deck never changes: decoded
// snapshots are memoised (at most maxDeckMemoBytes of their JSON, oldest
// out first) and each call gets its own deep copy (scenegraph.Deck.Clone,
// several times cheaper than decoding and validating the JSON again: one
// agent step reads its baseline, working copy and previous copy). Only
// decoded decks are memoised, so a deck is always what the store's bytes
// decode to.
func (s *Steps) deck(ctx context.Context, ref string) (*scenegraph.Deck, error) {
	s.deckMu.Lock()
	m, ok := s.decks[ref]
	s.deckMu.Unlock()
	if ok {
		return m.d.Clone(), nil
	}
	b, err := s.Store.Get(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", ref, err)
	}
	d, err := scenegraph.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", ref, err)
	}
	if len(b) <= maxDeckMemoBytes/2 {
		s.deckMu.Lock()
		if _, ok := s.decks[ref]; !ok {
			if s.decks == nil {
				s.decks = map[string]memoDeck{}
			}
			for s.deckBytes+len(b) > maxDeckMemoBytes && len(s.deckOrder) > 0 {
				old := s.deckOrder[0]
				s.deckOrder = s.deckOrder[1:]
				s.deckBytes -= s.decks[old].size
				delete(s.decks, old)
			}
			s.decks[ref] = memoDeck{d: d.Clone(), size: len(b)}
			s.deckOrder = append(s.deckOrder, ref)
			s.deckBytes += len(b)
		}
		s.deckMu.Unlock()
	}
	return d, nil
}

// Route runs the CARE router (ACE §3.2) and resolves what the agent works
// on: the instruction, or a recipe's instruction steps when an agent model
// is configured; a pure recipe needs no routing. The model router runs
// when a router model is configured (it falls back to the heuristic per
// field), else the heuristic. With Steps.Cache set, a decision for the
// same snapshot and instruction comes from the cache (route.RouteCached:
// separate keys for model and heuristic routing; a model failure's
// heuristic fallback is not cached). in.Mode, when set, fixes the mode:
// the heuristic picks the targets and no router model is called
// (editloop.Request.ContextMode). Errors: a recipe that does not parse
// (*recipe.Error), a natural-language edit without a model (wraps
// llm.ErrNoModel), an empty instruction, a snapshot that cannot be read.
// Its warnings are the deck's unreadable pictures, whatever the route.
func (s *Steps) Route(ctx context.Context, in editloop.RouteInput) (editloop.RouteOutput, error) {
	out, err := s.route(ctx, in)
	if err != nil || !in.Skills || strings.TrimSpace(out.AgentInstruction) == "" {
		return out, err
	}
	res, calls, err := s.retrieve(ctx, out.AgentInstruction)
	out.LLM = append(out.LLM, calls...)
	if err != nil {
		return out, err
	}
	out.Skills = &res
	return out, nil
}

// route is Route without the skills.
func (s *Steps) route(ctx context.Context, in editloop.RouteInput) (editloop.RouteOutput, error) {
	var out editloop.RouteOutput
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return out, err
	}
	out.Warnings = d.PictureWarnings()
	x := in.Instruction
	hasModel := s.LLM.HasModel(llm.RoleAgent)
	switch {
	case in.RecipeRef != "":
		r, err := s.loadRecipe(ctx, in.RecipeRef, in.RecipePath)
		if err != nil {
			return out, err
		}
		out.Recipe, out.Expectations, out.Gate = r.Name, len(r.Expect), r.Gate
		if x == "" && hasModel {
			x = strings.Join(recipeInstructions(r), "\n")
		}
	case !hasModel:
		_, err := s.LLM.Model(llm.RoleAgent)
		return out, fmt.Errorf("a natural-language edit needs a model: %w", err)
	case strings.TrimSpace(x) == "":
		return out, errors.New("no instruction and no recipe: nothing to do")
	}
	out.AgentInstruction = x
	if x == "" {
		out.Decision = route.Decision{Mode: route.Off, Source: "recipe", Reason: "a recipe compiles to tool calls; no agent step"}
		return out, nil
	}
	if in.Mode != "" {
		// A fixed mode (an ablation): the heuristic's targets, the
		// request's mode, no router call.
		out.Decision, out.Cached = route.RouteCached(ctx, s.Cache, in.DeckRef, x, d, nil)
		out.Decision.Mode, out.Decision.Source = in.Mode, "request"
		out.Decision.Reason = fmt.Sprintf("context mode %s fixed by the request; target slides from the heuristic", in.Mode)
		return out, nil
	}
	if !s.LLM.HasModel(llm.RoleRouter) {
		out.Decision, out.Cached = route.RouteCached(ctx, s.Cache, in.DeckRef, x, d, nil)
		return out, nil
	}
	cl := &llm.Classifier{Client: s.LLM}
	out.Decision, out.Cached = route.RouteCached(ctx, s.Cache, in.DeckRef, x, d, cl)
	out.LLM = cl.Calls()
	return out, nil
}

// Act compiles the recipe under in.RecipeRef against the snapshot (one
// batch of tool calls, no model) and stores the calls as JSON (CallsRef)
// and the deck they give as a snapshot. The error is *recipe.Error when
// the recipe does not compile.
func (s *Steps) Act(ctx context.Context, in editloop.ActInput) (editloop.ActOutput, error) {
	out := editloop.ActOutput{DeckRef: in.DeckRef}
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return out, err
	}
	r, err := s.loadRecipe(ctx, in.RecipeRef, in.RecipePath)
	if err != nil {
		return out, err
	}
	plan, err := recipe.Compile(r, d, recipe.Options{Tools: r.ToolOptions(s.toolOptions()), HaveModel: s.LLM.HasModel(llm.RoleAgent)})
	if err != nil {
		return out, err
	}
	out.Warnings, out.AssetDir, out.Calls = plan.Warnings, r.AssetDir, len(plan.Calls)
	if len(plan.Calls) == 0 {
		return out, nil
	}
	if out.CallsRef, err = s.putCalls(ctx, agent.FromToolCalls(plan.Calls)); err != nil {
		return out, err
	}
	if out.DeckRef, err = store.PutDeck(ctx, s.Store, plan.Result); err != nil {
		return out, fmt.Errorf("store the recipe's snapshot: %w", err)
	}
	return out, nil
}

// AgentTurn is one model turn of an iteration's step loop: on the first
// turn it starts the conversation from the routed context of in.DeckRef
// (from Steps.Cache when it holds it), the instruction and the feedback;
// later turns load it from in.SessionRef and hand the model the previous
// step's results. The conversation with the model's answer is stored
// again (SessionRef). The error wraps llm.ErrNoModel when no agent model
// is configured and llm.ErrContextLength when the prompt does not fit.
func (s *Steps) AgentTurn(ctx context.Context, in editloop.TurnInput) (editloop.TurnOutput, error) {
	var out editloop.TurnOutput
	var ses *agent.Session
	if in.SessionRef == "" {
		d, err := s.deck(ctx, in.DeckRef)
		if err != nil {
			return out, err
		}
		budget := s.ContextBudget
		if budget <= 0 {
			if budget, err = route.ContextBudgetFromEnv(); err != nil {
				return out, err
			}
		}
		rc, hit, err := route.ContextCached(ctx, s.Cache, in.DeckRef, d, in.Route, budget)
		if err != nil {
			return out, fmt.Errorf("routed context (%s): %w", in.Route.Mode, err)
		}
		text := rc.Text
		if rc.Note != "" {
			text = rc.Note + "\n" + text
		}
		out.Mode, out.ContextBytes, out.ContextCached, out.ContextNote = string(rc.Used.Mode), len(text), hit, rc.Note
		catalog := ""
		if in.SkillsRef != "" {
			set, err := s.skillSet(ctx, in.SkillsRef)
			if err != nil {
				return out, err
			}
			catalog = retrieval.Catalog(set.Skills, in.Starred, 0)
		}
		ses = agent.NewSession(agent.Input{Deck: d, Mode: string(rc.Used.Mode), Context: text,
			Instruction: in.Instruction, Feedback: in.Feedback, Skills: catalog})
	} else {
		data, err := s.Store.Get(ctx, in.SessionRef)
		if err != nil {
			return out, fmt.Errorf("agent session %s: %w", in.SessionRef, err)
		}
		ses = &agent.Session{}
		if err := json.Unmarshal(data, ses); err != nil {
			return out, fmt.Errorf("agent session %s: %w", in.SessionRef, err)
		}
	}
	ag := &agent.Agent{LLM: s.LLM, Tools: s.toolbox(), MaxTokens: s.MaxTokens}
	round, call, err := ag.Turn(ctx, ses, in.Results, in.Note)
	out.LLM = []llm.Call{call}
	if err != nil {
		return out, err
	}
	out.Round = round
	data, err := json.Marshal(ses)
	if err != nil {
		return out, err
	}
	if out.SessionRef, err = s.Store.Put(ctx, data); err != nil {
		return out, fmt.Errorf("store the agent session: %w", err)
	}
	return out, nil
}

// ApplyRound applies a turn's deck calls to the working copy
// (agent.ApplyRound: each with every call since the base, a failing call
// reported to the model and left out) and stores the new working copy
// and the calls.
func (s *Steps) ApplyRound(ctx context.Context, in editloop.RoundInput) (editloop.RoundOutput, error) {
	out := editloop.RoundOutput{DeckRef: in.DeckRef, CallsRef: in.CallsRef}
	base, err := s.deck(ctx, in.BaseRef)
	if err != nil {
		return out, err
	}
	cur, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return out, err
	}
	prior, err := s.getCalls(ctx, in.CallsRef)
	if err != nil {
		return out, err
	}
	box := s.toolbox()
	if in.AssetDir != "" { // a recipe's image library
		box = agent.NewRegistry((&recipe.Recipe{AssetDir: in.AssetDir}).ToolOptions(s.toolOptions()))
	}
	var book agent.SkillBook
	if in.SkillsRef != "" {
		set, err := s.skillSet(ctx, in.SkillsRef)
		if err != nil {
			return out, err
		}
		book = set
	}
	r := agent.ApplyRoundSkills(box, base, prior, cur, in.Round, book)
	out.Results, out.Errors, out.Changed, out.Calls, out.Loaded = r.Results, r.Errors, r.Changed, len(r.Calls), r.Loaded
	if len(r.Calls) == len(prior) {
		return out, nil
	}
	if out.CallsRef, err = s.putCalls(ctx, r.Calls); err != nil {
		return out, err
	}
	if out.DeckRef, err = store.PutDeck(ctx, s.Store, r.Deck); err != nil {
		return out, fmt.Errorf("store the working copy: %w", err)
	}
	return out, nil
}

// Observe renders the slides of in.DeckRef changed since in.BaselineRef
// (or in.Slides) and the same slides of the baseline, and builds the
// observation (observe.Build); the renderer's memo serves slides measured
// before. Without a renderer nothing is measured: the observation says
// so and the gate passes unevaluated (as the Render step records it).
func (s *Steps) Observe(ctx context.Context, in editloop.ObserveInput) (observe.Observation, error) {
	if s.Renderer == nil {
		return observe.Observation{Passed: true, Text: "Layout not measured: this run has no renderer (--no-render), so there is no observation and the layout gate is not evaluated."}, nil
	}
	baseline, err := s.deck(ctx, in.BaselineRef)
	if err != nil {
		return observe.Observation{}, err
	}
	cur, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return observe.Observation{}, err
	}
	prev := cur
	if in.PrevRef != "" && in.PrevRef != in.DeckRef {
		if prev, err = s.deck(ctx, in.PrevRef); err != nil {
			return observe.Observation{}, err
		}
	}
	ids := in.Slides
	if ids == nil {
		// Every slide that differs from the baseline, and those this
		// step changed back to it (their violations resolve).
		dBase, dCur := s.slideDigests(in.BaselineRef, baseline), s.slideDigests(in.DeckRef, cur)
		dPrev := dCur
		if prev != cur {
			dPrev = s.slideDigests(in.PrevRef, prev)
		}
		ids = diffSlides(baseline, cur, dBase, dCur)
		for _, id := range diffSlides(prev, cur, dPrev, dCur) {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	assets := store.Assets(ctx, s.Store)
	measure := func(d *scenegraph.Deck) (*render.Result, error) {
		var idx []int
		for _, id := range ids {
			if _, i := d.SlideByID(id); i >= 0 {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return &render.Result{}, nil
		}
		sort.Ints(idx)
		return s.Renderer.Render(ctx, d, assets, render.Request{Slides: idx})
	}
	now, err := measure(cur)
	if err != nil {
		return observe.Observation{}, fmt.Errorf("render %s: %w", in.DeckRef, err)
	}
	before, err := measure(baseline)
	if err != nil {
		return observe.Observation{}, fmt.Errorf("render the baseline %s: %w", in.BaselineRef, err)
	}
	return observe.Build(observe.Input{Baseline: baseline, Prev: prev, Cur: cur, Current: now, Base: before, Title: in.Title, Waived: in.Waived, Asked: in.Slides != nil}), nil
}

// putCalls stores calls as JSON and returns the ref.
func (s *Steps) putCalls(ctx context.Context, calls []agent.Call) (string, error) {
	data, err := json.Marshal(calls)
	if err != nil {
		return "", err
	}
	ref, err := s.Store.Put(ctx, data)
	if err != nil {
		return "", fmt.Errorf("store the tool calls: %w", err)
	}
	return ref, nil
}

// getCalls loads the calls under ref ("" is none).
func (s *Steps) getCalls(ctx context.Context, ref string) ([]agent.Call, error) {
	if ref == "" {
		return nil, nil
	}
	data, err := s.Store.Get(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("tool calls %s: %w", ref, err)
	}
	var calls []agent.Call
	if err := json.Unmarshal(data, &calls); err != nil {
		return nil, fmt.Errorf("tool calls %s: %w", ref, err)
	}
	return calls, nil
}

// Apply replays the calls under CallsRef in order on the snapshot as one
// atomic commit (tools.Apply) and stores the result and any images the
// calls added. It is pure and idempotent: the same input gives the same
// snapshot ref. A result other than in.Expect (Act's working copy) is an
// error: a tool is not deterministic.
func (s *Steps) Apply(ctx context.Context, in editloop.ApplyInput) (editloop.ApplyOutput, error) {
	if in.CallsRef == "" {
		return editloop.ApplyOutput{DeckRef: in.DeckRef}, nil
	}
	calls, err := s.getCalls(ctx, in.CallsRef)
	if err != nil {
		return editloop.ApplyOutput{}, err
	}
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return editloop.ApplyOutput{}, err
	}
	opts := (&recipe.Recipe{AssetDir: in.AssetDir}).ToolOptions(s.toolOptions())
	opts.Blobs = scenegraph.Blobs{}
	next, results, err := tools.Apply(d, agent.ToolCalls(calls), opts)
	if err != nil {
		return editloop.ApplyOutput{DeckRef: in.DeckRef}, fmt.Errorf("apply %d calls to %s: %w", len(calls), in.DeckRef, err)
	}
	if err := store.PutBlobs(ctx, s.Store, opts.Blobs); err != nil {
		return editloop.ApplyOutput{}, fmt.Errorf("store images: %w", err)
	}
	ref, err := store.PutDeck(ctx, s.Store, next)
	if err != nil {
		return editloop.ApplyOutput{}, fmt.Errorf("store snapshot: %w", err)
	}
	if in.Expect != "" && ref != in.Expect {
		return editloop.ApplyOutput{}, fmt.Errorf("%w: replaying the agent's %d calls gave snapshot %s, its working copy was %s", ErrNotDeterministic, len(calls), ref, in.Expect)
	}
	return editloop.ApplyOutput{DeckRef: ref, Applied: len(results)}, nil
}

// ErrNotDeterministic is Apply's error when replaying calls does not
// reproduce the agent's working copy (a tool depends on something outside
// its input). It is never retried: a replay gives the same result again.
var ErrNotDeterministic = errors.New("a tool is not deterministic")

// renderChunk is how many slides one renderer call measures; Steps.Beat
// is told after each chunk, so a long render keeps its activity alive.
const renderChunk = 8

// Render lays out the slides of the new snapshot and of the origin in
// Chromium (each deck decoded once, slides in chunks with a Beat after
// each) and evaluates the hard geometry gate: judge.Gate, no violation the
// origin did not have on the same slides (ReDeck). Without a renderer it
// returns NotRendered (the gate was not evaluated).
//
// When the gate fails, the slides that hold it are listed (Blocked), each
// with this render's PNG of it (rendered with the PNG now when the render
// above was without pictures). With in.PerSlide (a recipe's gate:
// per_slide) those slides are put back as they are in the origin
// (revertSlides), the result is stored (DeckRef), the put-back slides are
// rendered again in it, and the gate is evaluated anew on the result: the
// other slides are unchanged nodes in an unchanged deck, so their
// measurement stands.
//
// When the gate passes, the judged snapshot with the geometry this render
// decided written back (render.WriteMeasured: text that hugs its content
// and auto-layout frames at their drawn size) is stored as Measured, the
// deck the edit exports if the iteration is kept.
func (s *Steps) Render(ctx context.Context, in editloop.RenderInput) (editloop.RenderOutput, error) {
	if s.Renderer == nil {
		return editloop.RenderOutput{GatePassed: true, NotRendered: true}, nil
	}
	cur, err := s.RenderSlides(ctx, in.DeckRef, in.SlideIDs, in.Images, 0)
	if err != nil {
		return editloop.RenderOutput{}, err
	}
	orig, err := s.RenderSlides(ctx, in.OriginRef, in.SlideIDs, false, cur.Slides)
	if err != nil {
		return editloop.RenderOutput{}, fmt.Errorf("origin: %w", err)
	}
	out, fresh := gateOf(cur, orig, in.Waived)
	if out.GatePassed {
		out.Measured, err = s.writeMeasured(ctx, in.DeckRef, in.OriginRef, cur.Measured)
		return out, err
	}
	attempt, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return out, err
	}
	if out.Blocked, err = s.blockedSlides(ctx, in.DeckRef, attempt, fresh, cur.Images); err != nil {
		return out, err
	}
	if !in.PerSlide {
		return out, nil
	}
	origin, err := s.deck(ctx, in.OriginRef)
	if err != nil {
		return out, err
	}
	var ids []string
	for _, b := range out.Blocked {
		ids = append(ids, b.SlideID)
	}
	next, err := revertSlides(attempt, origin, ids)
	if err != nil {
		return out, fmt.Errorf("per-slide gate: %w", err)
	}
	ref, err := store.PutDeck(ctx, s.Store, next)
	if err != nil {
		return out, fmt.Errorf("store the per-slide gate's snapshot: %w", err)
	}
	again, err := s.RenderSlides(ctx, ref, ids, in.Images, cur.Slides+orig.Slides)
	if err != nil {
		return out, fmt.Errorf("per-slide gate: %w", err)
	}
	// The render of the result: the kept slides' measurements, the
	// put-back slides' new ones.
	put := map[string]bool{}
	for _, id := range ids {
		put[id] = true
	}
	res := Rendered{Violations: again.Violations, Images: again.Images, Stalled: cur.Stalled + again.Stalled}
	for _, v := range cur.Violations {
		if !put[v.SlideID] {
			res.Violations = append(res.Violations, v)
		}
	}
	sort.Slice(res.Violations, func(i, j int) bool { return res.Violations[i].Key < res.Violations[j].Key })
	for _, im := range cur.Images {
		if !put[im.SlideID] {
			res.Images = append(res.Images, im)
		}
	}
	for _, id := range cur.IDs {
		if _, i := next.SlideByID(id); i >= 0 {
			res.IDs = append(res.IDs, id)
		}
	}
	res.Slides = len(res.IDs)
	for _, m := range cur.Measured {
		if !put[m.SlideID] {
			res.Measured = append(res.Measured, m)
		}
	}
	res.Measured = append(res.Measured, again.Measured...)
	blocked := out.Blocked
	out, _ = gateOf(res, orig, in.Waived)
	out.Blocked, out.DeckRef = blocked, ref
	if out.GatePassed {
		if out.Measured, err = s.writeMeasured(ctx, ref, in.OriginRef, res.Measured); err != nil {
			return out, err
		}
	}
	for _, b := range blocked {
		r := editloop.SlideRevert{SlideID: b.SlideID, Number: b.Number}
		for _, v := range b.Violations {
			r.Violations = append(r.Violations, judge.Describe(v))
		}
		out.Reverted = append(out.Reverted, r)
	}
	return out, nil
}

// writeMeasured stores snapshot ref with the geometry its render decided
// written back (render.WriteMeasured against the origin) and returns the
// new ref, or "" when nothing changed.
func (s *Steps) writeMeasured(ctx context.Context, ref, originRef string, slides []render.SlideResult) (string, error) {
	if len(slides) == 0 {
		return "", nil
	}
	d, err := s.deck(ctx, ref)
	if err != nil {
		return "", err
	}
	origin, err := s.deck(ctx, originRef)
	if err != nil {
		return "", err
	}
	if len(render.WriteMeasured(d, origin, slides)) == 0 {
		return "", nil
	}
	out, err := store.PutDeck(ctx, s.Store, d)
	if err != nil {
		return "", fmt.Errorf("store the measured snapshot: %w", err)
	}
	return out, nil
}

// gateOf is the gate's verdict on what cur measured against orig (the
// critic's waivers do not hold it) and the violations that fail it.
func gateOf(cur, orig Rendered, waived map[string]string) (editloop.RenderOutput, []render.Violation) {
	var counted []render.Violation
	for _, v := range cur.Violations {
		if _, ok := waived[v.Key]; !ok {
			counted = append(counted, v)
		}
	}
	ok, fresh := render.Gate(counted, orig.Violations)
	out := editloop.RenderOutput{Slides: cur.Slides, Violations: len(cur.Violations), GatePassed: ok,
		Images: cur.Images, Rendered: cur.IDs, Current: cur.Violations, Origin: orig.Violations,
		Stalled: cur.Stalled + orig.Stalled}
	for _, v := range fresh {
		out.NewViolations = append(out.NewViolations, judge.Describe(v))
	}
	return out, fresh
}

// blockedSlides groups the violations that failed the gate by slide (deck
// order) with a PNG of each slide of snapshot ref: from images when the
// render took them, else rendered now.
func (s *Steps) blockedSlides(ctx context.Context, ref string, d *scenegraph.Deck, fresh []render.Violation, images []editloop.SlideImage) ([]editloop.BlockedSlide, error) {
	bySlide := map[string][]render.Violation{}
	for _, v := range fresh {
		bySlide[v.SlideID] = append(bySlide[v.SlideID], v)
	}
	var out []editloop.BlockedSlide
	var missing []string
	png := map[string]string{}
	for _, im := range images {
		png[im.SlideID] = im.Ref
	}
	for i, sl := range d.Slides {
		if vs := bySlide[sl.ID]; len(vs) > 0 {
			out = append(out, editloop.BlockedSlide{SlideID: sl.ID, Number: i + 1, Image: png[sl.ID], Violations: vs})
			if png[sl.ID] == "" {
				missing = append(missing, sl.ID)
			}
		}
	}
	if len(missing) > 0 {
		shots, err := s.RenderSlides(ctx, ref, missing, true, 0)
		if err != nil {
			return out, fmt.Errorf("picture the blocked slides: %w", err)
		}
		for _, im := range shots.Images {
			png[im.SlideID] = im.Ref
		}
		for i := range out {
			out[i].Image = png[out[i].SlideID]
		}
	}
	return out, nil
}

// revertSlides is attempt with the slides ids put back as they are in
// origin (the same node tree, at the attempt's position), and a slide
// the origin lacks removed (and from its section). Pictures the put-back
// slides show that the attempt's asset table dropped come back from the
// origin's. The result is validated.
func revertSlides(attempt, origin *scenegraph.Deck, ids []string) (*scenegraph.Deck, error) {
	d := attempt.Clone()
	for _, id := range ids {
		_, i := d.SlideByID(id)
		if i < 0 {
			continue
		}
		was, _ := origin.SlideByID(id)
		if was == nil {
			d.Slides = slices.Delete(d.Slides, i, i+1)
			for k := range d.Sections {
				d.Sections[k].SlideIDs = slices.DeleteFunc(d.Sections[k].SlideIDs, func(s string) bool { return s == id })
			}
			continue
		}
		d.Slides[i] = was.Clone()
		data, err := json.Marshal(was)
		if err != nil {
			return nil, err
		}
		for key, a := range origin.Assets {
			if _, ok := d.Assets[key]; !ok && strings.Contains(string(data), key) {
				if d.Assets == nil {
					d.Assets = map[string]scenegraph.Asset{}
				}
				d.Assets[key] = a
			}
		}
	}
	if err := scenegraph.Validate(d); err != nil {
		return nil, fmt.Errorf("the deck with slides %s put back: %w", strings.Join(ids, ", "), err)
	}
	return d, nil
}

// Rendered is what RenderSlides measured: the violations, a PNG per slide
// when asked for, and how many slides it rendered.
type Rendered struct {
	Violations []render.Violation
	Images     []editloop.SlideImage
	Slides     int
	// IDs are the slides rendered, in deck order.
	IDs []string
	// Measured is each rendered slide's measured geometry (render
	// results without their PNGs).
	Measured []render.SlideResult
	// Stalled is the time the renders waited for a browser other work
	// held (render.Result.Stalled, summed).
	Stalled time.Duration
}

// RenderSlides renders the slides ids of snapshot ref (nil: every slide;
// ids not in the deck are skipped) and stores their PNGs when images is
// set. done counts slides rendered by an earlier call, for Steps.Beat.
func (s *Steps) RenderSlides(ctx context.Context, ref string, ids []string, images bool, done int) (Rendered, error) {
	var out Rendered
	if s.Renderer == nil {
		return out, ErrNoRenderer
	}
	d, err := s.deck(ctx, ref)
	if err != nil {
		return out, err
	}
	var idx []int
	if ids == nil {
		for i := range d.Slides {
			idx = append(idx, i)
		}
	} else {
		for _, id := range ids {
			if _, i := d.SlideByID(id); i >= 0 {
				idx = append(idx, i)
			}
		}
		sort.Ints(idx)
	}
	assets := store.Assets(ctx, s.Store)
	req := render.Request{Images: images}
	for len(idx) > 0 {
		n := min(renderChunk, len(idx))
		req.Slides = idx[:n]
		res, err := s.Renderer.Render(ctx, d, assets, req)
		if err != nil {
			return out, fmt.Errorf("render %s: %w", ref, err)
		}
		idx = idx[n:]
		out.Stalled += res.Stalled
		out.Violations = append(out.Violations, res.Violations...)
		out.Slides += len(res.Slides)
		for _, sl := range res.Slides {
			out.IDs = append(out.IDs, sl.SlideID)
			m := sl
			m.PNG = nil
			out.Measured = append(out.Measured, m)
		}
		for _, sl := range res.Slides {
			if len(sl.PNG) == 0 || !images {
				continue
			}
			pref, err := s.Store.Put(ctx, sl.PNG)
			if err != nil {
				return out, fmt.Errorf("store slide image: %w", err)
			}
			out.Images = append(out.Images, editloop.SlideImage{SlideID: sl.SlideID, Ref: pref})
		}
		if s.Beat != nil {
			s.Beat(ctx, done+out.Slides)
		}
	}
	return out, nil
}

// Picture makes the report's before and after pictures of an edit
// (report.Picture) with the renderer, which keeps them (a worker's pool
// has render.Options.Pictures over the store). Without a renderer, or
// with one that cannot read kept pictures, it does nothing and says so
// (NotRendered): the report then renders them itself.
func (s *Steps) Picture(ctx context.Context, in editloop.PictureInput) (editloop.PictureOutput, error) {
	painter, ok := s.Renderer.(report.Painter)
	if !ok {
		return editloop.PictureOutput{NotRendered: true}, nil
	}
	origin, err := s.deck(ctx, in.OriginRef)
	if err != nil {
		return editloop.PictureOutput{}, err
	}
	final, err := s.deck(ctx, in.FinalRef)
	if err != nil {
		return editloop.PictureOutput{}, err
	}
	var drawn *scenegraph.Deck
	if in.DrawnRef != "" && in.DrawnRef != in.FinalRef {
		if drawn, err = s.deck(ctx, in.DrawnRef); err != nil {
			return editloop.PictureOutput{}, err
		}
	}
	st, err := report.Picture(ctx, painter, origin, final, drawn, store.Assets(ctx, s.Store))
	if err != nil {
		return editloop.PictureOutput{}, fmt.Errorf("picture %s: %w", in.FinalRef, err)
	}
	return editloop.PictureOutput{Rendered: st.Rendered, Kept: st.Kept, Stalled: st.Stalled}, nil
}

// ErrNoRenderer is returned by RenderSlides when Steps has no renderer.
var ErrNoRenderer = errors.New("no renderer configured")

// Diff computes JsonDiff of origin vs current (ACE App. E) and stores its
// text for the judge and the critic (TextRef), the origin snapshot routed
// to in.Targets and the touched slides (diff.Diff.RoutedText).
func (s *Steps) Diff(ctx context.Context, in editloop.DiffInput) (editloop.DiffOutput, error) {
	origin, err := s.deck(ctx, in.OriginRef)
	if err != nil {
		return editloop.DiffOutput{}, err
	}
	cur, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return editloop.DiffOutput{}, err
	}
	d := diff.Compute(origin, cur)
	out := editloop.DiffOutput{Distinct: d.Distinct, Score: d.Score, Empty: d.Empty(), TouchesVisual: d.TouchesVisual}
	if out.TextRef, err = s.Store.Put(ctx, []byte(d.RoutedText(origin, in.Targets))); err != nil {
		return out, fmt.Errorf("store the diff text: %w", err)
	}
	// Exact, unlike the capped and tolerant JsonDiff: every slide whose
	// subtree digest changed, then removed slides.
	out.ChangedSlides = changedSlides(origin, cur)
	ot, _ := json.Marshal(origin.Tokens)
	ct, _ := json.Marshal(cur.Tokens)
	out.AllSlides = string(ot) != string(ct)
	return out, nil
}

// Judge runs the IF judge and, when asked, the VQ judge. It is skipped
// without a judge model. A model failure (after the client's retries) is
// a missing score with the problem named, not an error: the loop goes on
// (and VQ is never a stopping signal). Errors are the store's and
// cancellation.
func (s *Steps) Judge(ctx context.Context, in editloop.JudgeInput) (editloop.JudgeOutput, error) {
	if !s.LLM.HasModel(llm.RoleJudge) || strings.TrimSpace(in.Instruction) == "" {
		return editloop.JudgeOutput{Skipped: true}, nil
	}
	var text []byte
	if in.DiffTextRef != "" {
		var err error
		if text, err = s.Store.Get(ctx, in.DiffTextRef); err != nil {
			return editloop.JudgeOutput{}, fmt.Errorf("diff text %s: %w", in.DiffTextRef, err)
		}
	}
	var imgs []judge.Image
	for _, im := range in.Images {
		png, err := s.Store.Get(ctx, im.Ref)
		if err != nil {
			return editloop.JudgeOutput{}, fmt.Errorf("slide image %s: %w", im.Ref, err)
		}
		imgs = append(imgs, judge.Image{SlideID: im.SlideID, PNG: png})
	}
	j := &judge.Judge{LLM: s.LLM}
	ifIn := judge.IFInput{Instruction: in.Instruction, Diff: string(text), Account: in.Account}
	if in.TouchesVisual {
		ifIn.Images = imgs
	}
	var out editloop.JudgeOutput
	v, err := j.IF(ctx, ifIn)
	if err != nil {
		if ctx.Err() != nil {
			return out, err
		}
		v.Score, v.Missing, v.Problem = nil, true, "IF judge: "+err.Error()
	}
	out.IF = v
	if in.VQ {
		vq, err := j.VQ(ctx, judge.VQInput{Images: imgs})
		if err != nil {
			if ctx.Err() != nil {
				return out, err
			}
			vq.Missing, vq.Problem = true, err.Error()
		}
		out.VQ = &vq
	}
	return out, nil
}

// Critique runs the critic's turn (critic.Critic.Turn, the judge's model):
// the scheduled checks of the slides the iteration changed (from JsonDiff
// of its start against its end), the render's geometry, and the ledger
// updated. Renders of the changed slides go to visual checks. Without a
// judge model only the geometric checks run (a problem says so).
func (s *Steps) Critique(ctx context.Context, in editloop.CritiqueInput) (editloop.CritiqueOutput, error) {
	out := editloop.CritiqueOutput{Ledger: in.Ledger}
	start, err := s.deck(ctx, in.StartRef)
	if err != nil {
		return out, err
	}
	cur, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return out, err
	}
	var text []byte
	if in.DiffTextRef != "" {
		if text, err = s.Store.Get(ctx, in.DiffTextRef); err != nil {
			return out, fmt.Errorf("diff text %s: %w", in.DiffTextRef, err)
		}
	}
	var imgs []judge.Image
	for _, im := range in.Images {
		png, err := s.Store.Get(ctx, im.Ref)
		if err != nil {
			return out, fmt.Errorf("slide image %s: %w", im.Ref, err)
		}
		imgs = append(imgs, judge.Image{SlideID: im.SlideID, PNG: png})
	}
	c := &critic.Critic{LLM: s.LLM}
	rep, err := c.Turn(ctx, &out.Ledger, critic.TurnInput{Turn: in.Turn, Instruction: in.Instruction, Account: in.Account, Diff: string(text),
		Slides: criticSlides(cur), Edits: critic.EditsOf(diff.Compute(start, cur)), Rendered: in.Rendered,
		Violations: in.Violations, Baseline: in.Baseline, Images: imgs})
	out.Report = rep
	if err != nil {
		return editloop.CritiqueOutput{Ledger: in.Ledger, Report: rep}, err
	}
	return out, nil
}

// Waive asks the critic about each violation (critic.Critic.Waive): the
// nodes the edit touched are those whose content differs between the
// baseline and the deck (or are new).
func (s *Steps) Waive(ctx context.Context, in editloop.WaiveInput) (editloop.WaiveOutput, error) {
	out := editloop.WaiveOutput{Ledger: in.Ledger}
	base, err := s.deck(ctx, in.BaselineRef)
	if err != nil {
		return out, err
	}
	cur, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return out, err
	}
	touched := touchedNodes(base, cur)
	c := &critic.Critic{LLM: s.LLM}
	for _, v := range in.Violations {
		d, err := c.Waive(ctx, &out.Ledger, critic.WaiverInput{Instruction: in.Instruction, Violation: v, Touched: touched})
		out.Decisions = append(out.Decisions, d)
		if err != nil {
			if ctx.Err() != nil {
				return editloop.WaiveOutput{Ledger: in.Ledger, Decisions: out.Decisions}, err
			}
			// The critic's model failed: refused, as an unusable answer is.
			out.Decisions[len(out.Decisions)-1].Refusal = "the critic could not be asked: " + err.Error()
		}
	}
	return out, nil
}

// criticSlides are a deck's slides as the critic names them: id and title
// (the title placeholder's text, else the first text: Node.SlideTitle; a
// .pptx slide has no name, so the name left every title blank).
func criticSlides(d *scenegraph.Deck) []critic.Slide {
	out := make([]critic.Slide, len(d.Slides))
	titled := d.UsesTitlePlaceholders()
	for i, sl := range d.Slides {
		title, isTitle := sl.TitleText()
		out[i] = critic.Slide{ID: sl.ID, Title: title, Untitled: titled && !isTitle && title != ""}
	}
	return out
}

// touchedNodes are the ids of cur's nodes that are new or whose content
// differs from base's node of the same id (a changed node's ancestors
// included), in deck order.
func touchedNodes(base, cur *scenegraph.Deck) []string {
	before := map[string]string{}
	for _, sl := range base.Slides {
		sl.Walk(func(n, _ *scenegraph.Node, _ int) bool { before[n.ID] = scenegraph.NodeDigest(n); return true })
	}
	var out []string
	for _, sl := range cur.Slides {
		sl.Walk(func(n, _ *scenegraph.Node, _ int) bool {
			if d, ok := before[n.ID]; !ok || d != scenegraph.NodeDigest(n) {
				out = append(out, n.ID)
			}
			return true
		})
	}
	return out
}

// Check evaluates the recipe's expectations on the kept snapshot.
func (s *Steps) Check(ctx context.Context, in editloop.CheckInput) (editloop.CheckOutput, error) {
	r, err := s.loadRecipe(ctx, in.RecipeRef, in.RecipePath)
	if err != nil {
		return editloop.CheckOutput{}, err
	}
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return editloop.CheckOutput{}, err
	}
	return editloop.CheckOutput{Failures: recipe.Check(r, d, in.Gate), Expectations: len(r.Expect)}, nil
}

// Export writes the snapshot as a file in the store (deckio.Encode: PPTX
// patched into the original package, or scene-graph JSON). An empty
// format is the origin's import format (pptx for a .pptx, else json).
// Error: a format other than pptx or json (ErrBadFormat).
func (s *Steps) Export(ctx context.Context, in editloop.ExportInput) (editloop.ExportOutput, error) {
	d, err := s.deck(ctx, in.DeckRef)
	if err != nil {
		return editloop.ExportOutput{}, err
	}
	format := strings.ToLower(in.Format)
	if format == "" {
		format = "json"
		if d.Source != nil && d.Source.Format == "pptx" {
			format = "pptx"
		}
	}
	if format != "pptx" && format != "json" {
		return editloop.ExportOutput{}, fmt.Errorf("%w %q: use pptx or json", ErrBadFormat, in.Format)
	}
	data, err := deckio.Encode("deck."+format, d, store.Assets(ctx, s.Store))
	if err != nil {
		return editloop.ExportOutput{}, fmt.Errorf("export %s as %s: %w", in.DeckRef, format, err)
	}
	ref, err := s.Store.Put(ctx, data)
	if err != nil {
		return editloop.ExportOutput{}, fmt.Errorf("store the export: %w", err)
	}
	return editloop.ExportOutput{Ref: ref, Format: format, Bytes: int64(len(data))}, nil
}

// ErrBadFormat is Export's error for a format other than pptx or json.
var ErrBadFormat = errors.New("export format")

// changedSlides lists the slides whose subtree digest differs (current
// deck order), then the removed ones (origin order).
func changedSlides(origin, cur *scenegraph.Deck) []string {
	digests := func(d *scenegraph.Deck) map[string]string {
		m := make(map[string]string, len(d.Slides))
		for _, sl := range d.Slides {
			m[sl.ID] = scenegraph.NodeDigest(sl)
		}
		return m
	}
	return diffSlides(origin, cur, digests(origin), digests(cur))
}

// diffSlides is changedSlides given each deck's slide digests by slide id.
func diffSlides(origin, cur *scenegraph.Deck, before, after map[string]string) []string {
	var out []string
	kept := map[string]bool{}
	for _, sl := range cur.Slides {
		kept[sl.ID] = true
		if d, ok := before[sl.ID]; !ok || d != after[sl.ID] {
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
