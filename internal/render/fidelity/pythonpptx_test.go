package fidelity

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image/png"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/libreoffice"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// pythonPPTXBaseline holds the mean SSIM of every python-pptx file as
// recorded (see TestPythonPPTXFidelity); maxSSIMDrop is how far below it a
// file may fall before the test fails (issue 16).
const (
	pythonPPTXBaseline = "testdata/python-pptx.tsv"
	maxSSIMDrop        = 0.02
)

// fileFidelity is one file's line of the baseline: its slides and the mean
// SSIM of ACE's slides against LibreOffice's (NaN for a file without
// slides).
type fileFidelity struct {
	slides int
	ssim   float64
}

// TestPythonPPTXFidelity renders each of the 55 PowerPoint-made files of
// python-pptx (../shared/decks/python-pptx, MIT) with ACE and with
// LibreOffice (PDF, rasterised by pdftoppm) and logs the mean SSIM per file
// (go test -v), then the minimum and median over the files. It fails
// when a file's mean falls more than 0.02 below the figure recorded in
// testdata/python-pptx.tsv, when the folder and the record list different
// files, or when LibreOffice's page count is not the slide count. A file
// recorded without slides must still have none: the nine templates and
// masters of the folder (default, lyt-shapes, minimal, mst-placeholders,
// mst-shapes, mst-slide-layouts, no-slides, prs-properties,
// prs-slide-masters) have an empty p:sldIdLst, so there is nothing to
// draw; they are listed with "-".
//
// Re-record after a change that moves the figures (say why in the
// commit):
//
//	ACE_FIDELITY_RECORD=1 go test -run TestPythonPPTXFidelity ./internal/render/fidelity/
//
// LibreOffice runs two conversions at a time, Chromium two pages; it
// skips with -short and when LibreOffice is not installed.
func TestPythonPPTXFidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 55 files with LibreOffice and Chromium")
	}
	if _, err := libreoffice.Binary(); err != nil {
		t.Skip(err)
	}
	type deck struct {
		name  string
		data  []byte
		d     *scenegraph.Deck
		blobs scenegraph.Blobs
	}
	var decks []deck
	toConvert := map[string][]byte{}
	for _, path := range shareddecks.PythonPPTX(t, "*.pptx") {
		d, blobs := importDeck(t, path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		decks = append(decks, deck{name, data, d, blobs})
		if len(d.Slides) > 0 {
			toConvert[name] = data
		}
	}
	pdfs := libreOfficePDFs(t, toConvert)
	pool := newPool(t, 2)
	measured := map[string]fileFidelity{}
	for _, dk := range decks {
		if len(dk.d.Slides) == 0 {
			measured[dk.name] = fileFidelity{0, math.NaN()}
			t.Logf("%-32s  0 slides  no SSIM: an empty p:sldIdLst, nothing to draw", dk.name)
			continue
		}
		w, h := int(dk.d.Width), int(dk.d.Height)
		dir := t.TempDir()
		pdf := filepath.Join(dir, "lo.pdf")
		if err := os.WriteFile(pdf, pdfs[dk.name], 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		los, err := PDFPNGs(ctx, pdf, dir, w, h)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if len(los) != len(dk.d.Slides) {
			cancel()
			t.Errorf("%s: LibreOffice gave %d pages for %d slides", dk.name, len(los), len(dk.d.Slides))
			continue
		}
		res, err := pool.Render(ctx, dk.d, dk.blobs, render.Request{Images: true})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", dk.name, err)
		}
		var sum float64
		worst, worstSlide := math.Inf(1), 0
		for i, s := range res.Slides {
			ours, err := png.Decode(bytes.NewReader(s.PNG))
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := ReadPNG(los[i])
			if err != nil {
				t.Fatal(err)
			}
			v := SSIM(ours, theirs)
			sum += v
			if v < worst {
				worst, worstSlide = v, i+1
			}
		}
		mean := sum / float64(len(res.Slides))
		measured[dk.name] = fileFidelity{len(res.Slides), mean}
		t.Logf("%-32s %2d slides  SSIM %.3f (worst slide %d: %.3f)", dk.name, len(res.Slides), mean, worstSlide, worst)
	}
	var means []float64
	for _, m := range measured {
		if !math.IsNaN(m.ssim) {
			means = append(means, m.ssim)
		}
	}
	slices.Sort(means)
	if len(means) > 0 {
		t.Logf("%d files with slides: SSIM min %.3f, median %.3f, max %.3f", len(means), means[0], means[len(means)/2], means[len(means)-1])
	}
	if os.Getenv("ACE_FIDELITY_RECORD") == "1" {
		writeBaseline(t, measured)
		return
	}
	want := readBaseline(t)
	for _, name := range slices.Sorted(maps.Keys(measured)) {
		got, ok := want[name]
		m := measured[name]
		switch {
		case !ok:
			t.Errorf("%s is not in %s: re-record (ACE_FIDELITY_RECORD=1)", name, pythonPPTXBaseline)
		case got.slides != m.slides:
			t.Errorf("%s: %d slides, recorded with %d", name, m.slides, got.slides)
		case math.IsNaN(got.ssim):
		case m.ssim < got.ssim-maxSSIMDrop:
			t.Errorf("%s: mean SSIM %.3f, recorded %.3f: dropped by %.3f (more than %.2f)", name, m.ssim, got.ssim, got.ssim-m.ssim, maxSSIMDrop)
		case m.ssim > got.ssim+maxSSIMDrop:
			t.Logf("%s: mean SSIM %.3f, recorded %.3f: better; re-record to keep the gain", name, m.ssim, got.ssim)
		}
	}
	for name := range want {
		if _, ok := measured[name]; !ok {
			t.Errorf("%s is recorded in %s but not in the folder", name, pythonPPTXBaseline)
		}
	}
}

