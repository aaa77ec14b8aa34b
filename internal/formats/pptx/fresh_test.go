package pptx

import (
	"sort"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

func texts(d *sg.Deck) []string {
	var out []string
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Characters != "" {
			out = append(out, n.Characters)
		}
		return true
	})
	sort.Strings(out)
	return out
}

// TestFreshExportOfGeneratedDeck writes a generated deck (no .pptx source)
// as a fresh package, re-imports it and checks that slides, texts, tables,
// charts and pictures survive, then has LibreOffice convert it.
func TestFreshExportOfGeneratedDeck(t *testing.T) {
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 16, Seed: 7})
	d.Slides[1].Slide.Transition = &sg.Transition{Type: "fade", DurationMs: 750}
	out, warns, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	for _, w := range warns {
		t.Logf("export warning: %s", w)
	}
	checkPackage(t, out)
	d2, _, err := Import(out, "generated.pptx")
	if err != nil {
		t.Fatalf("re-import of the fresh export: %v", err)
	}
	if err := sg.Validate(d2); err != nil {
		t.Fatalf("re-imported deck invalid: %v", err)
	}
	if len(d2.Slides) != len(d.Slides) || d2.Width != d.Width || d2.Height != d.Height {
		t.Fatalf("got %d slides %gx%g, want %d slides %gx%g", len(d2.Slides), d2.Width, d2.Height, len(d.Slides), d.Width, d.Height)
	}
	c1, c2 := d.CountByType(), d2.CountByType()
	t.Logf("generated: %s", countLine(c1))
	t.Logf("re-import: %s", countLine(c2))
	for _, typ := range []sg.NodeType{sg.TypeTable, sg.TypeTableCell, sg.TypeChart, sg.TypeImage} {
		if c1[typ] != c2[typ] {
			t.Errorf("%s: %d generated, %d after the round trip", typ, c1[typ], c2[typ])
		}
	}
	// Every text comes back (frames become groups; text stays text).
	if a, b := strings.Join(texts(d), "|"), strings.Join(texts(d2), "|"); a != b {
		t.Errorf("texts differ after a fresh export:\n gen %.300s\n got %.300s", a, b)
	}
	if tr := d2.Slides[1].Slide.Transition; tr == nil || tr.Type != "fade" {
		t.Errorf("transition of a new slide: %+v", tr)
	}
	// Placeholder roles survive (titles stay titles).
	roles := func(d *sg.Deck) string {
		var r []string
		d.Walk(func(n, _ *sg.Node, _ int) bool {
			if n.Placeholder != nil {
				r = append(r, n.Placeholder.Role)
			}
			return true
		})
		return strings.Join(r, ",")
	}
	if a, b := roles(d), roles(d2); a != b || a == "" {
		t.Errorf("placeholder roles: generated %q, re-import %q", a, b)
	}
	// Theme tokens are written into the theme.
	for name, c := range d.Tokens.Colors {
		if got, ok := d2.Tokens.Colors[name]; ok && !got.Near(c, 0.01) {
			t.Errorf("theme colour %s: %s, want %s", name, got.Hex(), c.Hex())
		}
	}
	// Chart data survives.
	var ch1, ch2 []*sg.Chart
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Chart != nil {
			ch1 = append(ch1, n.Chart)
		}
		return true
	})
	d2.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Chart != nil {
			ch2 = append(ch2, n.Chart)
		}
		return true
	})
	for i := range ch1 {
		if i < len(ch2) && (ch1[i].ChartType != ch2[i].ChartType || jsonOf(ch1[i].Series) != jsonOf(ch2[i].Series) || jsonOf(ch1[i].Categories) != jsonOf(ch2[i].Categories)) {
			t.Errorf("chart %d: %s %s, came back %s %s", i, ch1[i].ChartType, jsonOf(ch1[i].Series), ch2[i].ChartType, jsonOf(ch2[i].Series))
		}
	}
	// TestRoundTripLibreOffice converts this deck too (one LibreOffice run
	// for all decks keeps the package's tests fast).
}

// generatedExport is the fresh export TestRoundTripLibreOffice converts.
func generatedExport(t *testing.T) ([]byte, int) {
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 16, Seed: 7})
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	return out, len(d.Slides)
}
