package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	imgcolor "image/color"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools/assets"
)

// fixture is a generated 13-slide deck: 0 title, 1 bullets, 2 two-column,
// 3 card row (auto-layout), 4 table, 5 chart, 6 picture, 7 bullets,
// 8 two-column, 9 card row, 10 table, 11 pie chart, 12 section header.
func fixture(t testing.TB) *sg.Deck {
	t.Helper()
	fixtureOnce.Do(func() {
		fixtureDeck, _ = deckgen.Generate(deckgen.Options{Slides: 13, Seed: 7})
	})
	if err := sg.Validate(fixtureDeck); err != nil {
		t.Fatalf("generated deck does not validate: %v", err)
	}
	return fixtureDeck.Clone()
}

var (
	fixtureOnce sync.Once
	fixtureDeck *sg.Deck
)

// pngBytes makes a w x h PNG of one colour.
func pngBytes(w, h int, c imgcolor.RGBA) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// assetDir writes a small asset library: logos and photos with tags.
func assetDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "logos"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "photos"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "logos", "acme-logo.png"), pngBytes(200, 80, imgcolor.RGBA{200, 30, 30, 255}), 0o644))
	must(os.WriteFile(filepath.Join(dir, "photos", "team-meeting.png"), pngBytes(300, 200, imgcolor.RGBA{30, 90, 200, 255}), 0o644))
	must(os.WriteFile(filepath.Join(dir, "photos", "city.png"), pngBytes(400, 100, imgcolor.RGBA{90, 90, 90, 255}), 0o644))
	must(os.WriteFile(filepath.Join(dir, "tags.json"), []byte(`{"photos/city.png": ["skyline", "urban"]}`), 0o644))
	return dir
}

func opts(t testing.TB) Options {
	return Options{Assets: assets.NewLocal(assetDir(t)), Blobs: sg.Blobs{}}
}

// slideN returns the i-th slide.
func slideN(d *sg.Deck, i int) *sg.Node { return d.Slides[i] }

// named returns the first node named name on slide i.
// named returns the first node named name on slide i; t may be nil when
// building arguments.
func named(t testing.TB, d *sg.Deck, i int, name string) *sg.Node {
	n := d.Slides[i].Find(func(n *sg.Node) bool { return n.Name == name })
	if n == nil && t != nil {
		t.Helper()
		t.Fatalf("slide %d has no node named %q", i, name)
	}
	return n
}

// ofType returns the first node of a type on slide i.
func ofType(t testing.TB, d *sg.Deck, i int, typ sg.NodeType) *sg.Node {
	t.Helper()
	n := d.Slides[i].Find(func(n *sg.Node) bool { return n.Type == typ })
	if n == nil {
		t.Fatalf("slide %d has no %s", i, typ)
	}
	return n
}

func nodeIn(t testing.TB, d *sg.Deck, id string) *sg.Node {
	t.Helper()
	n := sg.NewIndex(d).Node(id)
	if n == nil {
		t.Fatalf("node %q not in deck", id)
	}
	return n
}

func js(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func call(tool string, args any) Call { return Call{Tool: tool, Args: js(args)} }

// apply runs calls and fails the test on error.
func apply(t testing.TB, d *sg.Deck, o Options, calls ...Call) (*sg.Deck, []Result) {
	t.Helper()
	out, res, err := Apply(d, calls, o)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if err := sg.Validate(out); err != nil {
		t.Fatalf("deck invalid after apply: %v", err)
	}
	return out, res
}

func hexOf(ps []sg.Paint) string {
	c, ok := firstSolid(ps)
	if !ok {
		return ""
	}
	return c.Hex()
}

func texts(n *sg.Node) []string {
	var out []string
	n.Walk(func(c, _ *sg.Node, _ int) bool {
		if c.Characters != "" {
			out = append(out, c.Characters)
		}
		return true
	})
	return out
}

func encode(t testing.TB, d *sg.Deck) []byte {
	t.Helper()
	b, err := sg.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeData(t testing.TB, r Result, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("data %s: %v", r.Data, err)
	}
}

func sgItoa(i int) string { return fmt.Sprint(i) }
