package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/telemetry"
	"github.com/acecanvas/ace/workflows"
)

// Route runs runner.Steps.Route and resolves what the agent works on: the
// instruction, a recipe's instruction steps when a model is configured, or
// nothing for a pure recipe (which needs no routing).
func (a *Activities) Route(ctx context.Context, in workflows.RouteInput) (workflows.RouteOutput, error) {
	defer keepAlive(ctx)()
	x := in.Instruction
	var out workflows.RouteOutput
	if in.RecipeRef != "" {
		r, err := a.recipe(ctx, in.RecipeRef, in.RecipePath)
		if err != nil {
			return out, err
		}
		out.Expectations = len(r.Expect) > 0
		if x == "" && a.Steps.LLM.HasModel(llm.RoleAgent) {
			var steps []string
			for _, st := range r.Steps {
				if st.Instruction != "" {
					steps = append(steps, st.Instruction)
				}
			}
			x = strings.Join(steps, "\n")
		}
	} else if !a.Steps.LLM.HasModel(llm.RoleAgent) {
		_, err := a.Steps.LLM.Model(llm.RoleAgent)
		return out, classify("route", fmt.Errorf("a natural-language edit needs a model: %w", err))
	}
	out.AgentInstruction = x
	if x == "" {
		out.Mode, out.Source, out.Reason = string(route.Off), "recipe", "a recipe compiles to tool calls; no agent step"
		return out, nil
	}
	rt, err := a.Steps.Route(ctx, runner.RouteInput{DeckRef: in.DeckRef, Instruction: x})
	if err != nil {
		return out, classify("route", err)
	}
	dec := rt.Decision
	out.Mode, out.TargetSlides, out.NeedsImage, out.Reason, out.Source = string(dec.Mode), dec.TargetSlides, dec.NeedsImage, dec.Reason, dec.Source
	out.Usage = usage(rt.LLM)
	return out, nil
}

func (a *Activities) recipe(ctx context.Context, ref, path string) (*recipe.Recipe, error) {
	data, err := a.store().Get(ctx, ref)
	if err != nil {
		return nil, badInput("recipe %s (%s): %v", path, ref, err)
	}
	if path == "" {
		path = "recipe.yaml"
	}
	r, err := recipe.Parse(path, data)
	if err != nil {
		return nil, badInput("%v", err)
	}
	return r, nil
}

func decision(r workflows.RouteOutput) route.Decision {
	return route.Decision{Mode: route.Mode(r.Mode), TargetSlides: r.TargetSlides, NeedsImage: r.NeedsImage, Reason: r.Reason, Source: r.Source}
}

// Act runs runner.Steps.Act (the design agent, or the recipe compile) and
// stores the applied calls so the workflow passes a ref, not the calls.
func (a *Activities) Act(ctx context.Context, in workflows.ActInput) (workflows.ActOutput, error) {
	defer keepAlive(ctx)()
	res, err := a.Steps.Act(ctx, runner.ActInput{DeckRef: in.DeckRef, Instruction: in.Instruction, Feedback: in.Feedback,
		Route: decision(in.Route), MaxTurns: in.MaxTurns, RecipeRef: in.RecipeRef, RecipePath: in.RecipePath})
	out := workflows.ActOutput{DeckRef: res.DeckRef, Turns: res.Turns, AssetDir: res.AssetDir, Warnings: res.Warnings,
		Calls: len(res.Calls), Usage: usage(res.LLM)}
	for _, e := range res.Errors {
		out.ToolErrors = append(out.ToolErrors, e.Kind+": "+e.Message)
	}
	if err != nil {
		var re *recipe.Error
		if errors.As(err, &re) {
			return out, badInput("%v", err)
		}
		return out, classify("act", err)
	}
	if len(res.Calls) > 0 {
		data, err := json.Marshal(res.Calls)
		if err != nil {
			return out, err
		}
		if out.CallsRef, err = a.store().Put(ctx, data); err != nil {
			return out, fmt.Errorf("store tool calls: %w", err)
		}
	}
	return out, nil
}

