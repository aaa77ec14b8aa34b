package pptx

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// careerEdits records the five edits applied to career-tips.pptx.
type careerEdits struct {
	textID, recolorID, deletedID, newID string
	newText                             string
	swapped                             [2]string
	order                               []string
}

// replaceRun replaces the characters of run r of a text, keeping the run's
// style key.
func replaceRun(tc *sg.TextContent, r sg.Run, text string) {
	runes := []rune(tc.Characters)
	n := utf8.RuneCountInString(text)
	tc.Characters = string(runes[:r.Start]) + text + string(runes[r.End:])
	if len(tc.CharacterStyleOverrides) > r.Start {
		ov := append([]int{}, tc.CharacterStyleOverrides[:r.Start]...)
		for i := 0; i < n; i++ {
			ov = append(ov, r.Key)
		}
		if r.End < len(tc.CharacterStyleOverrides) {
			ov = append(ov, tc.CharacterStyleOverrides[r.End:]...)
		}
		for len(ov) > 0 && ov[len(ov)-1] == 0 {
			ov = ov[:len(ov)-1]
		}
		tc.CharacterStyleOverrides = ov
	}
}

// editCareerTips applies the five edits: change one text run,
// recolour one shape, delete one shape, add one text box, swap two slides.
func editCareerTips(t *testing.T, d *sg.Deck) careerEdits {
	t.Helper()
	var e careerEdits
	red := sg.MustHex("#D81B60")
	d.Walk(func(n, parent *sg.Node, depth int) bool {
		if e.textID == "" && n.Type == sg.TypeText {
			for _, r := range n.Runs() {
				seg := string([]rune(n.Characters)[r.Start:r.End])
				if r.Key != 0 && r.End-r.Start >= 4 && !strings.ContainsAny(seg, "\n\u2028") {
					e.newText = "ACE edited run"
					replaceRun(&n.TextContent, r, e.newText)
					e.textID = n.ID
					break
				}
			}
		}
		if e.recolorID == "" && (n.Type == sg.TypeRectangle || n.Type == sg.TypeEllipse) && len(n.Fills) == 1 && n.Fills[0].Type == sg.PaintSolid && !n.Fills[0].Color.Near(red, 0.01) {
			n.Fills = []sg.Paint{sg.Solid(red)}
			e.recolorID = n.ID
		}
		return true
	})
	// Delete the first picture on a slide.
	for _, s := range d.Slides {
		for i, c := range s.Children {
			if e.deletedID == "" && c.Type == sg.TypeImage {
				e.deletedID = c.ID
				s.Children = append(s.Children[:i], s.Children[i+1:]...)
				break
			}
		}
	}
	ix := sg.NewIndex(d)
	f := false
	e.newID = d.NewID(ix)
	d.Slides[0].Children = append(d.Slides[0].Children, &sg.Node{
		ID: e.newID, Type: sg.TypeText, Name: "ACE text box", Transform: sg.Translate(96, 480), Size: sg.Vector{X: 480, Y: 64},
		TextContent: sg.TextContent{Characters: "Added by ACE", Style: &sg.TypeStyle{FontFamily: "Arial", FontSize: 32, FontWeight: 700, Italic: &f,
			Fills: []sg.Paint{sg.Solid(sg.MustHex("#1E88E5"))}}},
	})
	d.Slides[2], d.Slides[3] = d.Slides[3], d.Slides[2]
	e.swapped = [2]string{d.Slides[2].ID, d.Slides[3].ID}
	for _, s := range d.Slides {
		e.order = append(e.order, s.ID)
	}
	if e.textID == "" || e.recolorID == "" || e.deletedID == "" {
		t.Fatalf("career-tips has no candidate for an edit: %+v", e)
	}
	return e
}

func stripSource(n *sg.Node) string {
	c := *n
	c.Source, c.Children = nil, nil
	return jsonOf(&c)
}

