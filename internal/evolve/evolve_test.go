package evolve_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tools"
)

// world is one test's bank (on disk), store with a real deck, and
// scripted model server.
type world struct {
	bank   *skills.Bank
	st     *store.Memory
	origin string
	srv    *llmtest.Server
	client *llm.Client
	rep    *editsReplayer
}

func newWorld(t *testing.T, steps []llmtest.Step) *world {
	t.Helper()
	ctx := context.Background()
	bank, err := skills.Open(ctx, skills.DirObjects(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	st := store.NewMemory()
	if err := store.PutBlobs(ctx, st, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, st, d)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, &llmtest.Script{Name: t.Name(), Steps: steps})
	c, err := llm.New(srv.Config("agent-m", "judge-m"))
	if err != nil {
		t.Fatal(err)
	}
	return &world{bank: bank, st: st, origin: origin, srv: srv, client: c, rep: &editsReplayer{st: st}}
}

// scripted is a client of a scripted server alone (no bank, no deck).
func scripted(t *testing.T, steps []llmtest.Step) *world {
	t.Helper()
	srv := llmtest.NewServer(t, &llmtest.Script{Name: t.Name(), Steps: steps})
	c, err := llm.New(srv.Config("agent-m", "judge-m"))
	if err != nil {
		t.Fatal(err)
	}
	return &world{srv: srv, client: c}
}

func (w *world) runner(since int64) *evolve.Runner {
	return &evolve.Runner{Bank: w.bank, LLM: w.client, Store: w.st, Replayer: w.rep,
		Tools: tools.Registry().Names(), Since: since, Log: func(string, ...any) {}}
}

// editsReplayer replays a record by applying a real tool call to its
// origin deck: speaker notes on slide 3 naming the arm, so each arm's
// deck differs and the judge sees a real diff. It records the skill set
// each arm was given.
type editsReplayer struct {
	st   store.Store
	mu   sync.Mutex
	arms []string // "record arm: skill@version ..."
}

func (e *editsReplayer) Replay(ctx context.Context, rec skills.TurnRecord, arm evolve.Arm) (string, error) {
	d, err := store.GetDeck(ctx, e.st, rec.DeckRef)
	if err != nil {
		return "", err
	}
	args, _ := json.Marshal(map[string]string{"slideId": "s3", "notes": arm.Name + " arm's notes for " + rec.ID})
	out, _, err := tools.Apply(d, []tools.Call{{Tool: "set_slide_properties", Args: args}}, tools.Options{})
	if err != nil {
		return "", err
	}
	var names []string
	for _, s := range arm.Skills {
		names = append(names, fmt.Sprintf("%s@%d", s.Name, s.Version))
	}
	e.mu.Lock()
	e.arms = append(e.arms, rec.ID+" "+arm.Name+": "+strings.Join(names, " "))
	e.mu.Unlock()
	return store.PutDeck(ctx, e.st, out)
}

func text(s string) llmtest.Step { return llmtest.Step{Text: s} }

// pair is the judge's two answers for one record: the proposal shown as
// A first, then as B.
func pair(first, second string) []llmtest.Step {
	return []llmtest.Step{
		text(`{"better": "` + first + `", "reason": "scripted ` + first + `"}`),
		text(`{"better": "` + second + `", "reason": "scripted ` + second + `"}`),
	}
}

var (
	win  = pair("A", "B")
	loss = pair("B", "A")
	tie  = pair("tie", "tie")
)

func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }

const notesSkill = `---
name: write-speaker-notes
description: add speaker notes to a slide, write presenter notes, summarise a slide in its notes, put talking points under a slide, fill in the notes of every slide, rewrite the notes for a presenter, notes for the speaker, what to say on this slide
tool_sequence: [get_page_structure, set_slide_properties]
status: candidate
version: 1
---

## When to use
A request asks for text the presenter reads, kept in a slide's notes rather than on the slide.

## Clarify before starting
Which slides, and whether existing notes are replaced or extended.

## Steps
1. get_page_structure with the slideId to read the slide's text and any notes.
2. set_slide_properties with slideId and notes holding the new text.

## Tips
Notes are plain text; keep them to what the presenter says.

## Error handling
| Situation | Action |
|---|---|
| unknown slideId | read the deck's slide ids again |
`

