package evolve_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/tools"
)

func seedSkill(t *testing.T, name string) skills.Skill {
	t.Helper()
	seed, err := skills.Seed()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(seed, func(s skills.Skill) bool { return s.Name == name })
	if i < 0 {
		t.Fatalf("the seed bank has no %s", name)
	}
	s := seed[i]
	s.Version = 1
	return s
}

func tableRecords() []skills.TurnRecord {
	mk := func(id string, start int64, s float64, reason string, tools ...string) skills.TurnRecord {
		r := skills.TurnRecord{ID: id, Instruction: "Table edit " + id, StartedUnixMS: start,
			Retrieved: []skills.Scored{{Name: "table-cell-edits", Version: 1, Starred: true}},
			Grade: &skills.Grade{S: s, Success: skills.Succeeded(s), Requirements: []skills.Requirement{
				{Text: "row added for " + id, Label: skills.OutcomeNotMet, Reason: reason}}}}
		for _, tl := range tools {
			r.Tools = append(r.Tools, skills.ToolUse{Tool: tl, OK: true})
		}
		return r
	}
	return []skills.TurnRecord{
		mk("f1", 1, 0.2, "set_table_cells addressed a row that did not exist", "set_table_cells"),
		mk("ok1", 2, 0.9, "", "edit_table_structure", "set_table_cells"),
		mk("f2", 3, 0.4, "the new row is empty", "set_table_cells"),
		{ID: "other", Instruction: "Chart edit", Grade: &skills.Grade{S: 0.1}},
	}
}

// TestDeepenShowsFailuresAndSuccessesAndEscalates: the reflector gets
// the skill, the failures with their requirement reasons and the
// successes' tool sequences; after two consecutive gate rejections the
// call is a major rewrite. The revision keeps the name, takes version+1.
func TestDeepenShowsFailuresAndSuccessesAndEscalates(t *testing.T) {
	cur := seedSkill(t, "table-cell-edits")
	next := cur
	next.Name, next.Version = "renamed-by-model", 7
	next.Body = strings.Replace(cur.Body, "## Tips\n", "## Tips\nInsert rows before filling them.\n", 1)
	answer := text(jsonText(map[string]string{"section": "Tips", "change": "insert first", "skill_md": string(next.Format())}))
	w := scripted(t, []llmtest.Step{answer, answer})
	ctx := context.Background()
	names := tools.Registry().Names()
	p, calls, err := evolve.Deepen(ctx, w.client, cur, skills.Stats{Name: cur.Name, Fails: 2, ConsecutiveGateRejects: 1}, tableRecords(), []skills.Skill{cur}, names)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != skills.ChangeRewrite || p.Skill.Name != cur.Name || p.Skill.Version != 2 || p.Skill.Status != skills.StatusStable ||
		!strings.Contains(p.Skill.Body, "Insert rows before filling them.") || p.Before == nil || p.Section != "Tips" || len(calls) != 1 {
		t.Fatalf("proposal %+v", p)
	}
	req := w.srv.Requests()[0].Chat
	user := req.Messages[1].Content
	failed, succeeded, _ := strings.Cut(user, "SUCCESSFUL EDITS")
	for _, want := range []string{"name: table-cell-edits", "Table edit f2", "set_table_cells addressed a row that did not exist", "[not_met]"} {
		if !strings.Contains(failed, want) {
			t.Errorf("the reflector's failures lack %q", want)
		}
	}
	if !strings.Contains(succeeded, "Table edit ok1") || !strings.Contains(succeeded, "edit_table_structure, set_table_cells") || strings.Contains(user, "Chart edit") {
		t.Errorf("successes shown wrongly:\n%s", user)
	}
	if !strings.Contains(req.Messages[0].Content, "TARGETED edit") {
		t.Error("one reject: not a targeted edit")
	}
	p, _, err = evolve.Deepen(ctx, w.client, cur, skills.Stats{Name: cur.Name, Fails: 2, ConsecutiveGateRejects: 2}, tableRecords(), []skills.Skill{cur}, names)
	if err != nil || p.Kind != skills.ChangeMajorRewrite || !strings.Contains(w.srv.Requests()[1].Chat.Messages[0].Content, "Rewrite the whole skill") {
		t.Fatalf("after 2 rejects: %+v, %v", p.Kind, err)
	}
}

