package critic

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

func fail(check, slide, text string, nodes ...string) Finding {
	return Finding{Check: check, Slide: slide, Evidence: Evidence{Text: text, Nodes: nodes}}
}

// statuses lists "id:status" for every issue, in id order.
func statuses(l *Ledger) string {
	var parts []string
	for _, is := range l.Issues {
		parts = append(parts, is.ID+":"+string(is.Status))
	}
	return strings.Join(parts, " ")
}

// TestApplyWalksEveryTransition drives one ledger through five turns of
// hand-made results and checks each issue's status after every turn: new
// -> open, re-checked and not found -> resolved, found again after being
// resolved -> regressed (counted), not re-checked -> persisted, slide
// deleted -> dropped, slide back (an undo) and found -> open again.
func TestApplyWalksEveryTransition(t *testing.T) {
	lib := Default()
	all := []string{"s13", "s14", "s16"}
	oob := "out_of_bounds|s16|s16/291"
	turns := []struct {
		r    Result
		want string
	}{
		{Result{Turn: 1, Slides: all, Runs: []Run{
			{Check: "D04.1", Slides: []string{"s13"}, Failed: []Finding{fail("D04.1", "s13", "Blue row shows Orange's values", "s13/255/r2c1")}},
			{Check: "C01.2", Deck: true, Failed: []Finding{fail("C01.2", "s14", "slide 14 was not deleted")}},
			{Check: "G03.1", Slides: []string{"s13", "s16"}, Failed: []Finding{{Check: "G03.1", Slide: "s16", Subject: oob,
				Evidence: Evidence{Text: "lies 29.8 px outside", Nodes: []string{"s16/291"}, Boxes: []scenegraph.Rect{{X: 89.8, Y: 100, Width: 900, Height: 94}}}}}},
		}}, "I1:open I2:open I3:open"},
		// s14 deleted; D04.1 re-checked on s13 and clean; G03.1 ran on s13 only.
		{Result{Turn: 2, Slides: []string{"s13", "s16"}, Runs: []Run{
			{Check: "D04.1", Slides: []string{"s13"}},
			{Check: "G03.1", Slides: []string{"s13"}},
		}}, "I1:persisted I2:dropped I3:resolved"},
		// D04.1 breaks again; G03.1 clean on s16.
		{Result{Turn: 3, Slides: []string{"s13", "s16"}, Runs: []Run{
			{Check: "D04.1", Slides: []string{"s13"}, Failed: []Finding{fail("D04.1", "s13", "Orange row shows 24 in column A", "s13/255/r3c1")}},
			{Check: "G03.1", Slides: []string{"s13", "s16"}},
		}}, "I1:resolved I2:dropped I3:regressed"},
		// Nothing ran: the regressed issue persists, the resolved one stays resolved.
		{Result{Turn: 4, Slides: []string{"s13", "s16"}}, "I1:resolved I2:dropped I3:persisted"},
		// s14 is back (an undo) and still lacks its change; D04.1 still fails.
		{Result{Turn: 5, Slides: all, Runs: []Run{
			{Check: "C01.2", Deck: true, Failed: []Finding{fail("C01.2", "s14", "slide 14 is back and still there")}},
			{Check: "D04.1", Slides: []string{"s13"}, Failed: []Finding{fail("D04.1", "s13", "still wrong")}},
		}}, "I1:resolved I2:open I3:open"},
	}
	var l Ledger
	for _, tc := range turns {
		if _, err := l.Apply(lib, tc.r); err != nil {
			t.Fatal(err)
		}
		if got := statuses(&l); got != tc.want {
			t.Fatalf("after turn %d: %s, want %s", tc.r.Turn, got, tc.want)
		}
	}
	// New issues are numbered in library order: G03.1, C01.2, D04.1.
	geo, deleted, table := l.Issue("I1"), l.Issue("I2"), l.Issue("I3")
	if geo.Check != "G03.1" || geo.Subject != oob || geo.Family != FamilyGeometry || !geo.Hard || geo.Opened != 1 || geo.Checked != 3 || geo.Changed != 3 {
		t.Errorf("I1 %+v", *geo)
	}
	if deleted.Check != "C01.2" || deleted.Slide != "s14" || deleted.Family != FamilyCompleteness || deleted.Checked != 5 || deleted.Changed != 5 {
		t.Errorf("I2 %+v", *deleted)
	}
	if table.Check != "D04.1" || table.Regressions != 1 || table.Family != FamilyCorrectness || !table.Hard || table.Checked != 5 || table.Evidence.Text != "still wrong" {
		t.Errorf("I3 %+v", *table)
	}
	if got := l.Counts(); got[0] != (StatusCount{StatusOpen, 2}) || got[1] != (StatusCount{StatusResolved, 1}) || len(got) != 5 {
		t.Errorf("counts %+v", got)
	}
	if l.OpenHard() != 2 {
		t.Errorf("open hard issues %d, want 2", l.OpenHard())
	}
}

