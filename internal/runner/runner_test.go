package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/store"
)

var pool *render.Pool

func TestMain(m *testing.M) {
	p, err := render.NewPool(context.Background(), render.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "runner tests need headless Chromium:", err)
		os.Exit(1)
	}
	pool = p
	code := m.Run()
	pool.Close()
	os.Exit(code)
}

func scriptPath(t testing.TB, name string) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "scripts", name)
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("go.mod not found")
		}
		dir = filepath.Dir(dir)
	}
}

type fixture struct {
	srv    *llmtest.Server
	steps  *runner.Steps
	origin string
	deck   *scenegraph.Deck
}

// setup stores a generated deck and points the steps at the scripted server.
func setup(t *testing.T, script string, seed uint64, slides int, tweak func(*llm.Config)) *fixture {
	t.Helper()
	srv := llmtest.Load(t, scriptPath(t, script))
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	if tweak != nil {
		tweak(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := store.NewMemory()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: slides, Seed: seed})
	ctx := context.Background()
	if err := store.PutBlobs(ctx, st, blobs); err != nil {
		t.Fatal(err)
	}
	ref, err := store.PutDeck(ctx, st, d)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{srv: srv, steps: &runner.Steps{Store: st, LLM: c, Renderer: pool}, origin: ref, deck: d}
}

func (f *fixture) run(t *testing.T, instruction string, cfg policy.Config) *editloop.Record {
	t.Helper()
	return f.runWith(t, editloop.Request{Instruction: instruction, Policy: cfg})
}

// runWith runs req on the fixture's deck.
func (f *fixture) runWith(t *testing.T, req editloop.Request) *editloop.Record {
	t.Helper()
	req.DeckRef = f.origin
	rec, err := runner.Run(context.Background(), f.steps, req)
	if err != nil {
		t.Fatalf("run: %v\nrecord: %s", err, dump(rec))
	}
	if errs := f.srv.Errors(); len(errs) > 0 {
		t.Fatalf("script could not answer: %v", errs)
	}
	return rec
}

