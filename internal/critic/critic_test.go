package critic

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

const threeTurnInstruction = `On slide 13 sort the table rows by column A, largest first; on slide 16 change "89,526,124$" to "92,310,000$"; and delete slide 14.`

// callsOf renders a plan's group calls as "C01[C01.1,C01.2]@deck" or
// "D04[D04.1]@s13,s16".
func callsOf(p Plan) string {
	var parts []string
	for _, c := range p.Calls {
		scope := "deck"
		if !c.Deck {
			scope = strings.Join(c.Slides, ",")
		}
		parts = append(parts, fmt.Sprintf("%s[%s]@%s", c.Group, strings.Join(c.Checks, ","), scope))
	}
	return strings.Join(parts, " ")
}

// checkRequests asserts that the requests of one turn are one per group
// call, in plan order, each asking exactly its group's checks over its
// scope, with the instruction and the diff text, to the judge model in
// JSON mode.
func checkRequests(t *testing.T, lib *Library, reqs []llmtest.Recorded, p Plan, in TurnInput) {
	t.Helper()
	if len(reqs) != len(p.Calls) {
		t.Fatalf("turn %d: %d model requests for %d group calls", p.Turn, len(reqs), len(p.Calls))
	}
	diffLine := strings.SplitN(in.Diff, "\n", 2)[0]
	for i, c := range p.Calls {
		r := reqs[i].Chat
		if r.Model != "judge-m" || r.ResponseFormat == nil || len(r.Messages) != 2 {
			t.Fatalf("turn %d call %s: model %q, JSON %v, %d messages", p.Turn, c.Group, r.Model, r.ResponseFormat != nil, len(r.Messages))
		}
		user := r.Messages[1].Content
		if !strings.Contains(user, "CHECKS (group "+c.Group+", ") || !strings.Contains(user, in.Instruction) || !strings.Contains(user, diffLine) {
			t.Fatalf("turn %d call %s: request lacks its group, the instruction or the diff:\n%.600s", p.Turn, c.Group, user)
		}
		for _, g := range lib.Groups {
			for _, chk := range g.Checks {
				asked := strings.Contains(user, "- "+chk.ID+": "+chk.Text)
				if asked != slices.Contains(c.Checks, chk.ID) {
					t.Fatalf("turn %d call %s: check %s asked=%v, want %v", p.Turn, c.Group, chk.ID, asked, !asked)
				}
			}
		}
		want := "EXAMINE: the whole deck"
		if !c.Deck {
			want = "EXAMINE: slides " + strings.Join(c.Slides, ", ")
		}
		if !strings.Contains(user, want) {
			t.Fatalf("turn %d call %s: want %q in the request", p.Turn, c.Group, want)
		}
	}
}