func TestApplyReportsChangesAndRefusesUnknownChecks(t *testing.T) {
	var l Ledger
	ch, err := l.Apply(Default(), Result{Turn: 1, Slides: []string{"s1"}, Runs: []Run{
		{Check: "F01.1", Slides: []string{"s1"}, Failed: []Finding{fail("F01.1", "s1", "bullet 2 reworded")}}}})
	if err != nil || len(ch) != 1 || ch[0] != (Change{Issue: "I1", Check: "F01.1", Slide: "s1", To: StatusOpen}) {
		t.Fatalf("changes %+v, %v", ch, err)
	}
	if l.Issues[0].Hard {
		t.Error("fidelity issues are soft")
	}
	ch, _ = l.Apply(Default(), Result{Turn: 2, Slides: []string{"s1"}, Runs: []Run{{Check: "F01.1", Slides: []string{"s1"}}}})
	if len(ch) != 1 || ch[0].From != StatusOpen || ch[0].To != StatusResolved {
		t.Fatalf("changes %+v", ch)
	}
	before, _ := json.Marshal(l)
	if _, err := l.Apply(Default(), Result{Turn: 3, Runs: []Run{{Check: "Z99.1"}}}); err == nil || !strings.Contains(err.Error(), "Z99.1") {
		t.Fatalf("want an error naming the unknown check, got %v", err)
	}
	if _, err := l.Apply(Default(), Result{Turn: 3, Runs: []Run{{Check: "F01.1", Failed: []Finding{fail("F01.2", "s1", "x")}}}}); err == nil {
		t.Fatal("a finding filed under another check's run must be refused")
	}
	after, _ := json.Marshal(l)
	if !bytes.Equal(before, after) {
		t.Fatal("a refused result changed the ledger")
	}
}

// TestApplyIsDeterministic: the same findings in another order give the
// same ledger, byte for byte, and the JSON round trip loses nothing.
func TestApplyIsDeterministic(t *testing.T) {
	slides := []string{"s1", "s2", "s3"}
	runs := []Run{
		{Check: "V03.1", Slides: slides, Failed: []Finding{fail("V03.1", "s3", "new pink"), fail("V03.1", "s1", "new pink too")}},
		{Check: "C01.1", Deck: true, Failed: []Finding{fail("C01.1", "", "the footer part is missing"), fail("C01.1", "s2", "no change on slide 2")}},
		{Check: "G02.1", Slides: slides, Failed: []Finding{{Check: "G02.1", Slide: "s2", Subject: "overlap|s2|a,b"}, {Check: "G02.1", Slide: "s2", Subject: "overlap|s2|a,c"}}},
	}
	reversed := make([]Run, len(runs))
	for i, r := range runs {
		rr := r
		rr.Failed = append([]Finding(nil), r.Failed...)
		for a, b := 0, len(rr.Failed)-1; a < b; a, b = a+1, b-1 {
			rr.Failed[a], rr.Failed[b] = rr.Failed[b], rr.Failed[a]
		}
		reversed[len(runs)-1-i] = rr
	}
	var a, b Ledger
	if _, err := a.Apply(Default(), Result{Turn: 1, Slides: slides, Runs: runs}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Apply(Default(), Result{Turn: 1, Slides: slides, Runs: reversed}); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatalf("order of findings changed the ledger:\n%s\n%s", ja, jb)
	}
	// Library order, then deck before slides in deck order, then subject.
	var order []string
	for _, is := range a.Issues {
		order = append(order, is.Check+"@"+is.Slide)
	}
	if got := strings.Join(order, " "); got != "G02.1@s2 G02.1@s2 C01.1@ C01.1@s2 V03.1@s1 V03.1@s3" {
		t.Fatalf("issue order %s", got)
	}
	var back Ledger
	if err := json.Unmarshal(ja, &back); err != nil {
		t.Fatal(err)
	}
	jback, _ := json.Marshal(back)
	if !bytes.Equal(ja, jback) {
		t.Fatal("JSON round trip changed the ledger")
	}
	// Compact: six issues in well under 2 KB.
	if len(ja) > 2000 {
		t.Fatalf("ledger of 6 issues is %d bytes", len(ja))
	}
}

func TestEvidenceIsCapped(t *testing.T) {
	var l Ledger
	long := strings.Repeat("word ", 500)
	if _, err := l.Apply(Default(), Result{Turn: 1, Slides: []string{"s1"}, Runs: []Run{
		{Check: "N03.1", Slides: []string{"s1"}, Failed: []Finding{fail("N03.1", "s1", long)}}}}); err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(l.Issues[0].Evidence.Text)); n != MaxEvidenceRunes {
		t.Fatalf("evidence of %d runes kept, want %d", n, MaxEvidenceRunes)
	}
}

// A step check within a turn changes only the geometry issues it checks:
// a model issue stays open (a turn's schedule, not a step, persists it),
// and a geometry issue the step breaks again after it was resolved is
// regressed at once.
func TestAStepCheckLeavesUncheckedIssuesAlone(t *testing.T) {
	lib := Default()
	l := &Ledger{}
	geo := lib.ForViolation("overlap")
	var model string
	for _, g := range lib.Groups {
		if !g.Geometric() {
			model = g.Checks[0].ID
			break
		}
	}
	fail := func(chk, subject string) Finding {
		return Finding{Check: chk, Slide: "s1", Subject: subject, Evidence: Evidence{Text: "x"}}
	}
	if _, err := l.Apply(lib, Result{Turn: 1, Slides: []string{"s1"}, Runs: []Run{
		{Check: geo, Slides: []string{"s1"}, Failed: []Finding{fail(geo, "overlap|s1|a,b")}},
		{Check: model, Slides: []string{"s1"}, Failed: []Finding{fail(model, "")}},
	}}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		failed bool
		want   Status
	}{{false, StatusResolved}, {true, StatusRegressed}, {false, StatusResolved}}
	for i, st := range steps {
		run := Run{Check: geo, Slides: []string{"s1"}}
		if st.failed {
			run.Failed = []Finding{fail(geo, "overlap|s1|a,b")}
		}
		if _, err := l.Apply(lib, Result{Turn: 2, Slides: []string{"s1"}, Runs: []Run{run}, Step: true}); err != nil {
			t.Fatal(err)
		}
		if l.Issues[0].Status != st.want || l.Issues[1].Status != StatusOpen {
			t.Fatalf("step %d: geometry issue %s, model issue %s; want %s and open", i+1, l.Issues[0].Status, l.Issues[1].Status, st.want)
		}
	}
}