// TestDeepenGivesUpOnAnInvalidSkillAfterOneRetry: an unknown tool is
// sent back with the problem once; a second invalid answer gives up.
func TestDeepenGivesUpOnAnInvalidSkillAfterOneRetry(t *testing.T) {
	cur := seedSkill(t, "table-cell-edits")
	bad := cur
	bad.ToolSequence = []string{"get_page_structure", "make_table_pretty"}
	noSteps := cur
	noSteps.Body = strings.Replace(cur.Body, "## Steps", "## Procedure", 1)
	w := scripted(t, []llmtest.Step{
		text(jsonText(map[string]string{"skill_md": string(bad.Format())})),
		text(jsonText(map[string]string{"skill_md": string(noSteps.Format())})),
	})
	_, calls, err := evolve.Deepen(context.Background(), w.client, cur, skills.NewStats(cur.Name), tableRecords(), []skills.Skill{cur}, tools.Registry().Names())
	if !errors.Is(err, evolve.ErrInvalidProposal) || len(calls) != 2 || !strings.Contains(err.Error(), `no "## Steps" section`) {
		t.Fatalf("err %v after %d calls", err, len(calls))
	}
	retry := w.srv.Requests()[1].Chat.Messages
	if last := retry[len(retry)-1].Content; !strings.Contains(last, `"make_table_pretty", which is not an ACE tool`) {
		t.Errorf("the retry does not name the problem: %s", last)
	}
}

// TestUncoveredRules: a record with no starred skill pools every
// subtask; a failed record pools every subtask (its skills are blamed);
// a successful covered record pools only what no starred skill's
// description addresses.
func TestUncoveredRules(t *testing.T) {
	bank := []skills.Skill{seedSkill(t, "table-cell-edits")}
	subs := []evolve.Subtask{
		{Label: "update-table-cells", Subtask: "change numbers in a table"},
		{Label: "write-speaker-notes", Subtask: "write the presenter's notes"},
	}
	labels := func(ss []evolve.Subtask) string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Label)
		}
		return strings.Join(out, " ")
	}
	gap := rec("gap", 1, true)
	failed := rec("failed", 2, false, star("table-cell-edits", 1))
	ok := rec("ok", 3, true, star("table-cell-edits", 1))
	if got := labels(evolve.Uncovered(gap, subs, bank)); got != "update-table-cells write-speaker-notes" {
		t.Errorf("coverage gap: %s", got)
	}
	if got := labels(evolve.Uncovered(failed, subs, bank)); got != "update-table-cells write-speaker-notes" {
		t.Errorf("failed with a blamed skill: %s", got)
	}
	if got := labels(evolve.Uncovered(ok, subs, bank)); got != "write-speaker-notes" {
		t.Errorf("covered success: %s", got)
	}
	pool := map[string]skills.CoverageEntry{}
	evolve.Pool(pool, "gap", subs)
	if ch := evolve.Pool(pool, "gap", subs); len(ch) != 0 || len(pool["write-speaker-notes"].Records) != 1 {
		t.Errorf("pooling a record twice changed %d entries", len(ch))
	}
}

func TestParseSubtasks(t *testing.T) {
	got, err := evolve.ParseSubtasks(`{"subtasks": [{"label": " Recolor-Chart-Series ", "subtask": "x"}, {"label": "recolor-chart-series", "subtask": "y"}]}`)
	if err != nil || len(got) != 1 || got[0].Label != "recolor-chart-series" {
		t.Fatalf("%+v %v", got, err)
	}
	for in, want := range map[string]string{
		`{"subtasks": []}`: "0 subtasks",
		`{"subtasks": [{"label": "recolor the chart", "subtask": "x"}]}`: "not lowercase words joined by hyphens",
		`[]`: "not the JSON object",
	} {
		if _, err := evolve.ParseSubtasks(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func FuzzParseSubtasks(f *testing.F) {
	f.Add(`{"subtasks": [{"label": "a-b", "subtask": "x"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := evolve.ParseSubtasks(s)
		if err != nil {
			return
		}
		if len(got) == 0 || len(got) > evolve.MaxSubtasks {
			t.Fatalf("%d subtasks", len(got))
		}
		for _, st := range got {
			if st.Label == "" || strings.ContainsAny(st.Label, " /_.") || st.Label != strings.ToLower(st.Label) {
				t.Fatalf("label %q", st.Label)
			}
		}
	})
}