// Apply replays the calls (runner.Steps.Apply: atomic, pure, idempotent)
// and checks the result equals the agent's working copy.
func (a *Activities) Apply(ctx context.Context, in workflows.ApplyInput) (workflows.ApplyOutput, error) {
	var calls []agent.Call
	if in.CallsRef != "" {
		data, err := a.store().Get(ctx, in.CallsRef)
		if err != nil {
			return workflows.ApplyOutput{}, classify("apply", err)
		}
		if err := json.Unmarshal(data, &calls); err != nil {
			return workflows.ApplyOutput{}, badInput("tool calls %s: %v", in.CallsRef, err)
		}
	}
	res, err := a.Steps.Apply(ctx, runner.ApplyInput{DeckRef: in.DeckRef, Calls: calls, AssetDir: in.AssetDir})
	if err != nil {
		return workflows.ApplyOutput{}, classify("apply", err)
	}
	if in.Expect != "" && res.DeckRef != in.Expect {
		return workflows.ApplyOutput{}, badInput("apply: replaying %d calls gave snapshot %s, the agent's working copy was %s (a tool is not deterministic)", len(calls), res.DeckRef, in.Expect)
	}
	return workflows.ApplyOutput{DeckRef: res.DeckRef, Applied: res.Applied}, nil
}

// Diff runs runner.Steps.Diff and stores the judge's text form.
func (a *Activities) Diff(ctx context.Context, in workflows.DiffInput) (workflows.DiffOutput, error) {
	d, err := a.Steps.Diff(ctx, runner.DiffInput{OriginRef: in.OriginRef, DeckRef: in.DeckRef})
	if err != nil {
		return workflows.DiffOutput{}, classify("diff", err)
	}
	ref, err := a.store().Put(ctx, []byte(d.Text))
	if err != nil {
		return workflows.DiffOutput{}, fmt.Errorf("store diff text: %w", err)
	}
	return workflows.DiffOutput{TextRef: ref, Distinct: d.Distinct, Score: d.Score, Empty: d.Empty,
		TouchesVisual: d.TouchesVisual, ChangedSlides: d.ChangedSlides, AllSlides: d.AllSlides}, nil
}

// Render renders the touched slides of the current state, then of the
// origin, slide by slide with a heartbeat after each (a retry starts over:
// renders are pure), and evaluates the
// gate (judge.Gate: no violation the origin did not have). Without a
// renderer the gate is recorded as not evaluated, as in the runner.
func (a *Activities) Render(ctx context.Context, in workflows.RenderInput) (workflows.RenderOutput, error) {
	if a.Steps.Renderer == nil {
		return workflows.RenderOutput{GatePassed: true, NotRendered: true}, nil
	}
	ids := in.SlideIDs
	if ids == nil {
		d, err := store.GetDeck(ctx, a.store(), in.DeckRef)
		if err != nil {
			return workflows.RenderOutput{}, classify("render", err)
		}
		ids = slideIDs(d)
	}
	var out workflows.RenderOutput
	cur, err := a.renderEach(ctx, in.DeckRef, ids, in.Images, 0)
	if err != nil {
		return out, err
	}
	orig, err := a.renderEach(ctx, in.OriginRef, ids, false, len(ids))
	if err != nil {
		return out, err
	}
	g := judge.Gate(cur.Violations, orig.Violations)
	out = workflows.RenderOutput{Rendered: cur.Rendered, Violations: len(cur.Violations), GatePassed: g.Passed, NewViolations: g.New}
	for _, im := range cur.Images {
		out.Images = append(out.Images, workflows.SlideImage{SlideID: im.SlideID, Ref: im.Ref})
	}
	return out, nil
}

// renderEach renders ids of ref one slide per call, heartbeating with the
// running count (offset counts the slides of an earlier pass).
func (a *Activities) renderEach(ctx context.Context, ref string, ids []string, images bool, offset int) (runner.RenderOutput, error) {
	var all runner.RenderOutput
	for i, id := range ids {
		t0 := time.Now()
		res, err := a.Steps.Render(ctx, runner.RenderInput{DeckRef: ref, SlideIDs: []string{id}, Images: images})
		telemetry.RecordRender(ctx, time.Since(t0).Seconds(), 1)
		if err != nil {
			return all, classify("render", err)
		}
		all.Violations = append(all.Violations, res.Violations...)
		all.Images = append(all.Images, res.Images...)
		all.Rendered += res.Rendered
		RecordHeartbeat(ctx, offset+i+1)
	}
	return all, nil
}

