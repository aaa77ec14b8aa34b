package workflows_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/acecanvas/ace/activities"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workflows"
)

// parityCase is one scripted edit run both ways.
type parityCase struct {
	name        string
	script      string // testdata/scripts/...; "" runs without a model
	instruction string
	recipe      string // recipe YAML, for recipe edits
	policy      policy.Config
	maxTurns    int
	maxSteps    int
	// the ablations (editloop.Request.ContextMode, NoObservations)
	contextMode    route.Mode
	noObservations bool
	// what both runs must record
	outcome    policy.Outcome
	selected   int
	iterations int
	actions    []policy.Action // per iteration; "" for a step failure
}

const (
	retitle   = "Give slide 2 a shorter title that names the quarter."
	rebrandNW = `name: rename the company
steps:
  - for_each: {text: "Northwind Analytics"}
    tool: set_text_content
    args: {nodeId: "${match.id}", find: "Northwind Analytics", text: "Acme Insights"}
expect:
  - no_text: "Northwind Analytics"
`
	noMatch = `name: rename a company the deck does not name
steps:
  - for_each: {text: "Contoso Pharmaceuticals"}
    tool: set_text_content
    args: {nodeId: "${match.id}", find: "Contoso Pharmaceuticals", text: "Fabrikam"}
`
	titles36 = `name: titles at 36 but expected 40
steps:
  - for_each: {role: title}
    tool: set_text_font
    args: {nodeId: "${match.id}", fontSize: 36}
expect:
  - all: {select: {role: title}, size: 40}
`

	// perSlide breaks slide 2's title (pushed past the right edge) while
	// every title changes typeface: the per-slide gate reverts slide 2.
	perSlide = `name: serif titles, slide 2's pushed off the slide
gate: per_slide
steps:
  - for_each: {role: title}
    tool: set_text_font
    args: {nodeId: "${match.id}", fontFamily: "Liberation Serif"}
  - for_each: {role: title, slides: "2"}
    tool: move_node
    args: {nodeId: "${match.id}", x: 1200, y: 40}
expect:
  - no_new_violations: true
`
)

var parityCases = []parityCase{
	{name: "stops at iteration 1 when IF reaches tau", script: "runner-stop-at-4.yaml", instruction: "Rename the title on slide 2.",
		outcome: policy.Stopped, selected: 1, iterations: 1, actions: []policy.Action{policy.Stop}},
	{name: "continues with the critique then stops", script: "runner-continue.yaml", instruction: "Rename the slide 2 title and make it navy.",
		outcome: policy.Stopped, selected: 2, iterations: 2, actions: []policy.Action{policy.Continue, policy.Stop}},
	{name: "rolls back to the origin on a gate failure", script: "runner-gate.yaml", instruction: "Move the slide 2 title a little to the right.", maxSteps: 2,
		outcome: policy.Stopped, selected: 2, iterations: 2, actions: []policy.Action{policy.Rollback, policy.Stop}},
	{name: "rolls back to iteration 2 when IF drops", script: "runner-rollback.yaml", instruction: retitle, policy: policy.Config{MaxIterations: 4},
		outcome: policy.Stopped, selected: 4, iterations: 4, actions: []policy.Action{policy.Continue, policy.Continue, policy.Rollback, policy.Stop}},
	{name: "spends the budget below tau and keeps the peak", script: "runner-rollback.yaml", instruction: retitle,
		outcome: policy.Budget, selected: 2, iterations: 3, actions: []policy.Action{policy.Continue, policy.Continue, policy.Stop}},
	{name: "stops at the agent turn cap", script: "runner-continue.yaml", instruction: "Rename the slide 2 title and make it navy.", maxTurns: 1,
		outcome: policy.TurnCap, selected: 1, iterations: 1, actions: []policy.Action{policy.Stop}},
	{name: "a fixed context mode without observations", script: "runner-stop-at-4.yaml", instruction: "Rename the title on slide 2.",
		contextMode: route.Full, noObservations: true,
		outcome: policy.Stopped, selected: 1, iterations: 1, actions: []policy.Action{policy.Stop}},
	{name: "applies a recipe", recipe: rebrandNW,
		outcome: policy.Applied, selected: 1, iterations: 1, actions: []policy.Action{policy.Stop}},
	{name: "a recipe that matches nothing leaves the deck unchanged", recipe: noMatch,
		outcome: policy.Unchanged, selected: 1, iterations: 1, actions: []policy.Action{policy.Stop}},
	{name: "a failed expectation is the verdict", recipe: titles36,
		outcome: policy.ExpectationFailed, selected: 1, iterations: 1, actions: []policy.Action{policy.Stop}},
	{name: "the per-slide gate reverts the slide that breaks", recipe: perSlide,
		outcome: policy.PartlyApplied, selected: 1, iterations: 1, actions: []policy.Action{policy.Stop}},
	{name: "a step failing after a good iteration keeps it", script: "runner-interrupted.yaml", instruction: "Retitle slide 2 and make it navy.",
		outcome: policy.Interrupted, selected: 1, iterations: 2, actions: []policy.Action{policy.Continue, ""}},
}

