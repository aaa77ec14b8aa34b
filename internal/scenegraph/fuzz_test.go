package scenegraph_test

import (
	"bytes"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// FuzzDecode feeds arbitrary bytes to Decode + Validate. It must never panic;
// whatever it accepts must encode, and re-decode to the same canonical bytes.
// Seed corpus: testdata/fuzz/FuzzDecode (committed) plus the seeds below.
func FuzzDecode(f *testing.F) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 3})
	good, _ := sg.Encode(d)
	f.Add(good)
	f.Add([]byte(`{"id":"d","width":1280,"height":720,"slides":[]}`))
	f.Add([]byte(`{"id":"d","width":1280,"height":720,"slides":[{"id":"s","type":"SLIDE","relativeTransform":[[1,0,0],[0,1,0]],"size":{"x":1,"y":1},"children":[{"id":"s","type":"TEXT","characters":"hé","characterStyleOverrides":[1,1,1]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := sg.DefaultLimits
		lim.MaxNodes = 5000
		deck, err := sg.DecodeWithLimits(data, lim)
		if err != nil {
			return
		}
		enc, err := sg.Encode(deck)
		if err != nil {
			t.Fatalf("valid deck does not encode: %v", err)
		}
		back, err := sg.DecodeWithLimits(enc, lim)
		if err != nil {
			t.Fatalf("re-decoding the canonical form failed: %v", err)
		}
		enc2, _ := sg.Encode(back)
		if !bytes.Equal(enc, enc2) {
			t.Fatal("canonical encoding not stable")
		}
		_ = sg.NewIndex(deck)
		_ = deck.Clone()
	})
}