// TestThreeTurns runs the critic over three turns of a real edit of
// career-tips.pptx, answered by the scripted model over real HTTP, and
// asserts the scheduler's picks, the mandatory re-checks, one model call
// per group, and every issue's status after each turn.
//
// Turn 1: the agent sorts column A of the slide 13 table without the
// other columns, changes the number on slide 16 and widens its box past
// the slide edge, and forgets to delete slide 14. The renderer's rules
// find the box past the edge (I1, G03.1; the overlap slide 16 already had
// is the deck's own and raises nothing); the model finds the missing
// deletion (I2 deck-level, I3 on s14) and the broken rows (I4).
// Turn 2: the agent deletes slide 14 and repairs the rows. I2 and I4 sit
// on modified slides and are re-checked whatever their score (mandatory);
// both pass, so they resolve. I3's slide is gone: dropped. Slide 16 was
// not touched or rendered: I1 persists.
// Turn 3: the agent narrows the box on slide 16 and mistypes a cell on
// slide 13. The renderer no longer finds the box past the edge: I1
// resolves. No issue is active on a modified slide, so nothing is
// mandatory, but the resolved I2 and I4 sit on edited slides and rank
// first; both fail again: regressed. C01.2 now fails on slide 13: a new
// issue I5.
func TestThreeTurns(t *testing.T) {
	c, srv := newCritic(t, "critic-three-turns.yaml")
	lib := Default()
	origin := careerTips(t)
	var l Ledger

	// ---- turn 1 ----
	d1, _ := edit(t, origin,
		call("set_table_cells", map[string]any{"tableId": "s13/255", "cells": []any{
			cell(1, 0, "Blue"), cell(1, 1, "30"), cell(2, 0, "Yellow"), cell(2, 1, "10")}}),
		call("set_text_content", map[string]any{"nodeId": "s16/291", "text": "92,310,000$"}),
		call("resize_node", map[string]any{"nodeId": "s16/291", "width": 900}))
	in1 := turnInput(t, 1, threeTurnInstruction, origin, origin, d1)
	if got := fmt.Sprint(in1.Edits.Slides, in1.Edits.Aspects); got != "[s13 s16] [text geometry table]" {
		t.Fatalf("turn 1 edits %s", got)
	}
	rep1, err := c.Turn(context.Background(), &l, in1)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing is on file yet: the picks are ranked by the edit's aspects
	// alone (C01 is asked of every edit; D04 by the table, F01 by the
	// text, F03 by the geometry change), one check per group first, then
	// the next check of an already-called group.
	if got := strings.Join(rep1.Plan.Checks(), " "); got != "C01.1 D04.1 F01.1 F03.1 C01.2" {
		t.Fatalf("turn 1 picks %s", got)
	}
	if len(rep1.Plan.Mandatory()) != 0 {
		t.Fatalf("turn 1 mandatory %v", rep1.Plan.Mandatory())
	}
	if got := callsOf(rep1.Plan); got != "C01[C01.1,C01.2]@deck D04[D04.1]@s13,s16 F01[F01.1]@s13,s16 F03[F03.1]@s13,s16" {
		t.Fatalf("turn 1 calls %s", got)
	}
	checkRequests(t, lib, srv.Requests(), rep1.Plan, in1)
	if got := statuses(&l); got != "I1:open I2:open I3:open I4:open" {
		t.Fatalf("after turn 1: %s", got)
	}
	i1, i2, i3, i4 := l.Issue("I1"), l.Issue("I2"), l.Issue("I3"), l.Issue("I4")
	if i1.Check != "G03.1" || i1.Slide != "s16" || i1.Subject != "out_of_bounds|s16|s16/291" || !i1.Hard ||
		!strings.Contains(i1.Evidence.Text, "outside the 960x540 slide") || len(i1.Evidence.Boxes) != 1 {
		t.Fatalf("I1 %+v", *i1)
	}
	if i2.Check != "C01.1" || i2.Slide != "" || i3.Check != "C01.2" || i3.Slide != "s14" ||
		i4.Check != "D04.1" || i4.Slide != "s13" || !slices.Equal(i4.Evidence.Nodes, []string{"s13/255/r1c2", "s13/255/r1c3"}) {
		t.Fatalf("turn 1 issues %+v", l.Issues)
	}
	if len(rep1.Calls) != 4 || llm.Sum(rep1.Calls).PromptTokens != 20300 || len(rep1.Problems) != 0 {
		t.Fatalf("turn 1: %d calls, usage %+v, problems %v", len(rep1.Calls), llm.Sum(rep1.Calls), rep1.Problems)
	}

	// ---- turn 2 ----
	d2, _ := edit(t, d1,
		call("delete_slide", map[string]any{"slideId": "s14"}),
		call("set_table_cells", map[string]any{"tableId": "s13/255", "cells": []any{
			cell(1, 2, "15"), cell(1, 3, "10"), cell(2, 2, "20"), cell(2, 3, "7")}}))
	in2 := turnInput(t, 2, threeTurnInstruction, origin, d1, d2)
	if got := fmt.Sprint(in2.Edits.Slides, in2.Edits.Aspects, in2.Rendered); got != "[s13 s14] [text slides table] [s13]" {
		t.Fatalf("turn 2 edits %s", got)
	}
	before := len(srv.Requests())
	rep2, err := c.Turn(context.Background(), &l, in2)
	if err != nil {
		t.Fatal(err)
	}
	// I2 (deck-level, and slides were modified) and I4 (on s13) must be
	// re-checked by their own checks; the slide deletion makes F04
	// relevant; C01.2 and D04.2 join calls already made.
	if got := strings.Join(rep2.Plan.Checks(), " "); got != "C01.1 D04.1 F04.1 C01.2 D04.2" {
		t.Fatalf("turn 2 picks %s", got)
	}
	if got := strings.Join(rep2.Plan.Mandatory(), " "); got != "C01.1 D04.1" {
		t.Fatalf("turn 2 mandatory %s", got)
	}
	if got := callsOf(rep2.Plan); got != "C01[C01.1,C01.2]@deck D04[D04.1,D04.2]@s13 F04[F04.1]@deck" {
		t.Fatalf("turn 2 calls %s", got)
	}
	checkRequests(t, lib, srv.Requests()[before:], rep2.Plan, in2)
	if got := statuses(&l); got != "I1:persisted I2:resolved I3:dropped I4:resolved" {
		t.Fatalf("after turn 2: %s", got)
	}

	// ---- turn 3 ----
	d3, _ := edit(t, d2,
		call("resize_node", map[string]any{"nodeId": "s16/291", "width": 800}),
		call("set_table_cells", map[string]any{"tableId": "s13/255", "cells": []any{cell(3, 1, "24")}}))
	in3 := turnInput(t, 3, threeTurnInstruction, origin, d2, d3)
	before = len(srv.Requests())
	rep3, err := c.Turn(context.Background(), &l, in3)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rep3.Plan.Checks(), " "); got != "C01.1 D04.1 C01.2 C02.1 C03.1" {
		t.Fatalf("turn 3 picks %s", got)
	}
	if len(rep3.Plan.Mandatory()) != 0 || !strings.Contains(rep3.Plan.Picks[1].Why, "resolved I4 sits on modified slide s13") {
		t.Fatalf("turn 3: mandatory %v, why D04.1: %q", rep3.Plan.Mandatory(), rep3.Plan.Picks[1].Why)
	}
	if got := callsOf(rep3.Plan); got != "C01[C01.1,C01.2]@deck C02[C02.1]@s13,s16 C03[C03.1]@s13,s16 D04[D04.1]@s13,s16" {
		t.Fatalf("turn 3 calls %s", got)
	}
	checkRequests(t, lib, srv.Requests()[before:], rep3.Plan, in3)
	if got := statuses(&l); got != "I1:resolved I2:regressed I3:dropped I4:regressed I5:open" {
		t.Fatalf("after turn 3: %s", got)
	}
	if i4 := l.Issue("I4"); i4.Regressions != 1 || i4.Changed != 3 || !strings.Contains(i4.Evidence.Text, "24, 24, 16") {
		t.Fatalf("I4 %+v", *i4)
	}
	// The model named slide 13 by number and the node in brackets.
	if i5 := l.Issue("I5"); i5.Check != "C01.2" || i5.Slide != "s13" || !slices.Equal(i5.Evidence.Nodes, []string{"s13/255/r3c1"}) || i5.Opened != 3 {
		t.Fatalf("I5 %+v", *i5)
	}
	wantChanges := []Change{
		{Issue: "I1", Check: "G03.1", Slide: "s16", From: StatusPersisted, To: StatusResolved},
		{Issue: "I2", Check: "C01.1", From: StatusResolved, To: StatusRegressed},
		{Issue: "I4", Check: "D04.1", Slide: "s13", From: StatusResolved, To: StatusRegressed},
		{Issue: "I5", Check: "C01.2", Slide: "s13", To: StatusOpen},
	}
	if !slices.Equal(rep3.Changes, wantChanges) {
		t.Fatalf("turn 3 changes %+v", rep3.Changes)
	}
	// The turn log keeps the scheduler's picks for the record.
	if len(l.Turns) != 3 || !slices.Equal(l.Turns[1].Mandatory, []string{"C01.1", "D04.1"}) || l.Turns[2].Calls != 4 {
		t.Fatalf("turn log %+v", l.Turns)
	}
	if srv.Unserved() != 0 || len(srv.Errors()) != 0 {
		t.Fatalf("script: %d unserved steps, errors %v", srv.Unserved(), srv.Errors())
	}
	// The next iteration's feedback: active issues, hard and regressed
	// first, the fixes to keep, then the IF critique verbatim.
	want := `Open issues the critic found (each is checked again after your next edit; fix the hard ones first). An issue keeps its id (I1, I2...) across attempts; the code after hard/soft and its family (C01.2) is the check that found it, described after "check:" at the end:
- I2 [hard completeness C01.1, REGRESSED in turn 3: it was fixed and an edit broke it again] the deck: The table on slide 13 is no longer sorted by column A, largest first: it reads 30, 10, 24. (check: Every change the instruction asks for appears in the edits.)
- I4 [hard correctness D04.1, REGRESSED in turn 3: it was fixed and an edit broke it again] slide s13, nodes s13/255/r3c1, s13/255/r3c2: Row Orange now reads 24, 24, 16: column A took column B's value. (check: Each table row keeps its cells together (a sort or a move carries whole rows).)
- I5 [hard completeness C01.2, open since turn 3] slide s13, nodes s13/255/r3c1: Slide 13 lost its requested change: column A reads 30, 10, 24. (check: Every slide the instruction names (by number, range, title, or with all/every) received its change.)

Fixed so far, keep them fixed (issue, check, where): I1 G03.1 on slide s16.

The judge's critique of the last attempt:
Slide 13's table is not sorted.`
	if got := Feedback(nil, &l, "  Slide 13's table is not sorted.\n"); got != want {
		t.Fatalf("feedback:\n%s\nwant:\n%s", got, want)
	}
}

