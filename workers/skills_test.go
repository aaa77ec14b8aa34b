package workers

import (
	"context"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// TestWorkflowEditWithSkillsRecordsItsTurn runs an edit with the skills
// option through EditWorkflow on the embedded stack: the route step
// retrieves from the cluster's bucket bank, the agent reads the starred
// skill, and the RecordTurn activity writes the edit's turn record to
// that bank, with the retrieval and the skills the agent loaded.
func TestWorkflowEditWithSkillsRecordsItsTurn(t *testing.T) {
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
	const instruction = "Rename the title on slide 2 to 'Pricing experiments and results'."
	res, _ := runWorkflowWith(t, scripted(t, "runner-skills.yaml"), origin, instruction, &acev1.EditOptions{Skills: true})
	if res.Status != acev1.EditStatus_EDIT_STATUS_OK {
		t.Fatalf("status %v: %s", res.Status, res.Reason)
	}
	bank, err := OpenSkillBank(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := bank.Records(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var rec *skills.TurnRecord
	for i := range recs {
		if recs[i].Instruction == instruction && recs[i].DeckRef == origin {
			rec = &recs[i]
		}
	}
	if rec == nil {
		t.Fatalf("no turn record of the edit in the bucket bank (%d records)", len(recs))
	}
	if !rec.SkillsOn || !rec.Covered || rec.FinalRef != res.FinalSnapshot || len(rec.Operations) == 0 {
		t.Errorf("record %+v: want skills on, covered, the final snapshot %s and the distilled operations", rec, res.FinalSnapshot)
	}
	if len(rec.Loaded) != 1 || rec.Loaded[0] != "text-typography" {
		t.Errorf("loaded %v, want the skill the agent read (text-typography)", rec.Loaded)
	}
}
