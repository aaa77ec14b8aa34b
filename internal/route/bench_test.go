package route

import (
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
)

// Serialization per mode on a generated 1,000-slide deck (make bench).
func benchContext(b *testing.B, dec Decision) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 1000, Seed: 1})
	b.ResetTimer()
	var s string
	for b.Loop() {
		var err error
		if s, err = Context(d, dec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(s)), "bytes")
}

func BenchmarkContextMicro1000Slides(b *testing.B) {
	benchContext(b, Decision{Mode: Micro, TargetSlides: []int{500}})
}
func BenchmarkContextMacro1000Slides(b *testing.B)    { benchContext(b, Decision{Mode: Macro}) }
func BenchmarkContextSystemic1000Slides(b *testing.B) { benchContext(b, Decision{Mode: Systemic}) }
func BenchmarkContextFull1000Slides(b *testing.B)     { benchContext(b, Decision{Mode: Full}) }

func BenchmarkHeuristic(b *testing.B) {
	d := pitchDeck(100)
	for b.Loop() {
		Heuristic("Apply the layout from slide 1 to slides 2 through 5 and fix the overlapping text", d)
	}
}

// BenchmarkCountTokens counts the FULL context of a 100-slide deck.
func BenchmarkCountTokens(b *testing.B) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 100, Seed: 1})
	s, _ := Context(d, Decision{Mode: Full})
	CountTokens("warm up", O200K)
	b.SetBytes(int64(len(s)))
	b.ResetTimer()
	for b.Loop() {
		CountTokens(s, O200K)
	}
}
