package deckio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

func TestLoadEveryFormat(t *testing.T) {
	cases := []struct {
		path   string
		format Format
	}{
		{"../../testdata/decks/northwind-qbr.pptx", PPTX},
		{shareddecks.Figma(t), FigmaJSON},
	}
	for _, c := range cases {
		data, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Detect(c.path, data)
		if err != nil || f != c.format {
			t.Fatalf("%s: detected %q, %v", c.path, f, err)
		}
		d, _, err := Load(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if len(d.Slides) == 0 {
			t.Fatalf("%s: no slides", c.path)
		}
		// Through the scene-graph JSON and back.
		out := filepath.Join(t.TempDir(), "deck.json")
		if err := Save(out, d, sg.Blobs{}, false); err != nil {
			t.Fatal(err)
		}
		back, _, err := Load(out)
		if err != nil {
			t.Fatal(err)
		}
		h1, _ := sg.Hash(d)
		h2, _ := sg.Hash(back)
		if h1 != h2 {
			t.Fatalf("%s: scene-graph JSON round trip changed the deck", c.path)
		}
	}
}

func TestSaveNeverOverwritesUnlessAsked(t *testing.T) {
	d, blobs, err := Load("../../testdata/decks/northwind-qbr.pptx")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.pptx")
	if err := Save(out, d, blobs, false); err != nil {
		t.Fatal(err)
	}
	if err := Save(out, d, blobs, false); err == nil || !strings.Contains(err.Error(), "never overwrites") {
		t.Fatalf("second save: %v", err)
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("a new deck is saved with mode %v (%v), want -rw-r--r--", st.Mode().Perm(), err)
	}
	if err := os.Chmod(out, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Save(out, d, blobs, true); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o640 {
		t.Fatalf("an overwritten deck changed mode to %v, want it kept at -rw-r-----", st.Mode().Perm())
	}
}

func TestBadInputNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	trunc := filepath.Join(dir, "cut.pptx")
	full, _ := os.ReadFile("../../testdata/decks/northwind-qbr.pptx")
	os.WriteFile(trunc, full[:len(full)/3], 0o644)
	if _, _, err := Load(trunc); err == nil || strings.Count(err.Error(), "cut.pptx") != 1 || !strings.HasPrefix(err.Error(), trunc+": ") {
		t.Fatalf("truncated pptx: want the path named once, got %v", err)
	}
	empty := filepath.Join(dir, "empty.pptx")
	os.WriteFile(empty, nil, 0o644)
	if _, _, err := Load(empty); err == nil || !strings.Contains(err.Error(), "is empty (0 bytes)") {
		t.Fatalf("empty file: %v", err)
	}
	if _, _, err := Decode("notes.txt", []byte("hello")); err == nil || !strings.Contains(err.Error(), "unknown deck format") {
		t.Fatalf("unknown format: %v", err)
	}
	if _, _, err := Decode("deck.json", []byte(`{"id": 1}`)); err == nil || !strings.Contains(err.Error(), "deck.json") {
		t.Fatalf("bad json: %v", err)
	}
}

// A deck saved as scene-graph .json keeps its pictures and its original
// .pptx in deck.assets beside it, and loads with them: it renders with its
// images and exports back to .pptx.
func TestJSONDeckKeepsItsAssetsBesideIt(t *testing.T) {
	d, blobs, err := Load("../../testdata/decks/northwind-qbr.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Assets) == 0 || d.Source == nil || d.Source.Ref == "" {
		t.Fatal("the demo deck has no pictures or no source; it changed?")
	}
	out := filepath.Join(t.TempDir(), "qbr.json")
	if err := Save(out, d, blobs, false); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(AssetsDir(out)); err != nil || !st.IsDir() {
		t.Fatalf("no asset folder beside %s: %v", out, err)
	}
	d2, blobs2, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for ref := range d.Assets {
		if _, ok := blobs2[ref]; !ok {
			t.Errorf("picture %s missing after the .json round trip", ref[:12])
		}
	}
	if _, ok := blobs2[d.Source.Ref]; !ok {
		t.Error("original package missing after the .json round trip")
	}
	if _, err := Encode("back.pptx", d2, blobs2); err != nil {
		t.Fatalf("the .json deck does not export to .pptx: %v", err)
	}
	// Without its folder the deck still loads (pictures are then missing).
	os.RemoveAll(AssetsDir(out))
	if _, b, err := Load(out); err != nil || len(b) != 0 {
		t.Fatalf("without assets: %d blobs, %v", len(b), err)
	}
}

func TestMissingAssetsNamesPicturesNotAtHand(t *testing.T) {
	d, blobs, err := Load("../../testdata/decks/northwind-qbr.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if m := MissingAssets(d, blobs); len(m) != 0 {
		t.Fatalf("with the deck's own blobs: %d missing", len(m))
	}
	if m := MissingAssets(d, nil); len(m) != len(d.Assets) || len(m) == 0 {
		t.Fatalf("without assets: %d missing of %d", len(m), len(d.Assets))
	}
}
