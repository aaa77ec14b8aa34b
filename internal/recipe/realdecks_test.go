package recipe_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/libreoffice"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

var shipped = []string{"rebrand", "legal-footer", "logo-swap", "title-normalize"}

// TestShippedRecipesOnRealDecks runs the four shipped recipes on the six
// real decks: each edit must keep its expectations (with the geometry gate
// measured by the renderer, and edited shrink-on-overflow text refitted
// by it as the runner's tool options do), leave every untouched slide part byte-identical
// to the original, and export a file LibreOffice converts to a PDF with one
// page per slide (the originals' own conversion is checked by the pptx
// package's round-trip test).
func TestShippedRecipesOnRealDecks(t *testing.T) {
	if testing.Short() {
		t.Skip("renders and converts 6 decks x 4 recipes")
	}
	ctx := context.Background()
	pool := newPool(t)
	recipes := map[string]*recipe.Recipe{}
	for _, name := range shipped {
		r, err := recipe.Load("../../testdata/recipes/" + name + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		recipes[name] = r
	}
	toConvert := map[string][]byte{}
	wantPages := map[string]int{}
	for _, path := range shareddecks.PPTX(t) {
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(path), ".pptx")
		d0, blobs, err := pptx.Import(orig, filepath.Base(path))
		if err != nil {
			t.Fatal(err)
		}
		before, err := pool.Render(ctx, d0, blobs, render.Request{})
		if err != nil {
			t.Fatalf("%s: render original: %v", base, err)
		}
		for _, name := range shipped {
			r := recipes[name]
			t.Run(base+"/"+name, func(t *testing.T) {
				added := sg.Blobs{}
				plan, err := recipe.Compile(r, d0, recipe.Options{Tools: tools.Options{Blobs: added, Measure: render.MeasureFunc(ctx, pool, blobs), Backdrop: render.BackdropFunc(ctx, pool, blobs), FitText: render.FitTextFunc(ctx, pool, blobs)}})
				if err != nil {
					t.Fatal(err)
				}
				d1 := plan.Result
				after, err := pool.Render(ctx, d1, chain{blobs, added}, render.Request{})
				if err != nil {
					t.Fatal(err)
				}
				_, newOnes := render.Gate(after.Violations, before.Violations)
				gate := recipe.GateResult{Checked: true}
				for _, v := range newOnes {
					gate.NewViolations = append(gate.NewViolations, fmt.Sprintf("%s on slide %s: %s", v.Kind, v.SlideID, v.Reason))
				}
				for _, f := range recipe.Check(r, d1, gate) {
					t.Errorf("%s", f)
				}
				out, err := pptx.Export(d1, chain{blobs, added})
				if err != nil {
					t.Fatal(err)
				}
				// What the exported file shows is what was gated: the file
				// imported again renders without new violations either.
				d2, blobs2, err := pptx.Import(out, base+".pptx")
				if err != nil {
					t.Fatal(err)
				}
				again, err := pool.Render(ctx, d2, blobs2, render.Request{})
				if err != nil {
					t.Fatal(err)
				}
				if _, newOnes := render.Gate(again.Violations, before.Violations); len(newOnes) > 0 && len(gate.NewViolations) == 0 {
					for _, v := range newOnes {
						t.Errorf("exported file: new %s on slide %s (%v): %s", v.Kind, v.SlideID, v.NodeIDs, v.Reason)
					}
				}
				changed := map[string]bool{}
				for _, id := range sg.ChangedSlides(d0, d1) {
					changed[id] = true
				}
				untouched := checkUntouched(t, orig, out, d0, changed)
				t.Logf("%d calls, %d slides changed, %d untouched slide parts byte-identical", len(plan.Calls), len(changed), untouched)
				toConvert[base+"-"+name+".pptx"] = out
				wantPages[base+"-"+name+".pptx"] = len(d0.Slides)
			})
		}
	}
	pages, err := libreoffice.PDFPages(ctx, toConvert)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(pages))
	for n := range pages {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if pages[n] != wantPages[n] {
			t.Errorf("%s: LibreOffice made %d pages, want %d (the slide count)", n, pages[n], wantPages[n])
		}
	}
}

type chain []sg.AssetSource

func (c chain) AssetBytes(ref string) ([]byte, error) {
	var err error
	for _, s := range c {
		var b []byte
		if b, err = s.AssetBytes(ref); err == nil {
			return b, nil
		}
	}
	return nil, err
}

// checkUntouched compares the slide parts of unchanged slides byte for byte.
func checkUntouched(t *testing.T, orig, out []byte, d0 *sg.Deck, changed map[string]bool) int {
	t.Helper()
	a, b := parts(t, orig), parts(t, out)
	n := 0
	for _, s := range d0.Slides {
		if changed[s.ID] || s.Source == nil || s.Source.Part == "" {
			continue
		}
		if !bytes.Equal(a[s.Source.Part], b[s.Source.Part]) {
			t.Errorf("slide %s (%s) was not edited but its part changed", s.ID, s.Source.Part)
		}
		n++
	}
	return n
}

func parts(t *testing.T, data []byte) map[string][]byte {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		m[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	return m
}
