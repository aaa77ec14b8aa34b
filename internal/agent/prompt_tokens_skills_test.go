package agent_test

import (
	"context"
	"os"
	"testing"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/skills"
)

// TestPromptTokensWithSkills measures what the skill catalog and
// load_skill add to the agent's first request of the one-slide edit of
// TestPromptTokensOneSlideEditOnCareerTips, with the seed bank's catalog
// (the paper reports about +28% prompt tokens for retrieval, §5). The
// catalog is bounded by retrieval.CatalogBudget; the system prefix is
// the same with and without skills.
func TestPromptTokensWithSkills(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	const instruction = "Make the title on slide 3 bold."
	dec := route.Heuristic(instruction, d)
	text, err := route.Context(d, dec)
	if err != nil {
		t.Fatal(err)
	}
	seed, err := skills.Seed()
	if err != nil {
		t.Fatal(err)
	}
	var offered []skills.Skill
	for _, s := range seed {
		if s.Offered() {
			offered = append(offered, s)
		}
	}
	sc := retrieval.Flag(retrieval.Score([]string{"make title bold"}, offered), offered)
	catalog := retrieval.Catalog(offered, retrieval.Starred(sc), 0)
	a, srv := newAgent(t, "steps:\n  - model: agent-m\n    text: done\n  - model: agent-m\n    text: done\n")
	for _, cat := range []string{"", catalog} {
		ses := agent.NewSession(agent.Input{Deck: d, Mode: string(dec.Mode), Context: text, Instruction: instruction, Skills: cat})
		if _, _, err := a.Turn(context.Background(), ses, nil, ""); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.RequestsFor("agent-m")
	om, ot := promptTokens(t, reqs[0].Chat)
	sm, st := promptTokens(t, reqs[1].Chat)
	catTokens, err := route.CountTokens(catalog, route.O200K)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("career-tips, %q: skills off %d tokens (messages %d + tools %d); skills on %d (messages %d + tools %d): +%d (+%.1f%%), catalog of %d skills %d tokens, starred %v",
		instruction, om+ot, om, ot, sm+st, sm, st, sm+st-om-ot, 100*float64(sm+st-om-ot)/float64(om+ot), len(offered), catTokens, retrieval.Starred(sc))
	if reqs[0].Chat.Messages[0].Content != reqs[1].Chat.Messages[0].Content {
		t.Error("the catalog changed the system prefix")
	}
	if catTokens > retrieval.CatalogBudget+20 {
		t.Errorf("catalog %d tokens, over its budget %d", catTokens, retrieval.CatalogBudget)
	}
	if sm+st-om-ot > catTokens+150 {
		t.Errorf("skills add %d tokens, more than the catalog (%d) and load_skill's definition", sm+st-om-ot, catTokens)
	}
}