const rotateInstruction = "Rotate the first picture on slides 4-7 by 45 degrees."

// TestUnusableAnswerIsRetriedOnceThenRecorded: an answer that does not
// parse is retried once with the problem named; a group whose second
// answer is still unusable is recorded as a problem, its checks are
// skipped and its open issue persists, while the other groups and the
// geometric checks go on.
func TestUnusableAnswerIsRetriedOnceThenRecorded(t *testing.T) {
	c, srv := newCritic(t, "critic-malformed.yaml")
	origin := careerTips(t)
	d1, _ := edit(t, origin, call("rotate_node", map[string]any{"nodeId": "s4/97", "angle": 45}))
	in := turnInput(t, 2, rotateInstruction, origin, origin, d1)
	var ids []string
	for _, s := range in.Slides {
		ids = append(ids, s.ID)
	}
	// An earlier turn found that a look-alike was edited on slide 4.
	l := seed(t, ids, map[string]string{"C07.1": "s4"})
	rep, err := c.Turn(context.Background(), l, in)
	if err != nil {
		t.Fatal(err)
	}
	if got := callsOf(rep.Plan); got != "C01[C01.1,C01.2]@deck C07[C07.1]@s4 F03[F03.1,F03.2]@s4" {
		t.Fatalf("calls %s", got)
	}
	if got := strings.Join(rep.Plan.Mandatory(), " "); got != "C07.1" {
		t.Fatalf("mandatory %s", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 || len(rep.Calls) != 5 {
		t.Fatalf("%d requests, %d recorded calls; want 5 (two groups retried once, one answered at once)", len(reqs), len(rep.Calls))
	}
	// The retry shows the model its answer and what was wrong.
	retry := reqs[1].Chat.Messages
	if len(retry) != 4 || retry[2].Content != "All good: the picture on slide 4 is rotated as asked." ||
		!strings.Contains(retry[3].Content, "not a JSON object") || !strings.Contains(retry[3].Content, `"verdict": "pass" | "fail"`) {
		t.Fatalf("retry messages %+v", retry)
	}
	if m := reqs[3].Chat.Messages; len(m) != 4 || !strings.Contains(m[3].Content, `verdict "maybe", want "pass" or "fail"`) {
		t.Fatalf("C07 retry %+v", m)
	}
	if len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], "group C07 (C07.1): answer unusable after one retry: the answer is not a JSON object") {
		t.Fatalf("problems %q", rep.Problems)
	}
	// I1 was not verified this turn: persisted. The rotation's new
	// out-of-bounds violation is I2.
	if got := statuses(l); got != "I1:persisted I2:open" {
		t.Fatalf("statuses %s", got)
	}
	if i2 := l.Issue("I2"); i2.Check != "G03.1" || i2.Subject != "out_of_bounds|s4|s4/97" {
		t.Fatalf("I2 %+v", *i2)
	}
	log := l.Turns[len(l.Turns)-1]
	if !slices.Equal(log.Skipped, []string{"C07.1"}) || log.Calls != 5 || len(log.Problems) != 1 {
		t.Fatalf("turn log %+v", log)
	}
	if srv.Unserved() != 0 {
		t.Fatalf("%d script steps unused", srv.Unserved())
	}
}

