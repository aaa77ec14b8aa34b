package scenegraph_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Round-trip property: decode(encode(d)) == d with equal hashes, for every
// generated deck.
func TestRoundTripGeneratedDecks(t *testing.T) {
	for _, n := range []int{1, 10, 100, 1000} {
		for seed := uint64(1); seed <= 3; seed++ {
			if n == 1000 && seed > 1 {
				break // one 1,000-slide deck is enough and keeps the test fast
			}
			d, _ := deckgen.Generate(deckgen.Options{Slides: n, Seed: seed})
			enc, err := sg.Encode(d)
			if err != nil {
				t.Fatal(err)
			}
			back, err := sg.Decode(enc)
			if err != nil {
				t.Fatalf("%d slides seed %d: %v", n, seed, err)
			}
			if !reflect.DeepEqual(d, back) {
				t.Fatalf("%d slides seed %d: decoded deck differs from the original", n, seed)
			}
			enc2, _ := sg.Encode(back)
			if !bytes.Equal(enc, enc2) {
				t.Fatalf("%d slides seed %d: canonical encoding not stable", n, seed)
			}
			h1, _ := sg.Hash(d)
			h2, _ := sg.Hash(back)
			if h1 != h2 || len(h1) != 64 {
				t.Fatalf("hashes %s vs %s", h1, h2)
			}
		}
	}
}

func TestCloneIsDeepAndEqual(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 30, Seed: 4})
	c := d.Clone()
	if !reflect.DeepEqual(d, c) {
		t.Fatal("clone differs from the original")
	}
	shared := sharedMemory(reflect.ValueOf(d), reflect.ValueOf(c), "deck")
	if shared != "" {
		t.Fatalf("clone shares memory with the original at %s", shared)
	}
	// A change to the clone leaves the original's hash alone.
	h0, _ := sg.Hash(d)
	c.Slides[1].Children[0].Characters = "changed"
	c.Slides[1].Children[0].Style.FontSize = 99
	if h1, _ := sg.Hash(d); h1 != h0 {
		t.Fatal("editing the clone changed the original")
	}
}

// sharedMemory walks a and b in parallel and returns the path of the first
// pointer, slice or map they share, or "".
func sharedMemory(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		return sharedMemory(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := 0; i < a.Len() && i < b.Len(); i++ {
			if p := sharedMemory(a.Index(i), b.Index(i), path+"[]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for _, k := range a.MapKeys() {
			if p := sharedMemory(a.MapIndex(k), b.MapIndex(k), path+"."+k.String()); p != "" {
				return p
			}
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if p := sharedMemory(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if p := sharedMemory(a.Index(i), b.Index(i), path); p != "" {
				return p
			}
		}
	}
	return ""
}

func TestIndexLookupParentSlide(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 10, Seed: 1})
	ix := sg.NewIndex(d)
	if ix.Len() != d.Count() {
		t.Fatalf("index holds %d of %d nodes", ix.Len(), d.Count())
	}
	d.Walk(func(n, parent *sg.Node, _ int) bool {
		if ix.Node(n.ID) != n {
			t.Fatalf("lookup %s", n.ID)
		}
		if ix.Parent(n.ID) != parent {
			t.Fatalf("parent of %s", n.ID)
		}
		return true
	})
	if _, err := ix.Lookup("no-such-id"); err == nil {
		t.Fatal("stale id lookup succeeded")
	}
	// A card inside an auto-layout row: absolute bounds compose transforms.
	card := d.Slides[3].Children[1].Children[1]
	if got := ix.AbsoluteBounds(card.ID); got.X <= 64 || got.Y != 170 {
		t.Fatalf("card bounds %+v: want x > 64 (row offset + first card) and y = 170", got)
	}
	if ix.Slide(card.ID) != d.Slides[3] {
		t.Fatal("slide of card")
	}
}

func TestNewIDNeverReusesAnID(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 1})
	d.Slides[0].Children[0].ID = "n7" // an imported id that looks like a fresh one
	d.SyncIDSeq()
	ix := sg.NewIndex(d)
	seen := map[string]bool{}
	d.Walk(func(n, _ *sg.Node, _ int) bool { seen[n.ID] = true; return true })
	for i := 0; i < 100; i++ {
		id := d.NewID(ix)
		if seen[id] {
			t.Fatalf("NewID returned %s, already used", id)
		}
		seen[id] = true
	}
	// The sequence survives serialization: a decoded deck keeps allocating
	// past what the original handed out, even for ids since deleted.
	enc, _ := sg.Encode(d)
	back, err := sg.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	if id := back.NewID(nil); seen[id] {
		t.Fatalf("after round trip NewID returned used id %s", id)
	}
}

func TestTransformRotationAndBounds(t *testing.T) {
	tr := sg.Translate(10, 20).Rotated(90)
	if r := tr.Rotation(); r < 89.999 || r > 90.001 {
		t.Fatalf("rotation %v", r)
	}
	b := tr.Bounds(sg.Vector{X: 100, Y: 50})
	// Rotating a 100x50 box 90° clockwise about its top-left corner spans
	// x in [-40, 10] and y in [20, 120].
	if abs(b.X+40) > 1e-9 || abs(b.Y-20) > 1e-9 || abs(b.Width-50) > 1e-9 || abs(b.Height-100) > 1e-9 {
		t.Fatalf("bounds %+v", b)
	}
	if sg.PxToEMU(1) != 9525 || sg.EMUToPx(914400) != 96 {
		t.Fatal("EMU conversion")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestTextRunsAndStyleAt(t *testing.T) {
	n := sg.TextContent{
		Characters:              "Grow 20% now",
		Style:                   &sg.TypeStyle{FontFamily: "Inter", FontSize: 20},
		CharacterStyleOverrides: []int{0, 0, 0, 0, 0, 1, 1, 1},
		StyleOverrideTable:      map[string]sg.TypeStyle{"1": {FontWeight: 700}},
	}
	runs := n.Runs()
	if len(runs) != 3 || runs[1] != (sg.Run{Start: 5, End: 8, Key: 1}) || runs[2].End != 12 {
		t.Fatalf("runs %+v", runs)
	}
	if s := n.StyleAt(6); s.FontWeight != 700 || s.FontFamily != "Inter" {
		t.Fatalf("style at 6: %+v", s)
	}
	if s := n.StyleAt(10); s.FontWeight != 0 {
		t.Fatalf("style at 10: %+v", s)
	}
}

func TestColorHex(t *testing.T) {
	c, err := sg.ParseHex("#0B6E4F")
	if err != nil || c.Hex() != "#0B6E4F" {
		t.Fatalf("%v %v", c, err)
	}
	if _, err := sg.ParseHex("#12"); err == nil {
		t.Fatal("accepted #12")
	}
	if !c.Near(sg.MustHex("#0C6E4F"), 0.01) || c.Near(sg.MustHex("#106E4F"), 0.01) {
		t.Fatal("Near tolerance")
	}
}

func TestChangedSlides(t *testing.T) {
	a, _ := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	b := a.Clone()
	if got := sg.ChangedSlides(a, b); len(got) != 0 {
		t.Fatalf("identical decks: %v", got)
	}
	b.Slides[2].Children[0].Characters = "retitled"
	b.Slides = append(b.Slides[:4], b.Slides[5:]...)                     // remove slide 5
	b.Slides = append(b.Slides, &sg.Node{ID: "new", Type: sg.TypeSlide}) // add one
	got := sg.ChangedSlides(a, b)
	want := []string{a.Slides[2].ID, "new", a.Slides[4].ID}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("changed %v, want %v", got, want)
	}
}
