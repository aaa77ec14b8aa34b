package deckgen

import (
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

func TestGeneratedDecksValidateAtEverySize(t *testing.T) {
	for _, n := range []int{1, 10, 100, 1000} {
		d, blobs := Generate(Options{Slides: n, Seed: 1})
		if len(d.Slides) != n {
			t.Fatalf("%d slides requested, got %d", n, len(d.Slides))
		}
		if err := sg.Validate(d); err != nil {
			t.Fatalf("%d-slide deck invalid: %v", n, err)
		}
		for ref := range d.Assets {
			if _, err := blobs.AssetBytes(ref); err != nil {
				t.Fatalf("asset %s has no bytes", ref)
			}
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, _ := Generate(Options{Slides: 50, Seed: 7})
	b, _ := Generate(Options{Slides: 50, Seed: 7})
	c, _ := Generate(Options{Slides: 50, Seed: 8})
	ha, _ := sg.Hash(a)
	hb, _ := sg.Hash(b)
	hc, _ := sg.Hash(c)
	if ha != hb {
		t.Fatal("same seed gave different decks")
	}
	if ha == hc {
		t.Fatal("different seeds gave the same deck")
	}
}

func TestGeneratedDeckHasEverySlideKind(t *testing.T) {
	d, _ := Generate(Options{Slides: 13, Seed: 1})
	counts := d.CountByType()
	for _, typ := range []sg.NodeType{sg.TypeSlide, sg.TypeText, sg.TypeFrame, sg.TypeTable, sg.TypeTableCell, sg.TypeChart, sg.TypeImage} {
		if counts[typ] == 0 {
			t.Errorf("no %s in a 13-slide deck: %v", typ, counts)
		}
	}
}
