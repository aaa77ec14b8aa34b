package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/store"
)

func repoRoot(t testing.TB) string {
	t.Helper()
	return filepath.Dir(filepath.Dir(filepath.Dir(scriptPath(t, "x")))) // <root>/testdata/scripts/x
}

// recipeRun stores deck d and the recipe file and runs it.
func recipeRun(t *testing.T, steps *runner.Steps, d *scenegraph.Deck, blobs scenegraph.Blobs, recipePath string) *editloop.Record {
	t.Helper()
	ctx := context.Background()
	steps.Store = store.NewMemory()
	if err := store.PutBlobs(ctx, steps.Store, blobs); err != nil {
		t.Fatal(err)
	}
	ref, err := store.PutDeck(ctx, steps.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	yml, err := os.ReadFile(recipePath)
	if err != nil {
		t.Fatal(err)
	}
	rref, err := steps.Store.Put(ctx, yml)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := runner.Run(ctx, steps, editloop.Request{DeckRef: ref, RecipeRef: rref, RecipePath: recipePath})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, dump(rec))
	}
	return rec
}

func deckText(t *testing.T, s store.Store, ref string) string {
	t.Helper()
	d, err := store.GetDeck(context.Background(), s, ref)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, sl := range d.Slides {
		sl.Walk(func(n, _ *scenegraph.Node, _ int) bool { b.WriteString(n.Characters + "\n"); return true })
	}
	return b.String()
}

func TestPureRecipeRunsWithoutAModel(t *testing.T) {
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 8, Seed: 3})
	steps := &runner.Steps{Renderer: pool} // no LLM at all
	p := filepath.Join(t.TempDir(), "rebrand.yaml")
	os.WriteFile(p, []byte(`name: rebrand
steps:
  - tool: set_theme_colors
    args: {colors: {accent1: "#5B2A86"}}
  - for_each: {text: "Northwind Analytics"}
    tool: set_text_content
    args: {nodeId: "${match.id}", find: "Northwind Analytics", text: "Acme Insights"}
expect:
  - no_text: "Northwind"
`), 0o644)
	rec := recipeRun(t, steps, d, blobs, p)
	if rec.Outcome != "applied" || len(rec.Iterations) != 1 || rec.Usage.Calls != 0 || rec.Selected != 1 {
		t.Fatalf("record %s", dump(rec))
	}
	it := rec.Iterations[0]
	if !it.Rendered || !it.GatePassed || !it.JudgeSkipped || it.ToolCalls == 0 || rec.Route.Decision.Source != "recipe" {
		t.Fatalf("iteration %s", dump(it))
	}
	if txt := deckText(t, steps.Store, rec.Final); strings.Contains(txt, "Northwind") || !strings.Contains(txt, "Acme Insights") {
		t.Fatalf("rebrand not applied:\n%s", txt)
	}
}

func TestRecipeExpectationFailureIsTheVerdict(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "titles-40.yaml")
	os.WriteFile(p, []byte(`name: titles at 36 but expected 40
steps:
  - for_each: {role: title}
    tool: set_text_font
    args: {nodeId: "${match.id}", fontSize: 36}
expect:
  - all: {select: {role: title}, size: 40}
`), 0o644)
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 4, Seed: 1})
	rec := recipeRun(t, &runner.Steps{Renderer: pool}, d, blobs, p)
	if rec.Outcome != "expectation_failed" || len(rec.Checks) != 1 || !strings.Contains(rec.Reason, "line 7") {
		t.Fatalf("record %s", dump(rec))
	}
}

