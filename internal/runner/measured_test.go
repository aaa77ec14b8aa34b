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