// TestEditedRoundTrip: five edits on career-tips.pptx, export, re-import:
// the five edits are there and nothing else changed; untouched slides keep
// their bytes.
func TestEditedRoundTrip(t *testing.T) {
	data := readDeck(t, "career-tips.pptx")
	d, blobs, err := Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	orig := d.Clone()
	e := editCareerTips(t, d)
	if err := sg.Validate(d); err != nil {
		t.Fatalf("edited deck invalid: %v", err)
	}
	out, warns, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	for _, w := range warns {
		t.Logf("export warning: %s", w)
	}
	checkPackage(t, out)
	d2, _, err := Import(out, "career-tips.edited.pptx")
	if err != nil {
		t.Fatalf("re-import of the edited export: %v", err)
	}
	// Slide order: the two slides swapped, nothing else moved.
	var order []string
	for _, s := range d2.Slides {
		order = append(order, s.ID)
	}
	if strings.Join(order, ",") != strings.Join(e.order, ",") {
		t.Errorf("slide order after re-import:\n got %v\nwant %v", order, e.order)
	}
	ix1, ix2, ix0 := sg.NewIndex(d), sg.NewIndex(d2), sg.NewIndex(orig)
	if ix2.Has(e.deletedID) {
		t.Errorf("deleted shape %s is back", e.deletedID)
	}
	if !ix0.Has(e.deletedID) {
		t.Errorf("deleted shape %s was not in the original", e.deletedID)
	}
	// Every node of the edited deck (except the new one) is in the re-import
	// with the same content; so the edits are there and nothing else moved.
	changed := 0
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.ID == e.newID {
			return true
		}
		m := ix2.Node(n.ID)
		if m == nil {
			t.Errorf("node %s (%s) missing after re-import", n.ID, n.Type)
			return true
		}
		if a, b := stripSource(n), stripSource(m); a != b {
			changed++
			if changed < 4 {
				t.Errorf("node %s differs after re-import:\n edited   %s\n reimport %s", n.ID, a, b)
			}
		}
		return true
	})
	if changed > 0 {
		t.Errorf("%d nodes differ from the edited deck", changed)
	}
	// The new text box is the only node the edited deck did not name.
	var added []*sg.Node
	d2.Walk(func(n, _ *sg.Node, _ int) bool {
		if !ix1.Has(n.ID) {
			added = append(added, n)
		}
		return true
	})
	if len(added) != 1 {
		t.Fatalf("want exactly one new node after re-import, got %d", len(added))
	}
	nb := added[0]
	if nb.Type != sg.TypeText || nb.Characters != "Added by ACE" || nb.Style.FontSize != 32 || nb.Style.FontFamily != "Arial" ||
		!nb.Style.Fills[0].Color.Near(sg.MustHex("#1E88E5"), 0.01) || nb.Transform != sg.Translate(96, 480) || nb.Size != (sg.Vector{X: 480, Y: 64}) {
		t.Errorf("new text box came back as %s", stripSource(nb))
	}
	if ix2.Slide(nb.ID).ID != d.Slides[0].ID {
		t.Errorf("new text box is on slide %s, want %s", ix2.Slide(nb.ID).ID, d.Slides[0].ID)
	}
	// The edits themselves.
	if got := ix2.Node(e.textID).Characters; !strings.Contains(got, e.newText) || got == ix0.Node(e.textID).Characters {
		t.Errorf("text edit lost: %q", got)
	}
	if f := ix2.Node(e.recolorID).Fills; len(f) != 1 || !f[0].Color.Near(sg.MustHex("#D81B60"), 0.01) {
		t.Errorf("recolour lost: %+v", f)
	}
	// Untouched slide parts are byte-identical.
	op, np := zipParts(t, data), zipParts(t, out)
	touched := map[string]bool{}
	for _, id := range []string{e.textID, e.recolorID, e.deletedID} {
		touched[ix0.Slide(id).Source.Part] = true
	}
	touched[orig.Slides[0].Source.Part] = true
	same := 0
	for name, b := range op {
		if !strings.HasPrefix(name, "ppt/slides/slide") || touched[name] {
			continue
		}
		if !bytes.Equal(b, np[name]) {
			t.Errorf("untouched slide part %s changed", name)
		} else {
			same++
		}
	}
	// Every other part (notes, embedded fonts, layouts, masters, media,
	// properties) passes through unchanged, unless the edit orphaned it.
	wasUsedBy, nowUsedBy := relUsers(op), relUsers(np)
	others, dropped := 0, 0
	for name, b := range op {
		if strings.HasPrefix(name, "ppt/slides/") || name == "ppt/presentation.xml" || name == "ppt/_rels/presentation.xml.rels" || name == "[Content_Types].xml" {
			continue
		}
		nb, ok := np[name]
		if !ok {
			// Only a part the edit left unreferenced may go: every user of
			// it in the original was an edited slide, and nothing in the
			// output still points at it.
			for _, src := range wasUsedBy[name] {
				if !strings.HasPrefix(src, "ppt/slides/") {
					t.Errorf("part %s dropped though %s, which no edit touched, used it", name, src)
				}
			}
			if users := nowUsedBy[name]; len(users) > 0 || len(wasUsedBy[name]) == 0 {
				t.Errorf("part %s dropped by the export (used by %v before, %v after)", name, wasUsedBy[name], users)
			}
			dropped++
			continue
		}
		if !bytes.Equal(b, nb) {
			t.Errorf("part %s changed though no edit touched it", name)
		}
		others++
	}
	t.Logf("%d other parts (notes, fonts, layouts, masters, media, properties) byte-identical, %d orphaned by the edits and dropped", others, dropped)
	t.Logf("edits: text %s, recolour %s, delete %s, add %s -> %s, swap %v; %d untouched slide parts byte-identical, %d touched",
		e.textID, e.recolorID, e.deletedID, e.newID, nb.ID, e.swapped, same, len(touched))
	if err := sg.Validate(d2); err != nil {
		t.Errorf("re-imported deck invalid: %v", err)
	}
	_ = strconv.Itoa
}