func TestRecipeOnARealDeck(t *testing.T) {
	path := filepath.Join(shareddecks.PPTXDir(t), "table-report.pptx")
	d, blobs, err := deckio.Load(path)
	if err != nil {
		t.Skipf("real deck not available: %v", err)
	}
	steps := &runner.Steps{Renderer: pool}
	rec := recipeRun(t, steps, d, blobs, filepath.Join(repoRoot(t), "testdata", "recipes", "legal-footer.yaml"))
	it := rec.Iterations[0]
	if !it.Rendered || it.DiffDistinct == 0 || len(it.ChangedSlides) != len(d.Slides) {
		t.Fatalf("the footer recipe should touch all %d slides: %s", len(d.Slides), dump(it))
	}
	switch rec.Outcome {
	case "applied":
		if len(rec.Checks) != 0 || rec.Final == rec.Origin {
			t.Fatalf("applied but %d expectations failed: %s", len(rec.Checks), dump(rec.Checks))
		}
	case "gate_blocked":
		// The gate may refuse a footer that collides with content; then it
		// must say which violations and keep the original.
		if len(it.NewViolations) == 0 || rec.Final != rec.Origin {
			t.Fatalf("gate_blocked without violations: %s", dump(rec))
		}
	default:
		t.Fatalf("outcome %s: %s", rec.Outcome, rec.Reason)
	}
	t.Logf("legal-footer on table-report.pptx: %d slides, outcome %s, new violations %d, render %d ms", len(d.Slides), rec.Outcome, len(it.NewViolations), it.Timings.Render)
}

func TestRecipeInstructionStepsGoToTheAgent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "retitle.yaml")
	os.WriteFile(p, []byte(`name: retitle and recolour
steps:
  - tool: set_text_content
    args: {nodeId: s2-t5, text: "Pricing experiments and results"}
  - instruction: Make the slide 2 title navy (#1F4E79).
expect:
  - no_new_violations: true
`), 0o644)
	srv := llmtest.Load(t, scriptPath(t, "runner-recipe-instruction.yaml"))
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	steps := &runner.Steps{Renderer: pool, LLM: c}
	rec := recipeRun(t, steps, d, blobs, p)
	if rec.Outcome != "stopped" || len(rec.Iterations) != 1 || srv.Unserved() != 0 {
		t.Fatalf("record %s", dump(rec))
	}
	req := srv.RequestsFor("agent-m")[0].Chat.Messages[1].Content
	if !strings.Contains(req, "Make the slide 2 title navy (#1F4E79).") || !strings.Contains(req, "Pricing experiments and results") {
		t.Fatalf("the agent must get the instruction step and see the compiled change:\n%s", req)
	}
	final, _ := store.GetDeck(context.Background(), steps.Store, rec.Final)
	n := scenegraph.NewIndex(final).Node("s2-t5")
	if n.Characters != "Pricing experiments and results" || textColour(n) != "#1F4E79" {
		t.Fatalf("title %q colour %s", n.Characters, textColour(n))
	}
	_ = policy.Default
}

// A recipe the gate blocks keeps the original, and its expectations are
// said to be checked on the original deck: no_new_violations holds there
// (it is not "not rendered"), the others report what the original lacks.
func TestExpectationsOfABlockedRecipeAreCheckedOnTheOriginal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "off-slide.yaml")
	os.WriteFile(p, []byte(`name: titles pushed off the slide
steps:
  - for_each: {role: title}
    tool: move_node
    args: {nodeId: "${match.id}", x: 1200, y: 40}
expect:
  - no_new_violations: true
  - all: {select: {role: title}, size: 99}
`), 0o644)
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 4, Seed: 1})
	rec := recipeRun(t, &runner.Steps{Renderer: pool}, d, blobs, p)
	if rec.Outcome != "gate_blocked" || rec.Final != rec.Origin || !rec.ChecksOnOrigin {
		t.Fatalf("record %s", dump(rec))
	}
	if len(rec.Checks) != 1 || rec.Checks[0].Kind != "all" || !strings.Contains(rec.Reason, "checked on the original deck") {
		t.Fatalf("checks %s, reason %q", dump(rec.Checks), rec.Reason)
	}
	for _, c := range rec.Checks {
		if strings.Contains(c.String(), "not rendered") {
			t.Fatalf("a rendered deck is called not rendered: %s", c)
		}
	}
}
