package workers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/client"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workflows"
)

// scripted points the shared workers' model client at a fresh scripted
// server for one test and restores "no model" afterwards.
func scripted(t testing.TB, script string) *llm.Client {
	t.Helper()
	srv := llmtest.Load(t, filepath.Join(repoRootTB(t), "testdata", "scripts", script))
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func repoRootTB(t testing.TB) string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// runWorkflow runs one EditWorkflow on the shared stack with the model
// client c and returns its result and workflow id. The run gets a fresh
// route cache as it gets a fresh scripted model: a decision cached by an
// earlier test on the same generated deck would skip the script's router
// step and change the usage the test compares.
func runWorkflow(t testing.TB, c *llm.Client, origin, instruction string) (*acev1.EditResult, string) {
	t.Helper()
	return runWorkflowWith(t, c, origin, instruction, nil)
}

// runWorkflowWith is runWorkflow with the request's options.
func runWorkflowWith(t testing.TB, c *llm.Client, origin, instruction string, opts *acev1.EditOptions) (*acev1.EditResult, string) {
	t.Helper()
	conn := shared.conn
	prev, prevCache := shared.acts.Steps.LLM, shared.acts.Steps.Cache
	shared.acts.Steps.LLM, shared.acts.Steps.Cache = c, cache.NewLRU(cache.DefaultEntries, cache.DefaultMaxBytes)
	defer func() { shared.acts.Steps.LLM, shared.acts.Steps.Cache = prev, prevCache }()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	id := fmt.Sprintf("parity-%d", time.Now().UnixNano())
	run, err := conn.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.QueueEdit},
		EditWorkflowName, workflows.EditInput{Request: &acev1.EditRequest{JobId: id, DeckName: "generated", DeckRef: origin,
			Instruction: instruction, ExportFormat: "json", Options: opts}})
	if err != nil {
		t.Fatal(err)
	}
	var res *acev1.EditResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	return res, id
}

// TestWorkflowMatchesTheInProcessRunner runs one scripted edit (scores 2, 3,
// 2: the loop rolls back and strict-peak returns iteration 2) through
// runner.Run and through EditWorkflow on the embedded stack: both reach the
// same snapshots, scores and final pick, because both call the same steps
// and internal/policy.
func TestWorkflowMatchesTheInProcessRunner(t *testing.T) {
	conn := stack(t)
	ctx := context.Background()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	const instruction = "Give slide 2 a shorter title that names the quarter."
	steps := &runner.Steps{Store: conn.Store, LLM: scripted(t, "runner-rollback.yaml"), Renderer: shared.acts.Steps.Renderer}
	rec, err := runner.Run(ctx, steps, editloop.Request{DeckRef: origin, Instruction: instruction, Policy: policy.Config{}})
	if err != nil {
		t.Fatal(err)
	}
	res, id := runWorkflow(t, scripted(t, "runner-rollback.yaml"), origin, instruction)
	if res.FinalSnapshot != rec.Final || int(res.Selected) != rec.Selected || len(res.Iterations) != len(rec.Iterations) {
		t.Fatalf("workflow final %s selected %d (%d iterations); runner final %s selected %d (%d)",
			res.FinalSnapshot, res.Selected, len(res.Iterations), rec.Final, rec.Selected, len(rec.Iterations))
	}
	for i, it := range res.Iterations {
		r := rec.Iterations[i]
		if it.Snapshot != r.Snapshot || *it.Score != *r.Score || it.GatePassed != r.GatePassed {
			t.Errorf("iteration %d: workflow %s %.1f %v, runner %s %.1f %v", i+1, it.Snapshot, *it.Score, it.GatePassed, r.Snapshot, *r.Score, r.GatePassed)
		}
	}
	if res.Outcome != string(rec.Outcome) || res.Status != acev1.EditStatus_EDIT_STATUS_NOT_MET {
		t.Errorf("outcome workflow %q runner %q (status %v)", res.Outcome, rec.Outcome, res.Status)
	}
	if res.Usage.InputTokens != int64(rec.Usage.PromptTokens) {
		t.Errorf("input tokens workflow %d runner %d", res.Usage.InputTokens, rec.Usage.PromptTokens)
	}
	recordHistory(t, id, "edit-rollback-v3.json")
}

// recordHistory writes the workflow's history to testdata/histories when
// ACE_RECORD_HISTORIES=1, for the replay test in workflows/.
func recordHistory(t *testing.T, id, name string) {
	if os.Getenv("ACE_RECORD_HISTORIES") != "1" {
		return
	}
	ctx := context.Background()
	it := shared.conn.Temporal.GetWorkflowHistory(ctx, id, "", false, 0)
	hist := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	data, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(repoRootTB(t), "testdata", "histories", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d events to %s", len(hist.Events), path)
}

// TestALaterFailureKeepsTheBestIterationOnTheStack runs an edit whose
// second act is refused by the model server (HTTP 400, never retried) on
// the embedded stack: the workflow keeps iteration 1 and exports it, as
// the in-process runner does, instead of failing the edit.
func TestALaterFailureKeepsTheBestIterationOnTheStack(t *testing.T) {
	conn := stack(t)
	ctx := context.Background()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	res, id := runWorkflow(t, scripted(t, "runner-interrupted.yaml"), origin, "Retitle slide 2 and make it navy.")
	if res.Outcome != string(policy.Interrupted) || res.Status != acev1.EditStatus_EDIT_STATUS_NOT_MET || res.Selected != 1 ||
		res.ExportRef == "" || res.FinalSnapshot != res.Iterations[0].Snapshot || !strings.Contains(res.Reason, "Invalid") {
		t.Fatalf("result %+v", res)
	}
	recordHistory(t, id, "edit-interrupted-v3.json")
}

// TestStepsWithARefusedSubmitAndAnUndoOnTheStack runs an edit whose agent
// pushes the title off the slide, has its submit refused (the critic
// refuses a waiver), takes the step back with undo_step, makes a small
// move and submits: one iteration, kept. Its history (steps, a refused
// submit, an undo) is one the replay test holds.
func TestStepsWithARefusedSubmitAndAnUndoOnTheStack(t *testing.T) {
	conn := stack(t)
	ctx := context.Background()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	res, id := runWorkflow(t, scripted(t, "runner-refused-undo.yaml"), origin, "Move the slide 2 title a little to the right.")
	if res.Outcome != string(policy.Stopped) || len(res.Iterations) != 1 || !res.Iterations[0].GatePassed || res.Selected != 1 {
		t.Fatalf("result %+v", res)
	}
	recordHistory(t, id, "edit-steps-v3.json")
}
