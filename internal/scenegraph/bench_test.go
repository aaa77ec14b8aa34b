package scenegraph_test

import (
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

func deck1000(b *testing.B) (*sg.Deck, []byte) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 1000, Seed: 1})
	enc, err := sg.Encode(d)
	if err != nil {
		b.Fatal(err)
	}
	return d, enc
}

// The four benchmarks below work on the generated 1,000-slide deck; MB/s is
// relative to its canonical JSON size.

func BenchmarkEncode1000(b *testing.B) {
	d, enc := deck1000(b)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sg.Encode(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode1000(b *testing.B) {
	_, enc := deck1000(b)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sg.Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHash1000(b *testing.B) {
	d, enc := deck1000(b)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sg.Hash(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate1000(b *testing.B) {
	d, enc := deck1000(b)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if err := sg.Validate(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClone1000(b *testing.B) {
	d, enc := deck1000(b)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		_ = d.Clone()
	}
}