// libreOfficePDFs converts the files (base name -> bytes) to PDF with two
// LibreOffice processes at once, each converting half of them, and
// returns the PDFs by name.
func libreOfficePDFs(t *testing.T, files map[string][]byte) map[string][]byte {
	t.Helper()
	names := slices.Sorted(maps.Keys(files))
	halves := [2]map[string][]byte{{}, {}}
	for i, name := range names {
		halves[i%2][name] = files[name]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var outs [2]map[string][]byte
	var errs [2]error
	for k := range halves {
		if len(halves[k]) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[k], errs[k] = libreoffice.ToPDF(ctx, halves[k])
		}()
	}
	wg.Wait()
	all := map[string][]byte{}
	for k := range halves {
		if errs[k] != nil {
			t.Fatal(errs[k])
		}
		maps.Copy(all, outs[k])
	}
	return all
}

// readBaseline reads testdata/python-pptx.tsv: "#" comment lines, a
// header, then file, slides and mean SSIM ("-" for none) per line.
func readBaseline(t *testing.T) map[string]fileFidelity {
	t.Helper()
	b, err := os.ReadFile(pythonPPTXBaseline)
	if err != nil {
		t.Fatalf("%v: record it with ACE_FIDELITY_RECORD=1", err)
	}
	out := map[string]fileFidelity{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "file\t") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 3 {
			t.Fatalf("%s:%d: want file, slides, SSIM separated by tabs: %q", pythonPPTXBaseline, line, text)
		}
		slides, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("%s:%d: slides %q: %v", pythonPPTXBaseline, line, f[1], err)
		}
		v := math.NaN()
		if f[2] != "-" {
			if v, err = strconv.ParseFloat(f[2], 64); err != nil {
				t.Fatalf("%s:%d: SSIM %q: %v", pythonPPTXBaseline, line, f[2], err)
			}
		}
		out[f[0]] = fileFidelity{slides, v}
	}
	return out
}

// writeBaseline records the figures, with the LibreOffice version they
// were measured against.
func writeBaseline(t *testing.T, m map[string]fileFidelity) {
	t.Helper()
	lo, _ := libreoffice.Binary()
	version, _ := exec.Command(lo, "--version").Output()
	var b strings.Builder
	b.WriteString("# Mean SSIM of ACE's render against LibreOffice's, per python-pptx file\n")
	b.WriteString("# (TestPythonPPTXFidelity; \"-\": a file without slides). Measured with\n")
	fmt.Fprintf(&b, "# %s\n", strings.TrimSpace(string(version)))
	b.WriteString("# Re-record: ACE_FIDELITY_RECORD=1 go test -run TestPythonPPTXFidelity ./internal/render/fidelity/\n")
	b.WriteString("file\tslides\tssim\n")
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v := "-"
		if !math.IsNaN(m[name].ssim) {
			v = strconv.FormatFloat(m[name].ssim, 'f', 4, 64)
		}
		fmt.Fprintf(&b, "%s\t%d\t%s\n", name, m[name].slides, v)
	}
	if err := os.MkdirAll(filepath.Dir(pythonPPTXBaseline), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pythonPPTXBaseline, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d files in %s", len(m), pythonPPTXBaseline)
}
