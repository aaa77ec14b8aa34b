package workers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// The edit print tells apart exactly the parts of an edit that change what
// a batch does: the recipe's contents (not its path), the instruction, the
// export format and the options.
func TestEditPrintNamesWhatDiffers(t *testing.T) {
	c := stack(t)
	ctx := context.Background()
	deck := filepath.Join(repoRoot(t), "testdata", "decks", "northwind-qbr.pptx")
	base := recipeEdit(t, "rebrand.yaml")
	printOf := func(e Edit) EditPrint {
		t.Helper()
		_, jobs, err := PrepareJobs(ctx, c.Store, "", []string{deck}, e)
		if err != nil {
			t.Fatal(err)
		}
		return jobs[0].Edit
	}
	moved := base
	moved.RecipePath = filepath.Join(t.TempDir(), "elsewhere.yaml")
	other := recipeEdit(t, "title-normalize.yaml")
	asJSON := base
	asJSON.Format = "json"
	tau := base
	tau.Options = &acev1.EditOptions{Tau: 4.5}
	zero := base
	zero.Options = &acev1.EditOptions{} // the CLI's defaults: no options set
	instr := Edit{Instruction: "Make every title navy"}
	instr2 := Edit{Instruction: "Make every title red"}
	for _, c := range []struct {
		name string
		a, b Edit
		want []string
	}{
		{"same edit", base, base, nil},
		{"same recipe at another path", base, moved, nil},
		{"default options", base, zero, nil},
		{"other recipe", base, other, []string{"recipe"}},
		{"other format", base, asJSON, []string{"format"}},
		{"other options", base, tau, []string{"options"}},
		{"instruction for recipe", base, instr, []string{"recipe", "instruction"}},
		{"other instruction", instr, instr2, []string{"instruction"}},
	} {
		if got := printOf(c.a).Differences(printOf(c.b)); !slices.Equal(got, c.want) {
			t.Errorf("%s: differences %v, want %v", c.name, got, c.want)
		}
	}
}

// Submit records the edit print with each deck's QUEUED event and Status
// reads it back; a batch whose events carry none (submitted before prints
// were recorded) has no print, so it can still be resumed.
func TestStatusReadsTheRecordedEditPrint(t *testing.T) {
	c := stack(t)
	ctx := context.Background()
	// An unreadable deck is submitted as QUEUED and FAILED events without
	// a job, so no workflow runs for this test.
	fake := filepath.Join(t.TempDir(), "fake.pptx")
	if err := os.WriteFile(fake, []byte("not a deck"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := recipeEdit(t, "title-normalize.yaml")
	e.Format = "json"
	stamp := time.Now().UnixNano()
	batch, jobs, err := PrepareJobs(ctx, c.Store, fmt.Sprintf("print-%d", stamp), []string{fake}, e)
	if err != nil {
		t.Fatal(err)
	}
	if jobs[0].ImportErr == nil {
		t.Fatal("the fake deck was read")
	}
	if err := Submit(ctx, c.JS, batch, jobs); err != nil {
		t.Fatal(err)
	}
	st, err := Status(ctx, c.JS, batch)
	if err != nil {
		t.Fatal(err)
	}
	if st.Edit == nil || *st.Edit != jobs[0].Edit || st.Edit.Format != "json" || st.Edit.Recipe == "" {
		t.Fatalf("recorded print %+v, want %+v", st.Edit, jobs[0].Edit)
	}

	legacy := fmt.Sprintf("legacy-%d", stamp)
	publishEvent(ctx, c.JS, &acev1.Progress{BatchId: legacy, DeckKey: "deck", JobId: acev1.JobID(legacy, "deck"),
		Phase: acev1.Phase_PHASE_QUEUED, Message: fake}, "queued")
	st, err = Status(ctx, c.JS, legacy)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Decks) != 1 || st.Edit != nil {
		t.Fatalf("a batch without a recorded print: %d decks, print %+v", len(st.Decks), st.Edit)
	}
}
