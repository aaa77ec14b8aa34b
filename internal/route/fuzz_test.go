package route

import (
	"context"
	"slices"
	"testing"
)

func checkDecision(t *testing.T, dec Decision, n int) {
	t.Helper()
	if _, err := ParseMode(string(dec.Mode)); err != nil {
		t.Fatalf("invalid mode %q", dec.Mode)
	}
	if !slices.IsSorted(dec.TargetSlides) || len(slices.Compact(slices.Clone(dec.TargetSlides))) != len(dec.TargetSlides) {
		t.Fatalf("targets not sorted and unique: %v", dec.TargetSlides)
	}
	for _, i := range dec.TargetSlides {
		if i < 0 || i >= n {
			t.Fatalf("target %d outside deck of %d", i, n)
		}
	}
	if dec.Mode == Micro && len(dec.TargetSlides) == 0 {
		t.Fatal("MICRO_SPATIAL without targets")
	}
	if dec.Reason == "" {
		t.Fatal("empty reason")
	}
	if _, err := Context(pitchDeck(n), dec); err != nil && n > 0 {
		t.Fatalf("decision does not serialize: %v", err)
	}
}

// FuzzHeuristic: any instruction on any deck size gives a valid decision
// (slide-reference parsing never panics or escapes the deck).
func FuzzHeuristic(f *testing.F) {
	for _, s := range []string{"slides 2 through 5", "slide 10 to 3.2 million", "the last 3 slides", "slides 1, 4 and 6",
		"On 2-4 add", "the pricing slide's chart", `"Total addressable market"`, "slide 99999999999999999999", "slides 5-1",
		"first twenty slides", "penultimate slide", "Translate the entire presentation"} {
		f.Add(s, uint8(12))
	}
	f.Fuzz(func(t *testing.T, instruction string, n uint8) {
		d := pitchDeck(int(n % 40))
		checkDecision(t, Heuristic(instruction, d), len(d.Slides))
	})
}

// FuzzRouteReply: whatever the router model answers, Route returns a valid
// decision.
func FuzzRouteReply(f *testing.F) {
	for _, s := range []string{`{"mode":"MICRO_SPATIAL","target_slides":[1,5],"reason":"x"}`, `{"mode":"MACRO","target_slides":[]}`,
		"```json\n{\"mode\": \"SYSTEMIC_TOKEN\"}\n```", `{"mode":1,"target_slides":"3","reason":null}`, `{"target_slides":[1e308,-4,2.5]}`,
		`not json`, `{"mode":"MICRO_SPATIAL","target_slides":[],"reason":"{nested}"}`, `{{{{`} {
		f.Add(s, "Fix slide 3")
	}
	f.Fuzz(func(t *testing.T, reply, instruction string) {
		d := pitchDeck(12)
		dec := Route(context.Background(), instruction, d, ClassifierFunc(func(context.Context, string, string) (string, error) { return reply, nil }))
		checkDecision(t, dec, 12)
	})
}
