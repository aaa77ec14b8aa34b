package route

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// realDecks imports the six real PPTX decks from ../shared/decks/pptx.
func realDecks(t testing.TB) map[string]*scenegraph.Deck {
	t.Helper()
	names := shareddecks.PPTX(t)
	out := map[string]*scenegraph.Deck{}
	for _, p := range names {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d, _, err := pptx.Import(data, filepath.Base(p))
		if err != nil {
			t.Fatalf("import %s: %v", p, err)
		}
		out[filepath.Base(p)] = d
	}
	return out
}

func tokensOf(t testing.TB, d *scenegraph.Deck, dec Decision) int {
	t.Helper()
	s, err := Context(d, dec)
	if err != nil {
		t.Fatal(err)
	}
	n, err := CountTokens(s, O200K)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// reduction measures 1 - mode/FULL tokens: micro averaged over up to
// `samples` single target slides spread over the deck, macro and systemic
// over the whole deck.
type reduction struct {
	slides                 int
	full, raw              int
	micro, macro, systemic float64
	// textBound is 1 - (tokens of the deck's text alone)/FULL: the most
	// any context that carries every text (macro, Table 21) can save.
	textBound float64
}

func measure(t testing.TB, d *scenegraph.Deck, samples int) reduction {
	r := reduction{slides: len(d.Slides)}
	r.full = tokensOf(t, d, Decision{Mode: Full})
	raw, _ := scenegraph.Encode(d)
	r.raw, _ = CountTokens(string(raw), O200K)
	k := min(samples, len(d.Slides))
	var sum float64
	for j := range k {
		i := j * len(d.Slides) / k
		sum += 1 - float64(tokensOf(t, d, Decision{Mode: Micro, TargetSlides: []int{i}}))/float64(r.full)
	}
	r.micro = sum / float64(k)
	r.macro = 1 - float64(tokensOf(t, d, Decision{Mode: Macro}))/float64(r.full)
	var text strings.Builder
	d.Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if n.Characters != "" {
			text.WriteString(n.Characters)
			text.WriteByte('\n')
		}
		return true
	})
	nt, _ := CountTokens(text.String(), O200K)
	r.textBound = 1 - float64(nt)/float64(r.full)
	r.systemic = 1 - float64(tokensOf(t, d, Decision{Mode: Systemic}))/float64(r.full)
	return r
}

// TestTokenReductionPerMode measures CARE's input-token reduction per mode
// on the six real decks and generated 100- and 1,000-slide decks
// (o200k_base tokens) against two baselines:
//   - FULL, our own FULL context: compact JSON of everything, itself 2-8
//     times smaller than the deck as stored;
//   - raw, the deck's canonical scene-graph JSON, i.e. "passing the full
//     deck" as the paper does (ACE §3.2, Table 1: micro 86.6%, macro 90.9%,
//     systemic 95.7%, averages over tasks).
//
// Macro carries every text (Table 21), so against the compact FULL it can
// never save more than the share of FULL that is not text ("text bound"
// column); on text-heavy small decks that bound is far below 90.9%. The
// paper's targets are therefore asserted against the paper's baseline.
func TestTokenReductionPerMode(t *testing.T) {
	decks := realDecks(t)
	sizes := []int{100, 1000}
	if testing.Short() {
		sizes = []int{100}
	}
	for _, n := range sizes {
		d, _ := deckgen.Generate(deckgen.Options{Slides: n, Seed: 7})
		decks[fmt.Sprintf("deckgen-%d", n)] = d
	}
	names := make([]string, 0, len(decks))
	for name := range decks {
		names = append(names, name)
	}
	slices.Sort(names)
	fmt.Printf("CARE token reduction (o200k_base): vs FULL context (text bound: macro's ceiling) | vs raw scene-graph JSON (the paper's baseline)\n")
	var micro, macro, systemic, bound, microRaw, macroRaw, systemicRaw float64
	for _, name := range names {
		d := decks[name]
		r := measure(t, d, 8)
		raw := func(red float64) float64 { return 1 - (1-red)*float64(r.full)/float64(r.raw) }
		fmt.Printf("  %-28s %4d slides  FULL %7d tok  raw %7d tok | micro %5.1f%% macro %5.1f%% (bound %5.1f%%) systemic %5.1f%% | micro %5.1f%% macro %5.1f%% systemic %5.1f%%\n",
			name, r.slides, r.full, r.raw, 100*r.micro, 100*r.macro, 100*r.textBound, 100*r.systemic, 100*raw(r.micro), 100*raw(r.macro), 100*raw(r.systemic))
		for mode, red := range map[Mode]float64{Micro: r.micro, Macro: r.macro, Systemic: r.systemic} {
			if red <= 0 {
				t.Errorf("%s: %s context is not smaller than FULL (%.1f%%)", name, mode, 100*red)
			}
		}
		micro += r.micro
		macro += r.macro
		bound += r.textBound
		systemic += r.systemic
		microRaw += raw(r.micro)
		macroRaw += raw(r.macro)
		systemicRaw += raw(r.systemic)
	}
	k := float64(len(names))
	fmt.Printf("  mean over %d decks: vs FULL micro %.1f%% macro %.1f%% (bound %.1f%%) systemic %.1f%% | vs raw JSON micro %.1f%% macro %.1f%% systemic %.1f%% (paper: 86.6 / 90.9 / 95.7)\n",
		len(names), 100*micro/k, 100*macro/k, 100*bound/k, 100*systemic/k, 100*microRaw/k, 100*macroRaw/k, 100*systemicRaw/k)
	for _, c := range []struct {
		mode      string
		got, want float64
	}{{"micro", microRaw / k, 0.866}, {"macro", macroRaw / k, 0.909}, {"systemic", systemicRaw / k, 0.957}} {
		if c.got < c.want {
			t.Errorf("mean %s reduction vs the deck as stored %.1f%% below the paper's %.1f%%", c.mode, 100*c.got, 100*c.want)
		}
	}
	if micro/k < 0.866 {
		t.Errorf("mean micro reduction vs FULL %.1f%% below the paper's 86.6%%", 100*micro/k)
	}
	// Macro must take most of what its text bound allows: the skeleton
	// (ids, names, fonts, structure) at most three times its text.
	if macro/k < bound/k-(1-bound/k)*2 {
		t.Errorf("mean macro reduction vs FULL %.1f%% too far under its text bound %.1f%%", 100*macro/k, 100*bound/k)
	}
}
