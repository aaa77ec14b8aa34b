package route

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func fixed(reply string) Classifier {
	return ClassifierFunc(func(ctx context.Context, system, user string) (string, error) { return reply, nil })
}

func TestHeuristicExtractsExplicitSlideReferences(t *testing.T) {
	d := pitchDeck(12)
	cases := []struct {
		in   string
		want []int // 1-based
	}{
		{"Change the title on slide 3", []int{3}},
		{"Fix slides 2 through 5", []int{2, 3, 4, 5}},
		{"Recolour slides 2-4", []int{2, 3, 4}},
		{"On 2-4, add a divider to each slide", []int{2, 3, 4}},
		{"Edit the last slide", []int{12}},
		{"Bold the first two slides' titles", []int{1, 2}},
		{"Make slide three bigger", []int{3}},
		{"Tweak the third slide", []int{3}},
		{"Slides 1, 4 and 6 need a footer", []int{1, 4, 6}},
		{"Move the chart on slide 40 left", []int{12}}, // clamped to the deck
		{"Update the value on slide 10 to 3.2 million", []int{10}},
		{"Use the second and third slides", []int{2, 3}},
		{"Center the logo on the title slide", []int{1}},
		{"Trim the penultimate slide", []int{11}},
		{"Make the bars in the pricing slide's chart thinner", []int{7}},
		{`Reword the "Total addressable market" heading`, []int{5}},
	}
	for _, c := range cases {
		got := Heuristic(c.in, d).OneBased()
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: targets %v, want %v", c.in, got, c.want)
		}
	}
}

func TestHeuristicModePriority(t *testing.T) {
	d := pitchDeck(12)
	cases := []struct {
		in   string
		want Mode
	}{
		{"Apply a dark theme to the entire deck", Systemic},     // systemic + global
		{"The slides are in the wrong order, fix it", Macro},    // structural
		{"Translate everything into Italian", Macro},            // macro, no targets
		{"Proofread slides 1, 3, 5, 7 and 9", Macro},            // macro, > 3 targets
		{"Align the logos on slide 4", Micro},                   // 1-6 explicit targets
		{"Make the presentation look more modern", Full},        // global geometry/look
		{"Make it pop", Full},                                   // no cue
		{"Add a drop shadow to the cards on slides 1-8", Macro}, // > 6 targets
	}
	for _, c := range cases {
		if got := Heuristic(c.in, d); got.Mode != c.want {
			t.Errorf("%q: %s (%s), want %s", c.in, got.Mode, got.Reason, c.want)
		}
	}
}

func TestNeedsImageComesFromTheImageBanksWithTiesTrue(t *testing.T) {
	d := pitchDeck(12)
	if Heuristic("Translate the deck into Japanese", d).NeedsImage {
		t.Error("translation needs no image")
	}
	if !Heuristic("Fix the overlapping images on slide 3", d).NeedsImage {
		t.Error("overlap needs the image")
	}
	if !Heuristic("Do something with slide 3", d).NeedsImage {
		t.Error("no cue either way is a tie: needs_image defaults to true")
	}
}

func TestSingleSlideDeckTurnsMacroIntoMicro(t *testing.T) {
	d := pitchDeck(1)
	dec := Heuristic("Translate all text into French", d)
	if dec.Mode != Micro || !slices.Equal(dec.TargetSlides, []int{0}) {
		t.Fatalf("got %+v", dec)
	}
	dec = Route(context.Background(), "Translate all text", d, fixed(`{"mode":"MACRO_PROGRAMMATIC","target_slides":[],"reason":"batch"}`))
	if dec.Mode != Micro || !slices.Equal(dec.TargetSlides, []int{0}) || dec.Reason == "" {
		t.Fatalf("LLM path: got %+v", dec)
	}
}

func TestRouteAdoptsAValidModelAnswer(t *testing.T) {
	d := pitchDeck(12)
	var gotSystem, gotUser string
	llm := ClassifierFunc(func(ctx context.Context, system, user string) (string, error) {
		gotSystem, gotUser = system, user
		return "```json\n{\"mode\": \"MICRO_SPATIAL\", \"target_slides\": [1, 5], \"reason\": \"uses slide 1 as the source\"}\n```", nil
	})
	dec := Route(context.Background(), "Give slide 5 the look of slide 1", d, llm)
	if dec.Mode != Micro || !slices.Equal(dec.OneBased(), []int{1, 5}) || dec.Reason != "uses slide 1 as the source" || dec.Source != "llm" {
		t.Fatalf("got %+v", dec)
	}
	if gotSystem != SystemPrompt || !strings.Contains(gotUser, "Instruction: Give slide 5 the look of slide 1") ||
		!strings.Contains(gotUser, "12 slide(s)") || !strings.Contains(gotUser, "7. Pricing") {
		t.Fatalf("prompt: %q", gotUser)
	}
}

