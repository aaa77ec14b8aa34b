package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/fonts"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// TestEditPageInARealBrowser builds the page of a real edit (a retitled
// slide and a removed one on a generated deck), renders the before/after
// pictures with the Chromium pool, and opens the page in headless Chromium
// to check what a person would see: both pictures decoded, the diff shown,
// and deck text escaped rather than run.
func TestEditPageInARealBrowser(t *testing.T) {
	ctx := context.Background()
	origin, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 9})
	current := origin.Clone()
	current.Slides[1].Children[0].Characters = `Growth <script>document.title="pwned"</script>`
	current.Slides = append(current.Slides[:4], current.Slides[5:]...)
	d := diff.Compute(origin, current)

	pool, err := render.NewPool(ctx, render.Options{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pairs, err := Pairs(ctx, pool, origin, current, blobs, blobs, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 2 {
		t.Fatalf("%d pairs, want the retitled and the removed slide", len(pairs))
	}
	if pairs[0].Number != 2 || pairs[0].Before == nil || pairs[0].After == nil {
		t.Fatalf("retitled slide pair: number %d before %d bytes after %d bytes", pairs[0].Number, len(pairs[0].Before), len(pairs[0].After))
	}
	if pairs[1].Note != "removed" || pairs[1].After != nil || pairs[1].Before == nil {
		t.Fatalf("removed slide pair %+v", pairs[1].Note)
	}
	if bytes.Equal(pairs[0].Before, pairs[0].After) {
		t.Fatal("before and after pictures of the retitled slide are identical")
	}
	score := 4.0
	var page bytes.Buffer
	err = WriteEdit(&page, Edit{
		Deck: "northwind.pptx", Instruction: "Retitle slide 2 and drop slide 5", Outcome: "succeeded",
		Slides: pairs, DiffText: d.Text(origin), DiffEntries: d.Distinct, Similarity: d.Score,
		Iterations: []Iteration{{N: 1, Score: &score, GatePassed: true, Decision: "stop", Selected: true, Duration: 1500 * time.Millisecond}},
		Checks:     []Check{{Name: "no_text Northwind", Passed: true}},
		Timings:    []Timing{{"render", 900 * time.Millisecond}},
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	chromium, err := render.FindChromium("")
	if err != nil {
		t.Fatal(err)
	}
	alloc, cancel := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true),
		chromedp.UserDataDir(t.TempDir()))...)
	defer cancel()
	bctx, bcancel := chromedp.NewContext(alloc)
	defer bcancel()
	bctx, tcancel := context.WithTimeout(bctx, 60*time.Second)
	defer tcancel()
	var title, text string
	var decoded int
	err = chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := chromedp.Navigate("file://"+path)(ctx, tg); err != nil {
			return err
		}
		if _, err := chromedp.WaitReady("body")(ctx, tg); err != nil {
			return err
		}
		var err error
		if title, err = chromedp.Title()(ctx, tg); err != nil {
			return err
		}
		if _, err = chromedp.Evaluate[chromedp.Void](`Promise.all([...document.images].map(i => i.decode().catch(() => 0)))`, chromedp.EvalAwaitPromise)(ctx, tg); err != nil {
			return err
		}
		if decoded, err = chromedp.Evaluate[int](`[...document.images].filter(i => i.complete && i.naturalWidth > 0).length`)(ctx, tg); err != nil {
			return err
		}
		text, err = chromedp.Evaluate[string](`document.body.innerText`)(ctx, tg)
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	if title != "ACE edit report: northwind.pptx" {
		t.Fatalf("title %q: deck text ran as script or the page broke", title)
	}
	if decoded != 3 {
		t.Fatalf("%d pictures decoded in the browser, want 3 (before+after, before of the removed slide)", decoded)
	}
	for _, want := range []string{"Slide 2 before", "Slide 5 after (removed)", "Retitle slide 2", `<script>document.title="pwned"</script>`} {
		if !strings.Contains(text, want) {
			t.Errorf("page text lacks %q", want)
		}
	}
}

func TestIndexPage(t *testing.T) {
	var b bytes.Buffer
	s := 3.0
	err := WriteIndex(&b, Batch{ID: "b1", Recipe: "rebrand", Rows: []Row{
		{Deck: "a.pptx", Page: "a.html", Outcome: "succeeded", Changed: 4},
		{Deck: "b.pptx", Outcome: "failed", Reason: "import b.pptx: not a zip file", Score: &s},
		{Deck: "c.pptx", Outcome: "succeeded"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"2 succeeded", "1 failed", `href="a.html"`, "not a zip file", "3.0"} {
		if !strings.Contains(html, want) {
			t.Errorf("index lacks %q", want)
		}
	}
}

func TestRecipeLinesDescribeTheRecipe(t *testing.T) {
	r, err := recipe.Load("../../testdata/recipes/rebrand.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := RecipeLines(r)
	if len(lines) != len(r.Steps)+1 || lines[0] != r.Description || !strings.Contains(strings.Join(lines, "\n"), `company name (set_text_content) on every node matching text "Northwind Analytics"`) {
		t.Fatalf("lines %q", lines)
	}
	var b bytes.Buffer
	if err := WriteEdit(&b, Edit{Deck: "d.pptx", Recipe: r.Name, RecipeSteps: lines, Outcome: "applied"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<li>company name (set_text_content)") {
		t.Fatal("the page does not list the recipe's steps")
	}
}

// TestSelectedIsTheIterationNumber: EditResult.Selected is the kept
// iteration's 1-based N (0 when the origin stands); the batch row's score
// and the edit page's kept mark follow it.
func TestSelectedIsTheIterationNumber(t *testing.T) {
	s1, s2 := 4.5, 2.0
	res := &acev1.EditResult{Selected: 1, Outcome: "stopped", Iterations: []*acev1.Iteration{
		{N: 1, Score: &s1, GatePassed: true}, {N: 2, Score: &s2, GatePassed: true}}}
	rows := Rows([]string{"a.pptx"}, map[string]*acev1.EditResult{"a.pptx": res}, nil)
	if rows[0].Score == nil || *rows[0].Score != 4.5 {
		t.Fatalf("row score %v, want iteration 1's 4.5", rows[0].Score)
	}
	e, err := FromResult(context.Background(), nil, nil, res, "shorten titles", nil, "out/a.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if !e.Iterations[0].Selected || e.Iterations[1].Selected {
		t.Fatalf("kept marks %v %v, want iteration 1 only", e.Iterations[0].Selected, e.Iterations[1].Selected)
	}
	res.Selected = 0
	if e, _ = FromResult(context.Background(), nil, nil, res, "shorten titles", nil, "out/a.pptx"); e.Iterations[0].Selected || e.Iterations[1].Selected {
		t.Fatal("Selected 0 (the origin stands) marked an iteration as kept")
	}
}

// TestFontsSectionOnARealDeck: the page of an edit of table-report (a real
// deck naming Arial, Open Sans and Alice, none installed here) lists every
// face its text names with how this machine drew it, as `ace convert
// --report` and `ace render` say it (issue 16 item 10).
func TestFontsSectionOnARealDeck(t *testing.T) {
	ctx := context.Background()
	origin, blobs, err := deckio.Load(shareddecks.PPTXFile(t, "table-report.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	final := origin.Clone()
	var title *scenegraph.Node
	final.Slides[0].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if title == nil && n.Type == scenegraph.TypeText && n.Characters != "" {
			title = n
		}
		return title == nil
	})
	title.Characters = "Quarterly report, revised"
	title.CharacterStyleOverrides, title.StyleOverrideTable = nil, nil
	st := store.NewMemory()
	if err := store.PutBlobs(ctx, st, blobs); err != nil {
		t.Fatal(err)
	}
	o, err := store.PutDeck(ctx, st, origin)
	if err != nil {
		t.Fatal(err)
	}
	f, err := store.PutDeck(ctx, st, final)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := render.NewPool(ctx, render.Options{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	e, err := FromResult(ctx, st, pool, &acev1.EditResult{DeckName: "table-report.pptx", Outcome: "succeeded", OriginSnapshot: o, FinalSnapshot: f}, "retitle", nil, "out/table-report.pptx")
	if err != nil {
		t.Fatal(err)
	}
	want := fonts.Used(final)
	if len(e.Fonts) != len(want) || len(want) < 3 {
		t.Fatalf("page fonts %+v, want the %d faces fonts.Used finds", e.Fonts, len(want))
	}
	var page bytes.Buffer
	if err := WriteEdit(&page, e); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	i := strings.Index(html, "<h2>Fonts</h2>")
	if i < 0 {
		t.Fatal("the page has no Fonts section")
	}
	sec := html[i:]
	sec = sec[:strings.Index(sec, "</section>")]
	for _, face := range want {
		row := "<td>" + face.Family + "</td><td>" + strconv.Itoa(face.Runs) + "</td>"
		if !strings.Contains(sec, row) {
			t.Errorf("Fonts section lacks the row of %q (%d runs):\n%s", face.Family, face.Runs, sec)
			continue
		}
		rest := sec[strings.Index(sec, row):]
		rest = rest[:strings.Index(rest, "</tr>")]
		switch {
		case face.Installed && !strings.Contains(rest, "installed"):
			t.Errorf("%s is installed but its row says %s", face.Family, rest)
		case !face.Installed && face.DrawnAs != "" && !strings.Contains(rest, "substituted</span> "+face.DrawnAs):
			t.Errorf("%s is drawn as %s but its row says %s", face.Family, face.DrawnAs, rest)
		}
	}
}
