package report

import (
	"bytes"
	"strings"
	"testing"
)

// An edit with skills shows the operations, the starred skills with
// their scores and whether the agent read them, and any skill it read
// without a star; a coverage gap says so; an edit without skills has no
// Skills section.
func TestEditPageShowsSkills(t *testing.T) {
	page := func(sk *Skills) string {
		var b bytes.Buffer
		if err := WriteEdit(&b, Edit{Deck: "q3.pptx", Instruction: "Set Berlin's Q3 revenue to 1.2M", Outcome: "stopped", Skills: sk}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	got := page(&Skills{Operations: []string{"edit table cell value", "sort table rows"}, Covered: true, Offered: 24,
		Starred: []SkillUse{{Name: "table-cell-edits", Version: 3, Score: 1, Operation: "edit table cell value", Loaded: true},
			{Name: "chart-data-and-type", Version: 1, Score: 0.33, Operation: "sort table rows"}},
		Loaded: []string{"table-cell-edits", "text-typography"}})
	for _, want := range []string{"<h2>Skills</h2>", "edit table cell value; sort table rows", "listed 24 skill(s)",
		"<td>table-cell-edits</td><td>3</td><td>1.00</td>", `<span class="badge ok">read</span>`,
		"<td>chart-data-and-type</td><td>1</td><td>0.33</td><td>sort table rows</td><td><span class=\"muted\">not read</span>",
		"The agent read: table-cell-edits, text-typography."} {
		if !strings.Contains(got, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	gap := page(&Skills{Operations: []string{"translate notes"}, Fallback: "no model configured for the router role", Offered: 24})
	if !strings.Contains(gap, "coverage gap") || !strings.Contains(gap, "The agent read no skill.") || !strings.Contains(gap, "(no model configured") {
		t.Errorf("a coverage gap's section:\n%s", gap)
	}
	if strings.Contains(page(nil), "<h2>Skills</h2>") {
		t.Error("an edit without skills has a Skills section")
	}
}
