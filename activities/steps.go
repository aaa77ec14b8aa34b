package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tools"
	"github.com/acecanvas/ace/workflows"
)

// Route picks the context slice (CARE, ACE §3.2): the model router when a
// model is configured, else the heuristic. A recipe needs no routing.
func (a *Activities) Route(ctx context.Context, in workflows.RouteInput) (workflows.RouteOutput, error) {
	if in.RecipeRef != "" {
		return workflows.RouteOutput{Mode: string(route.Off), Source: "recipe", Reason: "a recipe compiles to tool calls"}, nil
	}
	d, err := a.deck(ctx, in.DeckRef)
	if err != nil {
		return workflows.RouteOutput{}, err
	}
	if a.Model != nil {
		return a.Model.Route(ctx, d, in.Instruction, in)
	}
	dec := route.Heuristic(in.Instruction, d)
	return workflows.RouteOutput{Mode: string(dec.Mode), TargetSlides: dec.TargetSlides,
		NeedsImage: dec.NeedsImage, Reason: dec.Reason, Source: dec.Source}, nil
}

// Act produces one batch of tool calls: a recipe compiled against the
// current state (no model), or the design agent's turn.
func (a *Activities) Act(ctx context.Context, in workflows.ActInput) (workflows.ActOutput, error) {
	d, err := a.deck(ctx, in.DeckRef)
	if err != nil {
		return workflows.ActOutput{}, err
	}
	var calls []tools.Call
	var out workflows.ActOutput
	if in.RecipeRef != "" {
		data, err := a.Store.Get(ctx, in.RecipeRef)
		if err != nil {
			return out, badInput("recipe %s: %v", in.RecipeRef, err)
		}
		r, err := recipe.Parse("recipe", data)
		if err != nil {
			return out, badInput("%v", err)
		}
		plan, err := recipe.Compile(r, d, recipe.Options{Tools: a.Tools, HaveModel: a.Model != nil})
		if err != nil {
			return out, badInput("%v", err)
		}
		calls, out.ToolErrors = plan.Calls, plan.Warnings
	} else {
		if a.Model == nil {
			err := errors.New("natural-language edits need a model: set OPENAI_BASE_URL (or OPENAI_API_KEY) and ACE_AGENT_MODEL, or pass a recipe")
			return out, temporal.NewNonRetryableApplicationError(err.Error(), workflows.ErrNoModel, err)
		}
		origin, err := a.deck(ctx, in.OriginRef)
		if err != nil {
			return out, err
		}
		calls, out.Usage, out.ToolErrors, err = a.Model.Act(ctx, d, origin, in)
		if err != nil {
			return out, err
		}
	}
	data, err := json.Marshal(calls)
	if err != nil {
		return out, err
	}
	if out.CallsRef, err = a.Store.Put(ctx, data); err != nil {
		return out, fmt.Errorf("store tool calls: %w", err)
	}
	out.Calls = len(calls)
	return out, nil
}

// Apply runs the tool calls on the snapshot (atomic, pure) and stores the
// new snapshot and any images the calls added.
func (a *Activities) Apply(ctx context.Context, in workflows.ApplyInput) (workflows.ApplyOutput, error) {
	d, err := a.deck(ctx, in.DeckRef)
	if err != nil {
		return workflows.ApplyOutput{}, err
	}
	data, err := a.Store.Get(ctx, in.CallsRef)
	if err != nil {
		return workflows.ApplyOutput{}, badInput("tool calls %s: %v", in.CallsRef, err)
	}
	var calls []tools.Call
	if err := json.Unmarshal(data, &calls); err != nil {
		return workflows.ApplyOutput{}, badInput("tool calls %s: %v", in.CallsRef, err)
	}
	opts := a.Tools
	opts.Blobs = scenegraph.Blobs{}
	next, results, err := tools.Apply(d, calls, opts)
	out := workflows.ApplyOutput{DeckRef: in.DeckRef}
	if err != nil {
		// A batch that does not apply leaves the state as it was; the
		// error goes to the loop as an observation, not a crash.
		out.Errors = []string{err.Error()}
		return out, nil
	}
	if err := store.PutBlobs(ctx, a.Store, opts.Blobs); err != nil {
		return out, fmt.Errorf("store images: %w", err)
	}
	if out.DeckRef, err = store.PutDeck(ctx, a.Store, next); err != nil {
		return out, fmt.Errorf("store snapshot: %w", err)
	}
	out.Applied = len(results)
	return out, nil
}

