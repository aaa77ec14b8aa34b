package diff

import (
	"fmt"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Builders for small hand-made decks.

func deck(slides ...*scenegraph.Node) *scenegraph.Deck {
	return &scenegraph.Deck{ID: "d", Name: "test", Width: 1280, Height: 720, Slides: slides}
}

func slide(id, name string, kids ...*scenegraph.Node) *scenegraph.Node {
	return &scenegraph.Node{ID: id, Type: scenegraph.TypeSlide, Name: name, Size: scenegraph.Vector{X: 1280, Y: 720},
		Transform: scenegraph.Identity, Children: kids}
}

func node(id string, t scenegraph.NodeType, name string, x, y, w, h float64, kids ...*scenegraph.Node) *scenegraph.Node {
	return &scenegraph.Node{ID: id, Type: t, Name: name, Transform: scenegraph.Translate(x, y),
		Size: scenegraph.Vector{X: w, Y: h}, Children: kids}
}

func text(id, name, chars string, x, y float64) *scenegraph.Node {
	n := node(id, scenegraph.TypeText, name, x, y, 400, 60)
	n.Characters = chars
	n.Style = &scenegraph.TypeStyle{FontFamily: "Inter", FontSize: 24, FontWeight: 400,
		Fills: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#222222"))}}
	return n
}

func rect(id, name string, x, y float64, hex string) *scenegraph.Node {
	n := node(id, scenegraph.TypeRectangle, name, x, y, 100, 50)
	n.Fills = []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex(hex))}
	return n
}

// find returns the node with that id in d, failing the test if absent.
func find(t *testing.T, d *scenegraph.Deck, id string) *scenegraph.Node {
	t.Helper()
	n := scenegraph.NewIndex(d).Node(id)
	if n == nil {
		t.Fatalf("node %s not in deck", id)
	}
	return n
}

// kinds summarises entries as "kind:property" strings.
func kinds(d *Diff) []string {
	var out []string
	for _, e := range d.Entries {
		s := string(e.Kind)
		if e.Property != "" {
			s += ":" + e.Property
		}
		out = append(out, s)
	}
	return out
}

func want(t *testing.T, d *Diff, expected ...string) {
	t.Helper()
	got := kinds(d)
	if fmt.Sprint(got) != fmt.Sprint(expected) {
		t.Fatalf("entries = %v, want %v\n%s", got, expected, d.Text(nil))
	}
}

// sample is a two-slide deck with a title, a card frame holding a text and
// a rectangle, and a table-free body.
func sample() *scenegraph.Deck {
	card := node("card", scenegraph.TypeFrame, "Card", 100, 200, 500, 300,
		text("cardText", "Caption", "Revenue grew 12% in Q3", 20, 20),
		rect("cardBg", "Accent", 20, 120, "#1F4E79"),
	)
	other := node("other", scenegraph.TypeFrame, "Sidebar", 700, 200, 400, 300)
	return deck(
		slide("s1", "Title", text("t1", "Title", "Quarterly review", 100, 80), card, other),
		slide("s2", "Agenda", text("t2", "Title", "Agenda", 100, 80), text("b2", "Body", "One\nTwo\nThree", 100, 200)),
	)
}