// TestWithoutAModelOnlyGeometryRuns: no judge model configured (a recipe
// run) means the model checks are skipped with a problem saying what to
// set, and the geometric checks still update the ledger.
func TestWithoutAModelOnlyGeometryRuns(t *testing.T) {
	client, err := llm.New(llm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := &Critic{LLM: client}
	origin := careerTips(t)
	d1, _ := edit(t, origin, call("rotate_node", map[string]any{"nodeId": "s4/97", "angle": 45}))
	var l Ledger
	rep, err := c.Turn(context.Background(), &l, turnInput(t, 1, rotateInstruction, origin, origin, d1))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Calls) != 0 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "ACE_JUDGE_MODEL") {
		t.Fatalf("calls %d, problems %q", len(rep.Calls), rep.Problems)
	}
	if got := statuses(&l); got != "I1:open" || l.Issues[0].Check != "G03.1" {
		t.Fatalf("statuses %s", got)
	}
	skipped, picked := slices.Sorted(slices.Values(l.Turns[0].Skipped)), slices.Sorted(slices.Values(rep.Plan.Checks()))
	if len(picked) < MinChecks || !slices.Equal(skipped, picked) {
		t.Fatalf("skipped %v, picked %v", l.Turns[0].Skipped, rep.Plan.Checks())
	}
}