func (f *fixture) final(t *testing.T, rec *editloop.Record) *scenegraph.Deck {
	t.Helper()
	d, err := store.GetDeck(context.Background(), f.steps.Store, rec.Final)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func dump(v any) string { b, _ := json.MarshalIndent(v, "", "  "); return string(b) }

func text(d *scenegraph.Deck, id string) string {
	n := scenegraph.NewIndex(d).Node(id)
	if n == nil {
		return "<missing>"
	}
	return n.Characters
}

func TestStopsAfterIterationOneWhenJudgeGivesFour(t *testing.T) {
	f := setup(t, "runner-stop-at-4.yaml", 1, 6, nil)
	rec := f.run(t, "Rename the title on slide 2 to 'Pricing experiments and results'.", policy.Config{})
	if len(rec.Iterations) != 1 || rec.Outcome != "stopped" || rec.Selected != 1 {
		t.Fatalf("want one iteration, stopped, iteration 1 selected; got %d, %s, %d\n%s", len(rec.Iterations), rec.Outcome, rec.Selected, dump(rec))
	}
	if got := text(f.final(t, rec), "s2-t5"); got != "Pricing experiments and results" {
		t.Fatalf("final title %q", got)
	}
	it := rec.Iterations[0]
	if !it.Rendered || !it.GatePassed || it.Score == nil || *it.Score != 4 || it.Decision.Action != policy.Stop {
		t.Fatalf("iteration %s", dump(it))
	}
	// Usage per call and per task, and cost from the price table.
	// The router, the agent's edit and its submit, the judge, and the
	// critic's group calls (1 to 5: its scheduler picks 3-5 checks).
	critic := 0
	for _, c := range rec.Calls() {
		if strings.HasPrefix(c.Purpose, "critic-") {
			critic++
		}
	}
	if critic < 1 || critic > 5 || rec.Usage.Calls != 4+critic || rec.Usage.PromptTokens != 800+9000+1500 || rec.Usage.CachedPromptTokens != 6000 || rec.Usage.CompletionTokens != 30+120+40 {
		t.Fatalf("task usage %+v", rec.Usage)
	}
	if rec.Usage.CostUSD != 0 || rec.Usage.Unpriced != 3 {
		t.Fatalf("test models have no price: cost must be 0 and counted unpriced, got %+v", rec.Usage)
	}
	if len(f.srv.RequestsFor("agent-m")) != 2 || f.srv.Unserved() != 0 {
		t.Fatalf("agent requests %d, unserved steps %d", len(f.srv.RequestsFor("agent-m")), f.srv.Unserved())
	}
}

func TestCostFromPriceTable(t *testing.T) {
	f := setup(t, "runner-stop-at-4.yaml", 1, 6, func(c *llm.Config) {
		c.Prices = llm.Prices{"agent-m": {Input: 2, CachedInput: 0.5, Output: 8}, "judge-m": {Input: 0.4, CachedInput: 0.1, Output: 1.6}}
	})
	rec := f.run(t, "Rename the title on slide 2 to 'Pricing experiments and results'.", policy.Config{})
	act := rec.Iterations[0].LLM[0]
	wantAct := (3000*2 + 6000*0.5 + 120*8) / 1e6
	if act.Purpose != "act" || !act.Priced || abs(act.CostUSD-wantAct) > 1e-12 {
		t.Fatalf("act call %+v, want cost %v", act, wantAct)
	}
	wantJudge := (1500*0.4 + 40*1.6) / 1e6
	if abs(rec.Usage.CostUSD-(wantAct+wantJudge)) > 1e-12 || rec.Usage.Unpriced != 1 { // the router model is unpriced
		t.Fatalf("task cost %+v, want %v", rec.Usage, wantAct+wantJudge)
	}
}

// textColour is the hex of a text node's base text fill ("" when unset).
func textColour(n *scenegraph.Node) string {
	if n == nil || n.Style == nil || len(n.Style.Fills) == 0 || n.Style.Fills[0].Color == nil {
		return ""
	}
	return n.Style.Fills[0].Color.Hex()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestContinuesOnThreeWithTheCritiqueVerbatim(t *testing.T) {
	f := setup(t, "runner-continue.yaml", 1, 6, nil)
	rec := f.run(t, "Rename the title on slide 2 to 'Pricing experiments and results' and make it navy.", policy.Config{})
	if len(rec.Iterations) != 2 || rec.Selected != 2 || rec.Outcome != "stopped" {
		t.Fatalf("record %s", dump(rec))
	}
	if rec.Iterations[0].Decision.Action != policy.Continue {
		t.Fatalf("iteration 1 decision %+v", rec.Iterations[0].Decision)
	}
	critique := "The title on slide 2 was renamed, but it is still the old colour instead of navy #1F4E79."
	reqs := f.srv.RequestsFor("agent-m")
	if len(reqs) != 4 { // an edit and a submit per iteration
		t.Fatalf("agent requests %d", len(reqs))
	}
	user := reqs[2].Chat.Messages[1].Content
	if !strings.Contains(user, critique) {
		t.Fatalf("the second agent request lacks the critique verbatim:\n%s", user)
	}
	if strings.Contains(reqs[0].Chat.Messages[1].Content, critique) {
		t.Fatal("the first request cannot carry a critique")
	}
	// State accumulates: iteration 2 started from iteration 1's snapshot.
	if rec.Iterations[1].Base != rec.Iterations[0].Snapshot {
		t.Fatal("iteration 2 did not continue from iteration 1")
	}
	d := f.final(t, rec)
	n := scenegraph.NewIndex(d).Node("s2-t5")
	if n.Characters != "Pricing experiments and results" || textColour(n) != "#1F4E79" {
		t.Fatalf("final title %q colour %s", n.Characters, textColour(n))
	}
}

func TestReturnsIterationTwoWhenIterationThreeDeclines(t *testing.T) {
	f := setup(t, "runner-rollback.yaml", 1, 6, nil)
	rec := f.run(t, "Give slide 2 a shorter title that names the quarter.", policy.Config{})
	if len(rec.Iterations) != 3 || rec.Selected != 2 || rec.Outcome != "budget" {
		t.Fatalf("record %s", dump(rec))
	}
	if got := text(f.final(t, rec), "s2-t5"); got != "Version B" {
		t.Fatalf("final title %q, want iteration 2's", got)
	}
	if rec.Final != rec.Iterations[1].Snapshot {
		t.Fatal("final snapshot is not iteration 2's")
	}
}

func TestRollbackContinuesFromTheBestEarlierSnapshot(t *testing.T) {
	f := setup(t, "runner-rollback.yaml", 1, 6, nil)
	rec := f.run(t, "Give slide 2 a shorter title that names the quarter.", policy.Config{MaxIterations: 4})
	if len(rec.Iterations) != 4 || rec.Iterations[2].Decision.Action != policy.Rollback {
		t.Fatalf("record %s", dump(rec))
	}
	if rec.Iterations[3].Base != rec.Iterations[1].Snapshot {
		t.Fatal("iteration 4 must start from iteration 2's snapshot after the rollback")
	}
	// The agent saw iteration 2's state: its context has "Version B", not "Version C".
	user := f.srv.RequestsFor("agent-m")[6].Chat.Messages[1].Content
	if !strings.Contains(user, "Version B") || strings.Contains(user, "Version C") {
		t.Fatalf("rolled-back context wrong:\n%s", user)
	}
	if got := text(f.final(t, rec), "s2-t5"); got != "Version D" || rec.Selected != 4 {
		t.Fatalf("final %q selected %d", got, rec.Selected)
	}
}

func TestAnIterationWithANewViolationIsNeverReturned(t *testing.T) {
	f := setup(t, "runner-gate.yaml", 1, 6, nil)
	// Two steps an iteration: the refused submit ends iteration 1 with the
	// title past the slide edge, so the loop's gate rolls it back.
	rec := f.runWith(t, editloop.Request{Instruction: "Move the slide 2 title a little to the right.", MaxSteps: 2})
	if len(rec.Iterations) != 2 {
		t.Fatalf("record %s", dump(rec))
	}
	bad := rec.Iterations[0]
	if bad.GatePassed || len(bad.NewViolations) == 0 || *bad.Score != 5 || bad.Decision.Action != policy.Rollback || bad.Decision.Base != rec.Origin {
		t.Fatalf("iteration 1 must fail the gate despite IF 5 and roll back to the origin: %s", dump(bad))
	}
	if rec.Selected != 2 || rec.Final != rec.Iterations[1].Snapshot || !rec.Iterations[1].GatePassed {
		t.Fatalf("selected %d", rec.Selected)
	}
	// The violation went back to the agent with the critique.
	user := f.srv.RequestsFor("agent-m")[2].Chat.Messages[1].Content
	if !strings.Contains(user, "Your edit of iteration 1 was undone") || !strings.Contains(user, bad.NewViolations[0]) {
		t.Fatalf("violations not forwarded:\n%s", user)
	}
}

func TestGateFailuresOnlyLeaveTheOrigin(t *testing.T) {
	f := setup(t, "runner-gate.yaml", 1, 6, nil)
	rec := f.runWith(t, editloop.Request{Instruction: "Move the slide 2 title a little to the right.", Policy: policy.Config{MaxIterations: 1}, MaxSteps: 2})
	if rec.Selected != 0 || rec.Final != rec.Origin || rec.Outcome != "gate_blocked" {
		t.Fatalf("a lone gate failure must leave the origin: %s", dump(rec))
	}
}

func TestAgentSeesOnlyTheRoutedContextAndAStablePrefix(t *testing.T) {
	f := setup(t, "runner-continue.yaml", 1, 6, nil)
	rec := f.run(t, "Rename the title on slide 2 to 'Pricing experiments and results' and make it navy.", policy.Config{})
	reqs := f.srv.RequestsFor("agent-m")

	// The user message carries exactly the routed context of the state the
	// iteration started from, and nothing of the untargeted slides.
	if rec.Route.Decision.Mode != route.Micro {
		t.Fatalf("route %+v", rec.Route.Decision)
	}
	want, err := route.Context(f.deck, rec.Route.Decision)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(reqs[0].Chat.Messages[1].Content, want) {
		t.Fatalf("request 1 does not carry the routed context")
	}
	for _, other := range []string{"Middle East", "Quarterly trend", "Support tickets solved", "Customer Insights Briefing"} {
		if strings.Contains(string(reqs[0].Body), other) {
			t.Fatalf("request carries %q from a slide outside the route", other)
		}
	}
	if len(reqs[0].Chat.Messages) != 2 {
		t.Fatalf("a first round is system + user only, got %d messages", len(reqs[0].Chat.Messages))
	}

	// A second run on another deck with the same mode.
	g := setup(t, "runner-stop-at-4.yaml", 7, 9, nil)
	g.run(t, "Rename the title on slide 2 to 'Pricing experiments and results'.", policy.Config{})
	other := g.srv.RequestsFor("agent-m")[0]

	p0, t0 := prefix(t, reqs[0].Body)
	for i, r := range []llmtest.Recorded{reqs[1], other} {
		p, tl := prefix(t, r.Body)
		if p != p0 || tl != t0 {
			t.Fatalf("request %d: the system message or the tools differ from the first request's bytes", i+1)
		}
	}
	if len(t0) < 10000 {
		t.Fatalf("tools part is only %d bytes; the catalogue was not offered", len(t0))
	}
}

// prefix returns the raw bytes of the first message and of the tools array.
func prefix(t *testing.T, body []byte) (string, string) {
	t.Helper()
	var m struct {
		Messages []json.RawMessage `json:"messages"`
		Tools    json.RawMessage   `json:"tools"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return string(m.Messages[0]), string(m.Tools)
}

func TestFailuresAreHandledAndRecorded(t *testing.T) {
	f := setup(t, "runner-errors.yaml", 1, 6, func(c *llm.Config) { c.Timeout = time.Second })
	rec := f.run(t, "Make the slide 2 title navy and remove the left column on slide 3.", policy.Config{})
	if f.srv.Unserved() != 0 {
		t.Fatalf("%d script steps unused", f.srv.Unserved())
	}
	// 429 + Retry-After on the router call.
	r := rec.Route.LLM[0]
	if len(r.Attempts) != 2 || r.Attempts[0].Status != 429 || r.Attempts[0].WaitMS != 1000 {
		t.Fatalf("router call %+v", r)
	}
	it := rec.Iterations[0]
	// Timeout on the first agent attempt.
	act := it.LLM[0]
	if act.Purpose != "act" || len(act.Attempts) != 2 || !strings.Contains(act.Attempts[0].Error, "timed out") {
		t.Fatalf("act call %+v", act)
	}
	// Unknown tool, malformed arguments, stale id: told to the model and recorded.
	kinds := map[string]string{}
	for _, e := range it.ToolErrors {
		kinds[e.Kind] = e.Tool
	}
	if kinds["unknown_tool"] != "make_it_pretty" || kinds["malformed_arguments"] != "set_fill_color" || kinds["stale_id"] != "set_text_content" {
		t.Fatalf("tool errors %s", dump(it.ToolErrors))
	}
	agentReqs := f.srv.RequestsFor("agent-m")
	follow := agentReqs[len(agentReqs)-2].Chat.Messages // the turn after the broken calls
	var toolMsgs []string
	for _, m := range follow {
		if m.Role == "tool" {
			toolMsgs = append(toolMsgs, m.Content)
		}
	}
	if len(toolMsgs) != 4 || !strings.Contains(toolMsgs[0], "unknown tool") || !strings.Contains(toolMsgs[1], "not a valid JSON object") || !strings.Contains(toolMsgs[3], "s3-t6") {
		t.Fatalf("the follow-up round must carry one tool result per call:\n%s", strings.Join(toolMsgs, "\n"))
	}
	if it.Turns != 3 || it.ToolCalls != 2 {
		t.Fatalf("turns %d, applied calls %d", it.Turns, it.ToolCalls)
	}
	// 500 on the judge, retried.
	var judgeCall *llm.Call
	for i := range it.LLM {
		if it.LLM[i].Purpose == "judge-if" {
			judgeCall = &it.LLM[i]
		}
	}
	if judgeCall == nil || len(judgeCall.Attempts) != 2 || judgeCall.Attempts[0].Status != 500 {
		t.Fatalf("judge call %+v", judgeCall)
	}
	d := f.final(t, rec)
	ix := scenegraph.NewIndex(d)
	if ix.Node("s3-t6") != nil || textColour(ix.Node("s2-t5")) != "#1F4E79" {
		t.Fatal("the valid calls did not all apply")
	}
	if rec.Usage.PromptTokens != 9000+9600+1400 || rec.Usage.CachedPromptTokens != 9000 {
		t.Fatalf("usage %+v", rec.Usage)
	}
}

func TestNoModelFailsFastWithAClearError(t *testing.T) {
	f := setup(t, "runner-stop-at-4.yaml", 1, 6, func(c *llm.Config) { c.AgentModel, c.JudgeModel, c.RouterModel = "", "", "" })
	rec, err := runner.Run(context.Background(), f.steps, editloop.Request{DeckRef: f.origin, Instruction: "Make titles bold."})
	if !errors.Is(err, llm.ErrNoModel) || !strings.Contains(err.Error(), "ACE_AGENT_MODEL") {
		t.Fatalf("want ErrNoModel naming ACE_AGENT_MODEL, got %v", err)
	}
	if rec.Outcome != "failed" || len(f.srv.Requests()) != 0 || rec.Final != f.origin {
		t.Fatalf("record %s, requests %d", dump(rec), len(f.srv.Requests()))
	}
}

func TestNaturalLanguageEditOnARealDeck(t *testing.T) {
	path := filepath.Join(shareddecks.PPTXDir(t), "build_effective_agents.pptx")
	d, blobs, err := deckio.Load(path)
	if err != nil {
		t.Skipf("real deck not available: %v", err)
	}
	if len(d.Slides) < 2 {
		t.Fatalf("deck has %d slides", len(d.Slides))
	}
	// The first text node of slide 2 is what the scripted agent retitles.
	var target string
	d.Slides[1].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if target == "" && n.Characters != "" {
			target = n.ID
		}
		return target == ""
	})
	if target == "" {
		t.Fatal("slide 2 has no text")
	}
	srv, st, ref := realDeckScript(t, d, blobs, `
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: router-m
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "slide 2"}'
  - model: agent-m
    tool_calls: [{name: set_text_content, arguments: {nodeId: "`+target+`", text: "Agents, simply"}}]
  - model: agent-m
    tool_calls: [{name: submit}]
  - model: judge-m
    text: '{"instruction_following_score": 4, "instruction_following_reason": "Retitled as asked."}'
`)
	ctx := context.Background()
	steps := &runner.Steps{Store: st, LLM: srv.client, Renderer: pool}
	rec, err := runner.Run(ctx, steps, editloop.Request{DeckRef: ref, Instruction: "Retitle slide 2 to 'Agents, simply'."})
	if err != nil {
		t.Fatalf("%v\n%s", err, dump(rec))
	}
	req := srv.RequestsFor("agent-m")[0]
	if !strings.Contains(req.Chat.Messages[1].Content, target) {
		t.Fatal("the routed context lacks the target node")
	}
	if req.Chat.Messages[0].Content != agent.Prefix(agent.ModeMicro) {
		t.Fatal("the system message on a real deck is not the mode's byte-stable prefix")
	}
	if rec.Outcome == "stopped" {
		final, _ := store.GetDeck(ctx, st, rec.Final)
		if got := scenegraph.NewIndex(final).Node(target).Characters; got != "Agents, simply" {
			t.Fatalf("title %q", got)
		}
	} else if rec.Outcome != "budget" && rec.Outcome != "gate_blocked" {
		t.Fatalf("outcome %s: %s", rec.Outcome, rec.Reason)
	}
	t.Logf("real deck %s: %d slides, outcome %s, context %d bytes, gate %v %v", filepath.Base(path), len(d.Slides), rec.Outcome, rec.Iterations[0].ContextBytes, rec.Iterations[0].GatePassed, rec.Iterations[0].NewViolations)
}

func TestContextLengthIsAClearNonRetriedError(t *testing.T) {
	f := setup(t, "runner-context-length.yaml", 1, 6, nil)
	rec, err := runner.Run(context.Background(), f.steps, editloop.Request{DeckRef: f.origin, Instruction: "Rewrite every slide in French."})
	if !errors.Is(err, llm.ErrContextLength) || !strings.Contains(err.Error(), "41210") {
		t.Fatalf("want ErrContextLength with the server's numbers, got %v", err)
	}
	if len(f.srv.RequestsFor("agent-m")) != 1 || rec.Outcome != "failed" || rec.Final != rec.Origin {
		t.Fatalf("record %s", dump(rec))
	}
	if c := rec.Iterations[0].LLM[0]; len(c.Attempts) != 1 || c.Attempts[0].Status != 400 || c.Error == "" {
		t.Fatalf("the failed call must be in the record: %+v", c)
	}
}

func TestJudgeOutageLeavesTheScoreMissingAndIsRecorded(t *testing.T) {
	f := setup(t, "runner-judge-down.yaml", 1, 6, nil)
	rec := f.run(t, "Retitle slide 2.", policy.Config{})
	it := rec.Iterations[0]
	if it.Score != nil || !it.JudgeMissing || len(it.Notes) == 0 || !strings.Contains(it.Notes[0], "after 5 attempts") {
		t.Fatalf("iteration %s", dump(it))
	}
	// Only the gate decided: the edit is kept, and the outcome says so.
	if rec.Outcome != "no_judge" || rec.Selected != 1 {
		t.Fatalf("record %s", dump(rec))
	}
}

func TestVQIsReportedNeverAStopSignalAndImagesOnlyForVisualDiffs(t *testing.T) {
	f := setup(t, "runner-vq.yaml", 1, 6, nil)
	rec, err := runner.Run(context.Background(), f.steps, editloop.Request{DeckRef: f.origin, Instruction: "Crop the logo on slide 1 to a square.", VQ: true})
	if err != nil {
		t.Fatalf("%v\n%s", err, dump(rec))
	}
	it := rec.Iterations[0]
	if len(rec.Iterations) != 1 || rec.Outcome != "stopped" || it.VQ == nil || *it.VQ != 1 || !strings.Contains(it.VQReason, "empty gap") {
		t.Fatalf("VQ 1 must be recorded and must not continue the loop: %s", dump(rec))
	}
	if !it.TouchesVisual {
		t.Fatalf("a crop should touch visual content: %s", dump(it))
	}
	for i, r := range f.srv.RequestsFor("judge-m") {
		if strings.Contains(r.Chat.Messages[1].Content, "CHECKS (group") {
			continue // the critic's calls: images go to its visual checks only
		}
		images := 0
		for _, p := range r.Chat.Messages[1].MultiContent {
			if p.ImageURL != nil && strings.HasPrefix(p.ImageURL.URL, "data:image/png;base64,iVBORw0KGgo") {
				images++
			}
		}
		if images != 1 {
			t.Fatalf("judge request %d carries %d rendered PNGs of the changed slide, want 1", i, images)
		}
	}

	// A text-only edit: the IF judge gets no images.
	g := setup(t, "runner-stop-at-4.yaml", 1, 6, nil)
	g.run(t, "Rename the title on slide 2.", policy.Config{})
	if mc := g.srv.RequestsFor("judge-m")[0].Chat.Messages[1].MultiContent; len(mc) != 0 {
		t.Fatal("images were sent for a diff without visual content")
	}
}

func TestALaterFailureKeepsTheBestEarlierIteration(t *testing.T) {
	f := setup(t, "runner-interrupted.yaml", 1, 6, nil)
	rec := f.run(t, "Retitle slide 2 and make it navy.", policy.Config{})
	if rec.Outcome != "interrupted" || rec.Selected != 1 || len(rec.Iterations) != 2 || !strings.Contains(rec.Reason, "Invalid") {
		t.Fatalf("record %s", dump(rec))
	}
	if got := text(f.final(t, rec), "s2-t5"); got != "Pricing, revisited" {
		t.Fatalf("final %q", got)
	}
}

// TestAnOverBudgetContextDegrades (issue 17 item 9): the router asks for
// FULL on career-tips (37 slides, about 100k o200k tokens of context); the
// agent's first request carries the MACRO skeleton within the default
// 32,000-token budget instead, with the MACRO system prefix and a note
// saying what happened, and the record keeps the mode it really got.
func TestAnOverBudgetContextDegrades(t *testing.T) {
	t.Setenv(route.ContextBudgetEnv, "")
	d, blobs, err := deckio.Load(filepath.Join(shareddecks.PPTXDir(t), "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	var target string
	d.Slides[1].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if target == "" && n.Characters != "" {
			target = n.ID
		}
		return target == ""
	})
	srv, st, ref := realDeckScript(t, d, blobs, `
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: router-m
    text: '{"mode": "FULL", "target_slides": [], "reason": "every slide"}'
  - model: agent-m
    tool_calls: [{name: set_text_content, arguments: {nodeId: "`+target+`", text: "Careers, simply"}}]
  - model: agent-m
    tool_calls: [{name: submit}]
  - model: judge-m
    text: '{"instruction_following_score": 4, "instruction_following_reason": "Done."}'
`)
	ctx := context.Background()
	rec, err := runner.Run(ctx, &runner.Steps{Store: st, LLM: srv.client}, editloop.Request{DeckRef: ref, Instruction: "Retitle slide 2 to 'Careers, simply'."})
	if err != nil {
		t.Fatalf("%v\n%s", err, dump(rec))
	}
	it := rec.Iterations[0]
	if it.Mode != string(route.Macro) || !strings.Contains(it.ContextNote, "FULL context") || !strings.Contains(it.ContextNote, "32000-token budget") {
		t.Fatalf("record: mode %s, note %q", it.Mode, it.ContextNote)
	}
	req := srv.RequestsFor("agent-m")[0].Chat
	if req.Messages[0].Content != agent.Prefix(agent.ModeMacro) {
		t.Error("the system message is not MACRO's prefix")
	}
	user := req.Messages[1].Content
	if !strings.Contains(user, it.ContextNote) || !strings.Contains(user, target) {
		t.Error("the first request lacks the note or the target node")
	}
	n, err := route.CountTokens(user, route.O200K)
	if err != nil {
		t.Fatal(err)
	}
	if n > route.DefaultContextBudget+2000 {
		t.Errorf("first user message %d tokens, budget %d", n, route.DefaultContextBudget)
	}
	t.Logf("career-tips FULL -> %s: first user message %d tokens", it.Mode, n)
}

// scriptedServer is a scripted model server and a client of it with the
// models agent-m, judge-m and router-m.
type scriptedServer struct {
	*llmtest.Server
	client *llm.Client
}

// realDeckScript serves script (YAML steps) to a client for the models
// agent-m, judge-m and router-m, and puts d and its pictures in a memory
// store, returning the server, the store and d's ref.
func realDeckScript(t *testing.T, d *scenegraph.Deck, blobs scenegraph.Blobs, script string) (scriptedServer, store.Store, string) {
	t.Helper()
	sc, err := llmtest.ParseScript([]byte(script), t.Name()+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, sc)
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := store.NewMemory()
	ctx := context.Background()
	if err := store.PutBlobs(ctx, st, blobs); err != nil {
		t.Fatal(err)
	}
	ref, err := store.PutDeck(ctx, st, d)
	if err != nil {
		t.Fatal(err)
	}
	return scriptedServer{srv, c}, st, ref
}