func gradeAnswer(labels ...string) string {
	var reqs []map[string]string
	for i, l := range labels {
		reqs = append(reqs, map[string]string{"text": fmt.Sprintf("requirement %d", i+1), "label": l, "reason": "scripted"})
	}
	return jsonText(map[string]any{"requirements": reqs, "aesthetic": 6})
}

func subtasksAnswer(label string) string {
	return jsonText(map[string]any{"subtasks": []map[string]string{{"label": label, "subtask": "write the presenter's notes for a slide"}}})
}

func notesRecord(w *world, id string, start int64) skills.TurnRecord {
	return skills.TurnRecord{ID: id, Instruction: "Add speaker notes to slide 3 (" + id + ").", DeckRef: w.origin,
		FinalRef: w.origin, Outcome: "budget", Covered: false, SkillsOn: true, StartedUnixMS: start,
		Tools: []skills.ToolUse{{Tool: "get_page_structure", OK: true}, {Tool: "set_slide_properties", OK: true}}}
}

// TestUncoveredSubtaskSeenThreeTimesMintsACandidate: two records with an
// uncovered "write-speaker-notes" subtask pool it without minting; the
// third makes it ripe (k_min 3), the distiller mints a candidate, the
// gate replays the cluster with the candidate alone against no skill,
// and the candidate, winning one record and losing none, is committed as
// stable v1 and its pool entry consumed.
func TestUncoveredSubtaskSeenThreeTimesMintsACandidate(t *testing.T) {
	steps := []llmtest.Step{
		text(gradeAnswer("met", "not_met", "partial")), text(gradeAnswer("not_met", "met", "met")),
		text(subtasksAnswer("write-speaker-notes")), text(subtasksAnswer("write-speaker-notes")),
		// round 2: the third record
		text(gradeAnswer("met", "met", "not_met")), text(subtasksAnswer("write-speaker-notes")),
		text(jsonText(map[string]string{"skill_md": notesSkill})),
	}
	steps = append(steps, slices.Concat(win, tie, tie)...)
	w := newWorld(t, steps)
	ctx := context.Background()
	for i, id := range []string{"r1", "r2"} {
		if err := w.bank.PutRecord(ctx, notesRecord(w, id, int64(i+1))); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := w.runner(0).Run(ctx, "round-1", false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Graded != 2 || len(rep.Plan.Mint) != 0 || len(rep.Decisions) != 0 {
		t.Fatalf("round 1 with 2 occurrences: %+v", rep)
	}
	pool, _ := w.bank.Coverage(ctx)
	if e := pool["write-speaker-notes"]; !slices.Equal(e.Records, []string{"r1", "r2"}) {
		t.Fatalf("pool after round 1: %+v", pool)
	}
	since := time.Now().UnixMilli()
	time.Sleep(2 * time.Millisecond) // the third record is graded strictly after round 1
	if err := w.bank.PutRecord(ctx, notesRecord(w, "r3", 3)); err != nil {
		t.Fatal(err)
	}
	rep, err = w.runner(since).Run(ctx, "round-2", false)
	if err != nil {
		t.Fatalf("%v (server: %v)", err, w.srv.Errors())
	}
	if len(rep.Plan.Mint) != 1 || !slices.Equal(rep.Plan.Mint[0].Records, []string{"r1", "r2", "r3"}) {
		t.Fatalf("round 2 plan: %+v", rep.Plan)
	}
	// The distiller saw the cluster's three instructions.
	reqs := w.srv.Requests()
	distill := reqs[6].Chat.Messages
	for _, id := range []string{"r1", "r2", "r3"} {
		if !strings.Contains(distill[len(distill)-1].Content, "Add speaker notes to slide 3 ("+id+")") {
			t.Errorf("the distiller was not shown record %s", id)
		}
	}
	if len(rep.Decisions) != 1 || !rep.Decisions[0].Accepted || rep.Decisions[0].Kind != skills.ChangeMint {
		t.Fatalf("decisions %+v, gave up %v", rep.Decisions, rep.GaveUp)
	}
	s, err := w.bank.Get(ctx, "write-speaker-notes")
	if err != nil || s.Version != 1 || s.Status != skills.StatusStable {
		t.Fatalf("minted skill %+v, %v", s, err)
	}
	hist, _ := w.bank.History(ctx, "write-speaker-notes")
	if len(hist) != 1 || hist[0].Kind != skills.ChangeMint || hist[0].Round != "round-2" {
		t.Errorf("history %+v", hist)
	}
	// Candidate alone against no skill, three records in pool order.
	want := []string{
		"r1 proposal: write-speaker-notes@1", "r1 baseline: ",
		"r2 proposal: write-speaker-notes@1", "r2 baseline: ",
		"r3 proposal: write-speaker-notes@1", "r3 baseline: ",
	}
	if !slices.Equal(w.rep.arms, want) {
		t.Errorf("replayed arms %q, want %q", w.rep.arms, want)
	}
	if pool, _ = w.bank.Coverage(ctx); len(pool["write-speaker-notes"].Records) != 0 {
		t.Errorf("the minted label's pool entry was not consumed: %+v", pool)
	}
	if n := w.srv.Unserved(); n != 0 {
		t.Errorf("%d scripted answers unused", n)
	}
}

// rewriteWorld is a bank whose seed skill table-cell-edits was starred
// by two successes and two failures (Fails 2: selected), a reflector that
// proposes a revised Tips section, and the judge's answers for the four
// replayed records.
func rewriteWorld(t *testing.T, judged ...[]llmtest.Step) (*world, skills.Skill, skills.Skill) {
	t.Helper()
	ctx := context.Background()
	seed, err := skills.Seed()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(seed, func(s skills.Skill) bool { return s.Name == "table-cell-edits" })
	if i < 0 {
		t.Fatal("the seed bank has no table-cell-edits")
	}
	cur := seed[i]
	cur.Version = 1
	next := cur
	next.Body = strings.Replace(cur.Body, "## Tips\n", "## Tips\nRead the table's row count before inserting, and insert before filling.\n", 1)
	steps := []llmtest.Step{text(jsonText(map[string]string{"section": "Tips", "change": "insert before filling", "skill_md": string(next.Format())}))}
	for _, j := range judged {
		steps = append(steps, j...)
	}
	w := newWorld(t, steps)
	for i, s := range []float64{0.9, 0.8, 0.3, 0.2} {
		rec := skills.TurnRecord{ID: fmt.Sprintf("t%d", i+1), Instruction: fmt.Sprintf("Update the table on slide %d.", i+2),
			DeckRef: w.origin, FinalRef: w.origin, Covered: true, StartedUnixMS: int64(i + 1),
			Retrieved: []skills.Scored{{Name: "table-cell-edits", Version: 1, Score: 0.5, Starred: true}},
			Tools:     []skills.ToolUse{{Tool: "set_table_cells", OK: s > 0.5}},
			Grade: &skills.Grade{S: s, Success: skills.Succeeded(s), GradedUnixMS: 1000,
				Requirements: []skills.Requirement{{Text: "the cell holds the new value", Label: skills.OutcomeNotMet, Reason: "row missing"}}}}
		if err := w.bank.PutRecord(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	next.Version = 2
	return w, cur, next
}

// TestGateAcceptsARewriteThatWinsOneAndLosesNone: an accepted rewrite
// bumps the version, resets the stats (EMA 0.5, fails 0, rejects 0) and
// logs the gate with both texts; the arms were V2 against V1.
func TestGateAcceptsARewriteThatWinsOneAndLosesNone(t *testing.T) {
	w, cur, next := rewriteWorld(t, tie, win, tie, tie)
	ctx := context.Background()
	before, _ := w.bank.Stats(ctx, "table-cell-edits")
	before.ConsecutiveGateRejects = 1
	if err := w.bank.PutStats(ctx, before); err != nil {
		t.Fatal(err)
	}
	rep, err := w.runner(2000).Run(ctx, "round-a", false)
	if err != nil {
		t.Fatalf("%v (server: %v)", err, w.srv.Errors())
	}
	if !slices.Equal(rep.Plan.Rewrite, []string{"table-cell-edits"}) || len(rep.Decisions) != 1 || !rep.Decisions[0].Accepted {
		t.Fatalf("report %+v", rep)
	}
	got, _ := w.bank.Get(ctx, "table-cell-edits")
	if got.Version != 2 || string(got.Format()) != string(next.Format()) {
		t.Fatalf("current version %d:\n%s", got.Version, got.Format())
	}
	st, _ := w.bank.Stats(ctx, "table-cell-edits")
	if st.QualityEMA != 0.5 || st.Fails != 0 || st.Successes != 0 || st.ConsecutiveGateRejects != 0 {
		t.Errorf("stats after an accepted rewrite: %+v", st)
	}
	logs, _ := w.bank.GateLogs(ctx, "round-a")
	if len(logs) != 1 || !logs[0].Accepted || logs[0].Before != string(cur.Format()) || logs[0].After != string(next.Format()) {
		t.Fatalf("gate log %+v", logs)
	}
	rs := logs[0].Records
	if len(rs) != 4 || rs[1].RecordID != "t2" || rs[1].Wins != 2 || rs[1].R != 1 || rs[0].Ties != 2 {
		t.Errorf("gate records %+v", rs)
	}
	// Replay set: the two best (t1, t2) and the two worst (t3, t4); V2
	// against V1 on each.
	// An arm runs with the whole offered bank, the rewritten skill at its
	// arm's version.
	if len(w.rep.arms) != 8 || !strings.HasPrefix(w.rep.arms[0], "t1 proposal: ") || !strings.Contains(w.rep.arms[0]+" ", " table-cell-edits@2 ") ||
		!strings.HasPrefix(w.rep.arms[1], "t1 baseline: ") || !strings.Contains(w.rep.arms[1]+" ", " table-cell-edits@1 ") {
		t.Errorf("arms %q", w.rep.arms)
	}
	// The pairwise judge saw each arm's notes edit, in both orders.
	reqs := w.srv.Requests()
	first, second := reqs[1].Chat.Messages[1].Content, reqs[2].Chat.Messages[1].Content
	if strings.Index(first, "proposal arm's notes") > strings.Index(first, "baseline arm's notes") ||
		strings.Index(second, "proposal arm's notes") < strings.Index(second, "baseline arm's notes") {
		t.Error("the two judging orders do not swap the arms")
	}
}

// TestGateRejectsARegressionAndLeavesTheBankUnchanged: one record won,
// one lost: rejected; the bank's versions are untouched, the gate log
// holds the before/after texts, the rewrite's reject counter rises once
// however often the decision is applied or the round re-run.
func TestGateRejectsARegressionAndLeavesTheBankUnchanged(t *testing.T) {
	w, cur, next := rewriteWorld(t, win, loss, tie, tie)
	ctx := context.Background()
	rep, err := w.runner(2000).Run(ctx, "round-r", false)
	if err != nil {
		t.Fatalf("%v (server: %v)", err, w.srv.Errors())
	}
	if len(rep.Decisions) != 1 || rep.Decisions[0].Accepted || !strings.Contains(rep.Decisions[0].Reason, "regressed on 1 of 4 records: [t2 (r 0.00)]") {
		t.Fatalf("decisions %+v", rep.Decisions)
	}
	vs, _ := w.bank.Versions(ctx, "table-cell-edits")
	got, _ := w.bank.Get(ctx, "table-cell-edits")
	if !slices.Equal(vs, []int{1}) || string(got.Format()) != string(cur.Format()) {
		t.Fatalf("the bank changed: versions %v", vs)
	}
	logs, _ := w.bank.GateLogs(ctx, "round-r")
	if len(logs) != 1 || logs[0].Accepted || logs[0].Before != string(cur.Format()) || !strings.Contains(logs[0].After, "Read the table's row count") {
		t.Fatalf("gate log %+v", logs)
	}
	st, _ := w.bank.Stats(ctx, "table-cell-edits")
	if st.ConsecutiveGateRejects != 1 || st.Fails != 2 {
		t.Fatalf("stats %+v", st)
	}
	// Applying the same decision again (a retried activity) and re-running
	// the round change nothing and call no model.
	next.Version = 2
	o := evolve.Outcome{Proposal: evolve.Proposal{Kind: skills.ChangeRewrite, Skill: next, Before: &cur},
		Records: logs[0].Records, Decision: evolve.Decide(logs[0].Records), AtUnixMS: logs[0].AtUnixMS}
	if _, err := evolve.Apply(ctx, w.bank, "round-r", o); err != nil {
		t.Fatal(err)
	}
	calls := len(w.srv.Requests())
	if _, err := w.runner(2000).Run(ctx, "round-r", false); err != nil {
		t.Fatal(err)
	}
	if n := len(w.srv.Requests()); n != calls {
		t.Errorf("re-running a finished round made %d model calls", n-calls)
	}
	st, _ = w.bank.Stats(ctx, "table-cell-edits")
	logs, _ = w.bank.GateLogs(ctx, "")
	if st.ConsecutiveGateRejects != 1 || len(logs) != 1 {
		t.Errorf("after a retry: rejects %d, %d gate logs", st.ConsecutiveGateRejects, len(logs))
	}
}

// TestGateRejectsAllTies: a rewrite that ties every record is refused.
func TestGateRejectsAllTies(t *testing.T) {
	w, cur, _ := rewriteWorld(t, tie, tie, pair("A", "A"), tie)
	ctx := context.Background()
	rep, err := w.runner(2000).Run(ctx, "round-t", false)
	if err != nil {
		t.Fatalf("%v (server: %v)", err, w.srv.Errors())
	}
	if len(rep.Decisions) != 1 || rep.Decisions[0].Accepted || !strings.Contains(rep.Decisions[0].Reason, "all 4 records tied") {
		t.Fatalf("decisions %+v", rep.Decisions)
	}
	got, _ := w.bank.Get(ctx, "table-cell-edits")
	if got.Version != 1 || string(got.Format()) != string(cur.Format()) {
		t.Fatal("an all-ties rewrite changed the bank")
	}
}

// TestDryRunPlansWithoutProposing: a dry run selects the failing skill
// and stops there: no reflector call, no round log, the bank unchanged.
func TestDryRunPlansWithoutProposing(t *testing.T) {
	w, _, _ := rewriteWorld(t)
	ctx := context.Background()
	rep, err := w.runner(2000).Run(ctx, "round-d", true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Plan.Rewrite, []string{"table-cell-edits"}) || len(rep.Decisions) != 0 {
		t.Fatalf("dry run report %+v", rep)
	}
	if n := len(w.srv.Requests()); n != 0 {
		t.Errorf("a dry run made %d model calls", n)
	}
	if _, err := w.bank.Round(ctx, "round-d"); !errors.Is(err, skills.ErrNotFound) {
		t.Errorf("a dry run wrote a round log (%v)", err)
	}
	if st, _ := w.bank.Stats(ctx, "table-cell-edits"); st.Fails != 2 || st.Successes != 2 {
		t.Errorf("binned stats %+v", st)
	}
}

// TestARoundResumedAfterACommitDoesNotCommitAgain: a worker that died
// after committing a rewrite but before logging the decision leaves the
// version in the bank's history with the round id; the round run again
// does not propose that skill again (no model call, no v3).
func TestARoundResumedAfterACommitDoesNotCommitAgain(t *testing.T) {
	w, _, next := rewriteWorld(t)
	ctx := context.Background()
	if err := w.bank.Commit(ctx, next, skills.Change{Kind: skills.ChangeRewrite, Round: "round-c", Reason: "accepted before the crash"}); err != nil {
		t.Fatal(err)
	}
	// The records starred v1; make them v2's so the skill is selected again.
	records, _ := w.bank.Records(ctx)
	for _, r := range records {
		r.Retrieved[0].Version = 2
		if err := w.bank.PutRecord(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := w.runner(2000).Run(ctx, "round-c", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Plan.Rewrite) != 0 || len(w.srv.Requests()) != 0 {
		t.Fatalf("the resumed round proposed again: plan %+v, %d model calls", rep.Plan, len(w.srv.Requests()))
	}
	if vs, _ := w.bank.Versions(ctx, "table-cell-edits"); !slices.Equal(vs, []int{1, 2}) {
		t.Errorf("versions %v, want [1 2]", vs)
	}
	// A later round may rewrite it again.
	if rep, err := w.runner(2000).Run(ctx, "round-next", true); err != nil || !slices.Equal(rep.Plan.Rewrite, []string{"table-cell-edits"}) {
		t.Errorf("a later round's plan %+v, %v", rep.Plan, err)
	}
}
