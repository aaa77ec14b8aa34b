package critic

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// The tests edit career-tips.pptx, a real deck from ../shared/decks, with
// the real tools, and give the critic the real JsonDiff text. Violations
// come from render.Violations, the renderer's own rules, applied to the
// authored boxes (scenegraph.Index.AbsoluteBounds, rotation included)
// instead of Chromium's measurements: what these tests ask of geometry
// (a rotated or widened box past the slide edge, a picture moved onto a
// title) needs no text layout, and the tests stay fast.

var (
	careerOnce sync.Once
	careerDeck *scenegraph.Deck
	careerErr  error
)

// careerTips returns a fresh copy of the imported career-tips deck.
func careerTips(t *testing.T) *scenegraph.Deck {
	t.Helper()
	careerOnce.Do(func() {
		var b []byte
		b, careerErr = os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
		if careerErr == nil {
			careerDeck, _, careerErr = deckio.Decode("career-tips.pptx", b)
		}
	})
	if careerErr != nil {
		t.Fatal(careerErr)
	}
	return careerDeck.Clone()
}

func call(tool string, args map[string]any) tools.Call {
	b, _ := json.Marshal(args)
	return tools.Call{Tool: tool, Args: b}
}

func cell(row, col int, text string) map[string]any {
	return map[string]any{"row": row, "column": col, "text": text}
}

// edit applies calls with the real tools and returns the new deck and the
// node ids the calls created or changed.
func edit(t *testing.T, d *scenegraph.Deck, calls ...tools.Call) (*scenegraph.Deck, []string) {
	t.Helper()
	next, results, err := tools.Apply(d, calls, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var touched []string
	for _, r := range results {
		for _, id := range append(append([]string(nil), r.Created...), r.Changed...) {
			if !slices.Contains(touched, id) {
				touched = append(touched, id)
			}
		}
	}
	return next, touched
}

// slidesOf lists the deck's slides with their titles as the agent's
// get_all_slides tool reports them.
func slidesOf(t *testing.T, d *scenegraph.Deck) []Slide {
	t.Helper()
	_, results, err := tools.Apply(d, []tools.Call{call("get_all_slides", map[string]any{"limit": 200})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Items []Slide `json:"items"`
	}
	if err := json.Unmarshal(results[0].Data, &page); err != nil || len(page.Items) != len(d.Slides) {
		t.Fatalf("get_all_slides: %v (%d of %d slides)", err, len(page.Items), len(d.Slides))
	}
	return page.Items
}

// authoredViolations runs the renderer's violation rules on the slides
// named, measuring each node by its authored box.
func authoredViolations(d *scenegraph.Deck, slides []string) []render.Violation {
	ix := scenegraph.NewIndex(d)
	var out []render.Violation
	for i, s := range d.Slides {
		if !slices.Contains(slides, s.ID) {
			continue
		}
		m := map[string]render.Measured{}
		s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
			if n.Type != scenegraph.TypeSlide {
				m[n.ID] = render.Measured{Bounds: ix.AbsoluteBounds(n.ID), HasText: strings.TrimSpace(n.Characters) != ""}
			}
			return true
		})
		out = append(out, render.Violations(d, i, m)...)
	}
	return out
}

// turnInput builds a critic turn as the loop would: the judge's diff text
// (origin -> current), the turn's edits (previous -> current), the changed
// slides rendered, and the origin's violations on them as the baseline.
func turnInput(t *testing.T, turn int, instruction string, origin, prev, cur *scenegraph.Deck) TurnInput {
	t.Helper()
	edits := EditsOf(diff.Compute(prev, cur))
	in := TurnInput{Turn: turn, Instruction: instruction, Diff: diff.Compute(origin, cur).Text(origin),
		Slides: slidesOf(t, cur), Edits: edits}
	for _, s := range edits.Slides {
		if _, i := cur.SlideByID(s); i >= 0 {
			in.Rendered = append(in.Rendered, s)
		}
	}
	in.Violations = authoredViolations(cur, in.Rendered)
	in.Baseline = authoredViolations(origin, in.Rendered)
	return in
}

// newCritic starts the scripted model server for script (in
// testdata/scripts) and a critic using it as the judge model "judge-m".
func newCritic(t *testing.T, script string) (*Critic, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Load(t, filepath.Join(shareddecks.Root(t), "testdata", "scripts", script))
	c, err := llm.New(srv.Config("agent-m", "judge-m"))
	if err != nil {
		t.Fatal(err)
	}
	return &Critic{LLM: c}, srv
}