// RecordHeartbeat reports render progress; a variable so the step can run
// outside an activity (benchmarks).
var RecordHeartbeat = func(ctx context.Context, slides int) {
	if activity.IsActivity(ctx) {
		activity.RecordHeartbeat(ctx, slides)
	}
}

func slideIDs(d *scenegraph.Deck) []string {
	ids := make([]string, len(d.Slides))
	for i, s := range d.Slides {
		ids[i] = s.ID
	}
	return ids
}

// Judge runs runner.Steps.Judge (the IF judge; skipped without a judge model
// or for a pure recipe). A judge outage leaves the score missing and the
// loop goes on, as in the runner.
func (a *Activities) Judge(ctx context.Context, in workflows.JudgeInput) (workflows.JudgeOutput, error) {
	defer keepAlive(ctx)()
	var text []byte
	if in.DiffTextRef != "" && in.Instruction != "" {
		var err error
		if text, err = a.store().Get(ctx, in.DiffTextRef); err != nil {
			return workflows.JudgeOutput{}, classify("judge", err)
		}
	}
	ji := runner.JudgeInput{Instruction: in.Instruction, DiffText: string(text), TouchesVisual: in.TouchesVisual}
	for _, im := range in.Images {
		ji.Images = append(ji.Images, runner.SlideImage{SlideID: im.SlideID, Ref: im.Ref})
	}
	res, err := a.Steps.Judge(ctx, ji)
	out := workflows.JudgeOutput{Score: res.IF.Score, Critique: res.IF.Reason, Skipped: res.Skipped,
		Missing: res.IF.Missing, Usage: usage(res.IF.Calls)}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return out, err
		}
		out.Missing = true
	}
	return out, nil
}

// Check evaluates the recipe's expectations on the final snapshot. Whether
// the gate was evaluated comes from the workflow (the Render activity ran
// on a render worker), not from this worker's own renderer.
func (a *Activities) Check(ctx context.Context, in workflows.CheckInput) (workflows.CheckOutput, error) {
	r, err := a.recipe(ctx, in.RecipeRef, in.RecipePath)
	if err != nil {
		return workflows.CheckOutput{}, err
	}
	d, err := store.GetDeck(ctx, a.store(), in.DeckRef)
	if err != nil {
		return workflows.CheckOutput{}, classify("check", err)
	}
	out := workflows.CheckOutput{Expectations: len(r.Expect)}
	for _, f := range recipe.Check(r, d, recipe.GateResult{Checked: in.GateChecked, NewViolations: in.NewViolations}) {
		out.Failures = append(out.Failures, f.String())
	}
	return out, nil
}

// Export writes the snapshot as a file in the store (deckio.Encode: PPTX
// patched into the original package, or scene-graph JSON).
func (a *Activities) Export(ctx context.Context, in workflows.ExportInput) (workflows.ExportOutput, error) {
	d, err := store.GetDeck(ctx, a.store(), in.DeckRef)
	if err != nil {
		return workflows.ExportOutput{}, classify("export", err)
	}
	format := strings.ToLower(in.Format)
	if format == "" {
		format = "json"
		if d.Source != nil && d.Source.Format == "pptx" {
			format = "pptx"
		}
	}
	if format != "pptx" && format != "json" {
		return workflows.ExportOutput{}, badInput("export format %q: use pptx or json", in.Format)
	}
	data, err := deckio.Encode("deck."+format, d, store.Assets(ctx, a.store()))
	if err != nil {
		return workflows.ExportOutput{}, fmt.Errorf("export %s as %s: %w", in.DeckRef, format, err)
	}
	ref, err := a.store().Put(ctx, data)
	if err != nil {
		return workflows.ExportOutput{}, fmt.Errorf("store export: %w", err)
	}
	return workflows.ExportOutput{Ref: ref, Format: format, Bytes: int64(len(data))}, nil
}