// Render lays out every slide in Chromium one at a time, heartbeating after
// each (a long deck on a dead worker is retried after HeartbeatTimeout, and
// the retry resumes where the heartbeat left off), and evaluates the gate
// against the origin's violations when asked.
func (a *Activities) Render(ctx context.Context, in workflows.RenderInput) (workflows.RenderOutput, error) {
	if a.Renderer == nil {
		return workflows.RenderOutput{}, errors.New("this worker has no renderer (run it with --queues render)")
	}
	d, err := a.deck(ctx, in.DeckRef)
	if err != nil {
		return workflows.RenderOutput{}, err
	}
	out := workflows.RenderOutput{Slides: len(d.Slides)}
	assets := store.Assets(ctx, a.Store)
	var violations []render.Violation
	for i := range d.Slides {
		res, err := a.Renderer.Render(ctx, d, assets, render.Request{Slides: []int{i}, Images: in.Images})
		if err != nil {
			return out, fmt.Errorf("render slide %d of %s: %w", i+1, in.DeckRef, err)
		}
		violations = append(violations, res.Violations...)
		for _, s := range res.Slides {
			if len(s.PNG) > 0 {
				ref, err := a.Store.Put(ctx, s.PNG)
				if err != nil {
					return out, fmt.Errorf("store slide image: %w", err)
				}
				out.Images = append(out.Images, workflows.SlideImage{Slide: s.Index, Ref: ref})
			}
		}
		activity.RecordHeartbeat(ctx, i+1)
	}
	for _, v := range violations {
		out.Violations = append(out.Violations, workflows.Violation{Key: v.Key, Kind: v.Kind, SlideID: v.SlideID, NodeIDs: v.NodeIDs, Reason: v.Reason})
	}
	if in.Gate {
		baseline := make([]render.Violation, len(in.Baseline))
		for i, v := range in.Baseline {
			baseline[i] = render.Violation{Key: v.Key, Kind: v.Kind, SlideID: v.SlideID, NodeIDs: v.NodeIDs, Reason: v.Reason}
		}
		g := judge.Gate(violations, baseline)
		out.GatePassed, out.NewViolations = g.Passed, g.New
	}
	return out, nil
}

// Diff computes JsonDiff of origin vs current and stores the judge's text
// form.
func (a *Activities) Diff(ctx context.Context, in workflows.DiffInput) (workflows.DiffOutput, error) {
	origin, err := a.deck(ctx, in.OriginRef)
	if err != nil {
		return workflows.DiffOutput{}, err
	}
	cur, err := a.deck(ctx, in.DeckRef)
	if err != nil {
		return workflows.DiffOutput{}, err
	}
	d := diff.Compute(origin, cur)
	ref, err := a.Store.Put(ctx, []byte(d.Text(origin)))
	if err != nil {
		return workflows.DiffOutput{}, fmt.Errorf("store diff: %w", err)
	}
	return workflows.DiffOutput{TextRef: ref, Distinct: d.Distinct, Score: d.Score, Empty: d.Empty(), TouchesVisual: d.TouchesVisual}, nil
}

// Judge scores the edit with the IF judge; with no model (or a recipe, whose
// expectations are checked by the recipe itself) it is skipped.
func (a *Activities) Judge(ctx context.Context, in workflows.JudgeInput) (workflows.JudgeOutput, error) {
	if a.Model == nil || in.Instruction == "" {
		return workflows.JudgeOutput{Skipped: true}, nil
	}
	text, err := a.Store.Get(ctx, in.DiffTextRef)
	if err != nil {
		return workflows.JudgeOutput{}, fmt.Errorf("diff text %s: %w", in.DiffTextRef, err)
	}
	var images [][]byte
	for _, im := range in.Images {
		png, err := a.Store.Get(ctx, im.Ref)
		if err != nil {
			return workflows.JudgeOutput{}, fmt.Errorf("slide image %s: %w", im.Ref, err)
		}
		images = append(images, png)
	}
	return a.Model.Judge(ctx, in, string(text), images)
}

// Export writes the snapshot as a file in the store: PPTX (patched into the
// original package when the deck came from one) or canonical JSON.
func (a *Activities) Export(ctx context.Context, in workflows.ExportInput) (workflows.ExportOutput, error) {
	d, err := a.deck(ctx, in.DeckRef)
	if err != nil {
		return workflows.ExportOutput{}, err
	}
	format := strings.ToLower(in.Format)
	if format == "" {
		format = "json"
		if d.Source != nil && d.Source.Format == "pptx" {
			format = "pptx"
		}
	}
	var data []byte
	switch format {
	case "pptx":
		data, err = pptx.Export(d, store.Assets(ctx, a.Store))
	case "json":
		data, err = scenegraph.Encode(d)
	default:
		return workflows.ExportOutput{}, badInput("export format %q: use pptx or json", in.Format)
	}
	if err != nil {
		return workflows.ExportOutput{}, fmt.Errorf("export %s as %s: %w", in.DeckRef, format, err)
	}
	ref, err := a.Store.Put(ctx, data)
	if err != nil {
		return workflows.ExportOutput{}, fmt.Errorf("store export: %w", err)
	}
	return workflows.ExportOutput{Ref: ref, Format: format, Bytes: int64(len(data))}, nil
}