func TestRouteFallsBackPerField(t *testing.T) {
	d := pitchDeck(12)
	h := Heuristic("Translate the whole deck into German", d)
	// Bad mode, good targets and reason.
	dec := Route(context.Background(), "Translate the whole deck into German", d, fixed(`{"mode":"TURBO","target_slides":[],"reason":"deck-wide"}`))
	if dec.Mode != h.Mode || dec.Reason != "deck-wide" || dec.Source != "llm+heuristic" {
		t.Fatalf("bad mode: %+v", dec)
	}
	// Good mode, malformed targets (strings, fractions): H's targets.
	dec = Route(context.Background(), "Fix slide 3", d, fixed(`{"mode":"MICRO_SPATIAL","target_slides":["three"],"reason":"r"}`))
	if dec.Mode != Micro || !slices.Equal(dec.OneBased(), []int{3}) || dec.Source != "llm+heuristic" {
		t.Fatalf("bad targets: %+v", dec)
	}
	dec = Route(context.Background(), "Fix slide 3", d, fixed(`{"mode":"MICRO_SPATIAL","target_slides":[2.5],"reason":"r"}`))
	if !slices.Equal(dec.OneBased(), []int{3}) {
		t.Fatalf("fractional target accepted: %+v", dec)
	}
	// Out-of-range targets are clamped to [1, n].
	dec = Route(context.Background(), "Fix the chart", d, fixed(`{"mode":"MICRO_SPATIAL","target_slides":[0, 99],"reason":"r"}`))
	if !slices.Equal(dec.OneBased(), []int{1, 12}) {
		t.Fatalf("clamp: %+v", dec)
	}
	// Missing reason: H's reason.
	dec = Route(context.Background(), "Fix slide 3", d, fixed(`{"mode":"MICRO_SPATIAL","target_slides":[3]}`))
	if dec.Reason == "" || dec.Source != "llm+heuristic" {
		t.Fatalf("missing reason: %+v", dec)
	}
	// Micro with no targets is not a valid decision: H's mode and targets.
	dec = Route(context.Background(), "Translate the whole deck into German", d, fixed(`{"mode":"MICRO_SPATIAL","target_slides":[],"reason":"r"}`))
	if dec.Mode != h.Mode {
		t.Fatalf("micro without targets: %+v", dec)
	}
}

func TestRouteKeepsExplicitSlidesTheModelDropped(t *testing.T) {
	d := pitchDeck(12)
	dec := Route(context.Background(), "Apply the layout from slide 1 to slides 2 through 5", d,
		fixed(`{"mode":"MICRO_SPATIAL","target_slides":[2,3,4,5],"reason":"layout copy"}`))
	if !slices.Equal(dec.OneBased(), []int{1, 2, 3, 4, 5}) {
		t.Fatalf("source slide dropped: %+v", dec)
	}
}

func TestRouteWithoutModelOrOnErrorIsTheHeuristic(t *testing.T) {
	d := pitchDeck(12)
	h := Heuristic("Fix slide 3", d)
	if got := Route(context.Background(), "Fix slide 3", d, nil); got.Mode != h.Mode || got.Source != "heuristic" {
		t.Fatalf("nil model: %+v", got)
	}
	failing := ClassifierFunc(func(context.Context, string, string) (string, error) { return "", errors.New("429 rate limited") })
	got := Route(context.Background(), "Fix slide 3", d, failing)
	if got.Mode != h.Mode || !strings.Contains(got.Reason, "429") || got.Source != "heuristic" {
		t.Fatalf("model error: %+v", got)
	}
	if got := Route(context.Background(), "Fix slide 3", d, fixed("I think micro.")); got.Source != "heuristic" {
		t.Fatalf("non-JSON reply: %+v", got)
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"micro": Micro, "MACRO_PROGRAMMATIC": Macro, "systemic-token": Systemic, "Full": Full, "off": Off} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseMode("tiny"); err == nil || !strings.Contains(err.Error(), "MICRO_SPATIAL") {
		t.Errorf("bad mode error: %v", err)
	}
}
