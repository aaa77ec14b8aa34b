package runner_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/libreoffice"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/store"
)

// jaParagraph is 91 characters of Japanese: in a 480 px box at 24 px it
// takes five lines, where the tools' 0.55 em estimate gives three.
const jaParagraph = "東京の新しいオフィスでは、チーム全員が毎朝集まって一日の目標を確認し、顧客からの要望を共有しています。その後、各自が担当するプロジェクトを進め、夕方には成果を振り返ります。翌日も続け"

// hugLabel is set in capitals, wider than the 0.55 em estimate: exported
// at that estimate it wrapped in LibreOffice.
const hugLabel = "QUARTERLY MOMENTUM WWM"

// slidePart returns a part of a .pptx.
func slidePart(t *testing.T, data []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("no part %s", name)
	return ""
}

func nodeWithText(d *scenegraph.Deck, slide int, text string) *scenegraph.Node {
	var out *scenegraph.Node
	d.Slides[slide].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if out == nil && n.Characters == text {
			out = n
		}
		return out == nil
	})
	return out
}

// Issue 16 item 6: what the edit exports is what its gate measured. A
// 91-character Japanese paragraph in a 480 px box and a label that hugs
// its width, added to a real deck by a recipe, are exported at their
// rendered size; the export, imported again and rendered by ACE, has no
// overflow, its boxes match that render within 2 px, the paragraph is
// tagged ja-JP, and LibreOffice draws the label on one line.
func TestTheExportHoldsTheTextBoxesTheGateMeasured(t *testing.T) {
	ctx := context.Background()
	path := shareddecks.PPTXFile(t, "default_template.pptx")
	d, blobs, err := deckio.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "ja.yaml")
	os.WriteFile(p, []byte(`name: a Japanese paragraph and a label
steps:
  - for_each: {every_slide: true, slides: "1"}
    tool: create_text
    args: {parentId: "${match.id}", x: 120, y: 40, width: 480, fontSize: 24, color: "#FFFFFF", text: "`+jaParagraph+`"}
  - for_each: {every_slide: true, slides: "1"}
    tool: create_text
    args: {parentId: "${match.id}", x: 120, y: 600, fontSize: 20, color: "#FFFFFF", text: "`+hugLabel+`"}
`), 0o644)
	steps := &runner.Steps{Renderer: pool}
	rec := recipeRun(t, steps, d, blobs, p)
	it := rec.Iterations[0]
	if rec.Outcome != "applied" || !it.GatePassed || it.Measured == "" || rec.Final != it.Measured {
		t.Fatalf("want an applied edit exporting its measured snapshot: %s", dump(rec))
	}

	// What the gate measured, in the snapshot it judged.
	judged, err := store.GetDeck(ctx, steps.Store, it.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pool.Render(ctx, judged, store.Assets(ctx, steps.Store), render.Request{Slides: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	jaNode, labelNode := nodeWithText(judged, 0, jaParagraph), nodeWithText(judged, 0, hugLabel)
	mJa, mLabel := res.Slides[0].Nodes[jaNode.ID], res.Slides[0].Nodes[labelNode.ID]
	if mJa.Lines != 5 || mLabel.Lines != 1 {
		t.Fatalf("the gate measured %d lines of Japanese and %d of the label; the test expects 5 and 1", mJa.Lines, mLabel.Lines)
	}
	if est := jaNode.Size.Y; est > mJa.Bounds.Height-20 {
		t.Fatalf("the tools estimated %v px for the paragraph, the renderer %v: the test needs the estimate short", est, mJa.Bounds.Height)
	}

	// The file: boxes at the measured size, the language, the autofit.
	data, err := steps.Store.Get(ctx, rec.Export.Ref)
	if err != nil {
		t.Fatal(err)
	}
	x := slidePart(t, data, "ppt/slides/slide1.xml")
	ext := func(text string) (cx, cy float64, sp string) {
		t.Helper()
		i := strings.Index(x, "<a:t>"+text)
		j := strings.LastIndex(x[:i], "<p:sp>")
		sp = x[j : i+strings.Index(x[i:], "</p:sp>")]
		m := regexp.MustCompile(`<a:ext cx="(\d+)" cy="(\d+)"/>`).FindStringSubmatch(sp)
		w, _ := strconv.ParseFloat(m[1], 64)
		h, _ := strconv.ParseFloat(m[2], 64)
		return w / scenegraph.EMUPerPx, h / scenegraph.EMUPerPx, sp
	}
	jaW, jaH, jaSp := ext(jaParagraph[:9])
	lbW, lbH, lbSp := ext(hugLabel)
	if math.Abs(jaW-480) > 0.5 || math.Abs(jaH-mJa.Bounds.Height) > 1 {
		t.Errorf("paragraph exported %vx%v px, measured 480x%v", jaW, jaH, mJa.Bounds.Height)
	}
	if math.Abs(lbW-mLabel.Bounds.Width) > 1 || math.Abs(lbH-mLabel.Bounds.Height) > 1 {
		t.Errorf("label exported %vx%v px, measured %vx%v", lbW, lbH, mLabel.Bounds.Width, mLabel.Bounds.Height)
	}
	if !strings.Contains(jaSp, `<a:rPr lang="ja-JP"`) || strings.Contains(jaSp, `lang="en-US"`) {
		t.Errorf("the paragraph's runs are not tagged ja-JP:\n%s", jaSp)
	}
	if !strings.Contains(lbSp, `wrap="none"`) || !strings.Contains(lbSp, `<a:spAutoFit/>`) {
		t.Errorf("the label is not exported as a no-wrap auto-fit box:\n%s", lbSp)
	}

	// ACE's own render of its export: no overflow, the same boxes.
	out := filepath.Join(t.TempDir(), "out.pptx")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	back, backBlobs, err := deckio.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	again, err := pool.Render(ctx, back, backBlobs, render.Request{Slides: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range again.Violations {
		if v.Kind == render.KindTextOverflow {
			t.Errorf("the export's render overflows: %s %v", v.Reason, v.NodeIDs)
		}
	}
	for _, c := range []struct {
		text string
		m    render.Measured
	}{{jaParagraph, mJa}, {hugLabel, mLabel}} {
		n := nodeWithText(back, 0, c.text)
		if n == nil {
			t.Fatalf("the export lost %q", c.text)
		}
		got := again.Slides[0].Nodes[n.ID]
		if math.Abs(got.Bounds.Height-c.m.Bounds.Height) > 2 || math.Abs(got.Bounds.Width-c.m.Bounds.Width) > 2 || got.Lines != c.m.Lines {
			t.Errorf("%q re-imported draws %+v in %d lines, the gate measured %+v in %d", c.text[:9], got.Bounds, got.Lines, c.m.Bounds, c.m.Lines)
		}
	}
	t.Logf("paragraph: estimated %.1f px high, measured and exported %.1f px (%d lines); label exported %.1f px wide", jaNode.Size.Y, jaH, mJa.Lines, lbW)

	// LibreOffice draws the label on one line.
	if _, err := libreoffice.Binary(); err != nil {
		t.Skip(err)
	}
	pdfs, err := libreoffice.ToPDF(ctx, map[string][]byte{"out.pptx": data})
	if err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(t.TempDir(), "out.pdf")
	os.WriteFile(pdf, pdfs["out.pptx"], 0o644)
	txt, err := exec.Command("pdftotext", "-f", "1", "-l", "1", "-layout", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if !strings.Contains(string(txt), hugLabel) {
		t.Errorf("LibreOffice wraps the label:\n%s", txt)
	}
}

// cardRecipe adds to slide 1 a column frame (padding 16, spacing 12)
// holding a title that hugs and a 360 px paragraph; size is the frame's
// width and height arguments ("" for none).
func cardRecipe(t *testing.T, size string) string {
	p := filepath.Join(t.TempDir(), "card.yaml")
	os.WriteFile(p, []byte(`name: a card
steps:
  - for_each: {every_slide: true, slides: "1"}
    tool: create_frame
    args: {parentId: "${match.id}", name: Card, x: 120, y: 40, `+size+`layoutMode: VERTICAL, padding: 16, itemSpacing: 12, fill: {color: "#FFFFFF"}}
  - for_each: {name: Card}
    tool: create_text
    args: {parentId: "${match.id}", fontSize: 28, color: "#1F2937", text: "Quarterly momentum"}
  - for_each: {name: Card}
    tool: create_text
    args: {parentId: "${match.id}", width: 360, fontSize: 18, color: "#1F2937", text: "Revenue grew in every region this quarter, led by the new offices in Tokyo and Osaka."}
`), 0o644)
	return p
}

// Issue 16 item 7: an auto-layout frame created without a size hugs its
// children (sizes as the renderer laid them out, in the export too), and
// a frame given a size too small for its children is a violation the gate
// sees.
func TestAFrameWithoutASizeHugsItsContent(t *testing.T) {
	ctx := context.Background()
	d, blobs, err := deckio.Load(shareddecks.PPTXFile(t, "default_template.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	steps := &runner.Steps{Renderer: pool}
	rec := recipeRun(t, steps, d, blobs, cardRecipe(t, ""))
	if rec.Outcome != "applied" {
		t.Fatalf("outcome %s: %s", rec.Outcome, dump(rec.Iterations))
	}
	final, err := store.GetDeck(ctx, steps.Store, rec.Final)
	if err != nil {
		t.Fatal(err)
	}
	var card *scenegraph.Node
	for _, c := range final.Slides[0].Children {
		if c.Name == "Card" {
			card = c
		}
	}
	if card == nil || len(card.Children) != 2 {
		t.Fatalf("no card with two children on slide 1")
	}
	if card.LayoutSizingHorizontal != scenegraph.SizingHug || card.LayoutSizingVertical != scenegraph.SizingHug {
		t.Fatalf("card sizing %s x %s, want HUG x HUG", card.LayoutSizingHorizontal, card.LayoutSizingVertical)
	}
	title, body := card.Children[0], card.Children[1]
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 0.5 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	// The column: padding 16 around the wider child, 16 + title + 12 +
	// body + 16 high; the children at their slots.
	near("card width", card.Size.X, 16+math.Max(title.Size.X, body.Size.X)+16)
	near("card height", card.Size.Y, 16+title.Size.Y+12+body.Size.Y+16)
	near("title x", title.Transform.X(), 16)
	near("title y", title.Transform.Y(), 16)
	near("body y", body.Transform.Y(), 16+title.Size.Y+12)
	near("body width", body.Size.X, 360)
	if card.Size.X < 360+32 || body.Size.Y < 2*18 {
		t.Errorf("card %v holding a %v body: not the laid-out sizes", card.Size, body.Size)
	}
	// Those are the renderer's numbers, not estimates.
	res, err := pool.Render(ctx, final, store.Assets(ctx, steps.Store), render.Request{Slides: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []*scenegraph.Node{card, title, body} {
		m := res.Slides[0].Nodes[n.ID].Bounds
		near(n.ID+" measured width", m.Width, n.Size.X)
		near(n.ID+" measured height", m.Height, n.Size.Y)
	}
	for _, v := range res.Violations {
		if v.Kind == render.KindFrameOverflow {
			t.Errorf("a hugging card spills: %s", v.Reason)
		}
	}
	// The export's group is the card's size.
	data, err := steps.Store.Get(ctx, rec.Export.Ref)
	if err != nil {
		t.Fatal(err)
	}
	x := slidePart(t, data, "ppt/slides/slide1.xml")
	i := strings.Index(x, `name="Card"`)
	m := regexp.MustCompile(`<a:ext cx="(\d+)" cy="(\d+)"/>`).FindStringSubmatch(x[i:])
	cx, _ := strconv.ParseFloat(m[1], 64)
	cy, _ := strconv.ParseFloat(m[2], 64)
	near("exported card width", cx/scenegraph.EMUPerPx, card.Size.X)
	near("exported card height", cy/scenegraph.EMUPerPx, card.Size.Y)
	t.Logf("card %.2fx%.2f px: title %.2fx%.2f, body %.2fx%.2f", card.Size.X, card.Size.Y, title.Size.X, title.Size.Y, body.Size.X, body.Size.Y)

	// The same card given 100x100: its children spill and the gate says so.
	rec = recipeRun(t, &runner.Steps{Renderer: pool}, d, blobs, cardRecipe(t, "width: 100, height: 100, "))
	it := rec.Iterations[0]
	if rec.Outcome != "gate_blocked" || it.GatePassed || rec.Final != rec.Origin {
		t.Fatalf("a 100x100 card holding 360 px of text: outcome %s, gate passed %v", rec.Outcome, it.GatePassed)
	}
	found := false
	for _, v := range it.NewViolations {
		found = found || strings.Contains(v, "frame_overflow") && strings.Contains(v, "is 100x100 px but its content needs")
	}
	if !found {
		t.Errorf("new violations %q name no frame_overflow of the card", it.NewViolations)
	}
}