// TestTheLoopIsTheSameInProcessAndAsAWorkflow runs each scripted edit
// through the in-process runner and through EditWorkflow (the SDK's test
// environment with the real activities over the same runner.Steps), each
// against its own scripted model server, and requires equal records:
// iterations, scores, decisions and their feedback, the kept iteration,
// the outcome with its exit code, and the exported file's content hash.
// Only wall-clock fields differ and are cleared.
func TestTheLoopIsTheSameInProcessAndAsAWorkflow(t *testing.T) {
	pool, err := render.NewPool(context.Background(), render.Options{})
	if err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	defer pool.Close()
	ctx := context.Background()
	st := store.NewMemory()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	if err := store.PutBlobs(ctx, st, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, st, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range parityCases {
		t.Run(c.name, func(t *testing.T) {
			req := editloop.Request{DeckRef: origin, Instruction: c.instruction, Policy: c.policy, MaxAgentTurns: c.maxTurns, MaxSteps: c.maxSteps,
				ContextMode: c.contextMode, NoObservations: c.noObservations}
			if c.recipe != "" {
				if req.RecipeRef, err = st.Put(ctx, []byte(c.recipe)); err != nil {
					t.Fatal(err)
				}
				req.RecipePath = "recipe.yaml"
			}
			local, lerr := runner.Run(ctx, &runner.Steps{Store: st, LLM: scriptedModel(t, c.script), Renderer: pool}, req)
			durable, res, werr := runWorkflow(t, &runner.Steps{Store: st, LLM: scriptedModel(t, c.script), Renderer: pool}, req)
			if (lerr == nil) != (werr == nil) {
				t.Fatalf("in process: %v; workflow: %v", lerr, werr)
			}
			if got, want := recordJSON(t, durable), recordJSON(t, local); got != want {
				t.Fatalf("the records differ\nworkflow:   %s\nin process: %s", got, want)
			}
			if local.Outcome != c.outcome || local.Selected != c.selected || len(local.Iterations) != c.iterations {
				t.Fatalf("outcome %s selected %d after %d iterations, want %s %d %d: %s",
					local.Outcome, local.Selected, len(local.Iterations), c.outcome, c.selected, c.iterations, local.Reason)
			}
			if c.contextMode != "" && (local.Route.Decision.Mode != c.contextMode || local.Route.Decision.Source != "request") {
				t.Errorf("route %+v, want the fixed mode %s", local.Route.Decision, c.contextMode)
			}
			if c.noObservations && local.Iterations[0].Steps[0].DeltaViol != nil {
				t.Errorf("step 1 was observed with observations off")
			}
			for i, it := range local.Iterations {
				var got policy.Action
				if it.Decision != nil {
					got = it.Decision.Action
				}
				if got != c.actions[i] {
					t.Errorf("iteration %d: decision %q, want %q", it.N, got, c.actions[i])
				}
			}
			if local.Export.Ref == "" || res.ExportRef != local.Export.Ref || res.Outcome != string(local.Outcome) ||
				res.Status != local.Outcome.Status() || int(res.Selected) != local.Selected {
				t.Errorf("published result: export %s outcome %s status %v selected %d; record: export %s outcome %s selected %d",
					res.ExportRef, res.Outcome, res.Status, res.Selected, local.Export.Ref, local.Outcome, local.Selected)
			}
			if len(res.Reverted) != len(local.Reverted) || (c.outcome == policy.PartlyApplied && len(local.Reverted) == 0) {
				t.Errorf("published %d reverted slides, the record %d", len(res.Reverted), len(local.Reverted))
			}
			for i, r := range res.Reverted {
				if r.SlideId != local.Reverted[i].SlideID || int(r.Number) != local.Reverted[i].Number || len(r.Violations) == 0 {
					t.Errorf("published revert %v, record %v", r, local.Reverted[i])
				}
			}
			if want := map[bool]int{true: 0, false: 3}[c.outcome.Met()]; local.Outcome.ExitCode() != want {
				t.Errorf("exit code %d, want %d", local.Outcome.ExitCode(), want)
			}
		})
	}
}

// scriptedModel is a model client for a fresh scripted server (no model
// for "").
func scriptedModel(t *testing.T, script string) *llm.Client {
	t.Helper()
	if script == "" {
		c, err := llm.New(llm.Config{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	srv := llmtest.Load(t, filepath.Join(repoRoot(t), "testdata", "scripts", script))
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runWorkflow runs EditWorkflow in the SDK's test environment with the
// real activities over steps (Publish and Progress, which need NATS, are
// recorded instead) and returns its record (the "record" query) and its
// published result.
func runWorkflow(t *testing.T, steps *runner.Steps, req editloop.Request) (*editloop.Record, *acev1.EditResult, error) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	env := suite.NewTestWorkflowEnvironment()
	a := &activities.Activities{Steps: steps}
	var mu sync.Mutex
	var published []*acev1.EditResult
	fns := a.Functions()
	fns[workflows.ActivityProgress] = func(context.Context, *acev1.Progress) error { return nil }
	fns[workflows.ActivityPublish] = func(_ context.Context, r *acev1.EditResult) error {
		mu.Lock()
		defer mu.Unlock()
		published = append(published, r)
		return nil
	}
	for name, fn := range fns {
		env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
	}
	er := &acev1.EditRequest{JobId: "parity", DeckName: "generated", DeckRef: req.DeckRef, Instruction: req.Instruction,
		RecipeRef: req.RecipeRef, RecipePath: req.RecipePath, ExportFormat: req.ExportFormat,
		Options: &acev1.EditOptions{Tau: req.Policy.Tau, MaxIterations: int32(req.Policy.MaxIterations),
			MaxAgentTurns: int32(req.MaxAgentTurns), MaxSteps: int32(req.MaxSteps), Vq: req.VQ,
			ContextMode: string(req.ContextMode), NoObservations: req.NoObservations}}
	env.ExecuteWorkflow(workflows.EditWorkflow, workflows.EditInput{Request: er})
	if !env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not complete")
	}
	werr := env.GetWorkflowError()
	v, err := env.QueryWorkflow(workflows.QueryRecord)
	if err != nil {
		t.Fatal(err)
	}
	var rec *editloop.Record
	if err := v.Get(&rec); err != nil {
		t.Fatal(err)
	}
	if len(published) != 1 {
		t.Fatalf("%d results published", len(published))
	}
	return rec, published[0], werr
}

// recordJSON is a record with its wall-clock fields cleared.
func recordJSON(t *testing.T, rec *editloop.Record) string {
	t.Helper()
	r := *rec
	r.StartedUnixMS, r.DurationMS, r.Route.DurationMS = 0, 0, 0
	r.Route.LLM = clearCallTimes(r.Route.LLM)
	r.Iterations = nil
	for _, it := range rec.Iterations {
		it.Timings = editloop.Timings{}
		it.LLM = clearCallTimes(it.LLM)
		steps := append([]editloop.StepRecord(nil), it.Steps...)
		for i := range steps {
			steps[i].StartedUnixMS, steps[i].Timings = 0, editloop.StepTimings{}
		}
		it.Steps = steps
		r.Iterations = append(r.Iterations, it)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func clearCallTimes(calls []llm.Call) []llm.Call {
	var out []llm.Call
	for _, c := range calls {
		c.DurationMS = 0
		var at []llm.Attempt
		for _, a := range c.Attempts {
			a.DurationMS, a.WaitMS = 0, 0
			if strings.Contains(a.Error, "timed out") {
				a.Error = "timed out"
			}
			at = append(at, a)
		}
		c.Attempts = at
		out = append(out, c)
	}
	return out
}

func repoRoot(t *testing.T) string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("go.mod not found")
		}
		dir = filepath.Dir(dir)
	}
}
