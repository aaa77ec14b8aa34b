package route

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Classifier is the one model call of the LLM router: it sends a system and
// a user message at temperature 0 and returns the model's text. The llm
// package's client satisfies it through ClassifierFunc.
type Classifier interface {
	Classify(ctx context.Context, system, user string) (string, error)
}

// ClassifierFunc adapts a function to Classifier.
type ClassifierFunc func(ctx context.Context, system, user string) (string, error)

// Classify calls f.
func (f ClassifierFunc) Classify(ctx context.Context, system, user string) (string, error) {
	return f(ctx, system, user)
}

// SystemPrompt is the router's system message (ACE App. B.3, Listing 1;
// our wording). The model must answer with one JSON object.
const SystemPrompt = `You route editing instructions for a slide-deck editor. Read the instruction and the deck summary, pick EXACTLY ONE context mode, and list the slides the edit needs.

Modes:
MICRO_SPATIAL - the instruction names specific slides (by number, position or content) and everything the edit needs is on those slides: add, edit, move, resize, align, restyle elements; build a chart, table or diagram on one slide. Not for edits that need information from slides it does not name: "match the rest of the deck's colours" is SYSTEMIC_TOKEN; "make it consistent with the other slides" is SYSTEMIC_TOKEN or MACRO_PROGRAMMATIC; "use slide 1's format on slide 5" is MICRO_SPATIAL with both slides listed.
MACRO_PROGRAMMATIC - one operation over many or all slides, or a change to the deck's structure: translate or proofread everything, find and replace, change a font everywhere, bold every title, add footers or slide numbers, delete, merge, split, duplicate or reorder slides, make an agenda match the slides. Any reordering of slides is MACRO_PROGRAMMATIC.
SYSTEMIC_TOKEN - a design-system change across the deck: colour scheme, theme, palette, dark or light mode, brand or accent colours everywhere.

Each slide line of the summary gives its number, title and what it holds after "|": tables (rows x columns), charts (type), pictures (alt text when there is one), SmartArt, equations, and "notes" when it has speaker notes. Resolve references by content from these: "the first table" is the lowest-numbered slide with a table; "the chart slide" is the slide with a chart.

Target slides are 1-based. List every slide the instruction mentions, both the slides to change and the slides it uses as a source or example ("like slide 3", "from slide 1"): "Apply the layout of slide 1 to slides 2 through 5" -> [1, 2, 3, 4, 5]. Use [] when the edit concerns the whole deck.

Answer with only this JSON object:
{"mode": "MICRO_SPATIAL" | "MACRO_PROGRAMMATIC" | "SYSTEMIC_TOKEN", "target_slides": [1, 5], "reason": "<one sentence>"}`

// UserPrompt is the router's user message: the instruction and the
// presentation summary, one line per slide with its name, title (marked
// as the slide's first text when a deck with title placeholders has none
// on that slide) and what it holds (SlideSummary.String: tables with their size, charts with their
// type, pictures, SmartArt, equations, notes), so references by content
// route without the scene graph.
func UserPrompt(instruction string, d *scenegraph.Deck) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Instruction: %s\n\nPresentation: %d slide(s)\n", instruction, len(d.Slides))
	titled := d.UsesTitlePlaceholders()
	for i, s := range d.Slides {
		if s == nil {
			continue
		}
		sum := Summarize(s, i)
		if titled {
			// "every slide title on slides 5-8" must not count slide 5's
			// quotation as its title (a relay model's tryout).
			_, isTitle := s.TitleText()
			sum.Untitled = !isTitle
		}
		b.WriteString(sum.String())
		b.WriteByte('\n')
		if i == 499 && len(d.Slides) > 500 {
			fmt.Fprintf(&b, "... %d more slides\n", len(d.Slides)-500)
			break
		}
	}
	return b.String()
}

// llmAnswer is the router model's reply; fields are raw so each can be
// validated (and rejected) on its own.
type llmAnswer struct {
	Mode    json.RawMessage `json:"mode"`
	Targets json.RawMessage `json:"target_slides"`
	Reason  json.RawMessage `json:"reason"`
}

// Route runs the CARE control flow of ACE App. B (Algorithm 2): the
// heuristic H always; then, when llm is not nil, one classification call
// whose mode, target_slides and reason are each adopted only if they parse
// and validate (mode one of the three routed modes or FULL; targets
// integers, clamped to [1, n] and shifted to 0-based; reason a non-empty
// string), else H's field is kept. needs_image is always H's. Explicit
// slide references H found are added to the model's targets, so a source
// slide the model forgot is never dropped. A MICRO_SPATIAL decision with
// no targets falls back to H's mode and targets. Finally a one-slide deck
// turns MACRO_PROGRAMMATIC into MICRO_SPATIAL on slide 0. Route never
// fails: a model error means the heuristic decision.
func Route(ctx context.Context, instruction string, d *scenegraph.Deck, llm Classifier) Decision {
	if d == nil {
		d = &scenegraph.Deck{}
	}
	h := Heuristic(instruction, d)
	if llm == nil {
		return h
	}
	text, err := llm.Classify(ctx, SystemPrompt, UserPrompt(instruction, d))
	if err != nil {
		h.Reason += "; router model failed: " + shortErr(err)
		return h
	}
	var a llmAnswer
	if err := json.Unmarshal([]byte(extractJSON(text)), &a); err != nil {
		h.Reason += "; router model reply was not JSON"
		return h
	}
	dec := Decision{NeedsImage: h.NeedsImage, Source: "llm"}
	fallback := false

	if m, ok := validMode(a.Mode); ok {
		dec.Mode = m
	} else {
		dec.Mode, fallback = h.Mode, true
	}
	if ts, ok := validTargets(a.Targets, len(d.Slides)); ok {
		dec.TargetSlides = ts
		if r := extractRefs(strings.ToLower(instruction), d); r.explicit {
			dec.TargetSlides = union(dec.TargetSlides, r.slides)
		}
	} else {
		dec.TargetSlides, fallback = h.TargetSlides, true
	}
	var reason string
	if json.Unmarshal(a.Reason, &reason) == nil && strings.TrimSpace(reason) != "" {
		dec.Reason = strings.TrimSpace(reason)
	} else {
		dec.Reason, fallback = h.Reason, true
	}
	if dec.Mode == Micro && len(dec.TargetSlides) == 0 {
		dec.Mode, dec.TargetSlides, fallback = h.Mode, h.TargetSlides, true
	}
	if fallback {
		dec.Source = "llm+heuristic"
	}
	return reclassifySingleSlide(dec, len(d.Slides))
}

func validMode(raw json.RawMessage) (Mode, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	m, err := ParseMode(strings.TrimSpace(s))
	if err != nil || m == Off {
		return "", false
	}
	return m, true
}

// validTargets accepts a JSON array of whole numbers (1-based), clamps
// them to [1, n] and returns them 0-based, sorted and unique.
func validTargets(raw json.RawMessage, n int) ([]int, bool) {
	var vals []float64
	if len(raw) == 0 || json.Unmarshal(raw, &vals) != nil {
		return nil, false
	}
	out := []int{}
	for _, v := range vals {
		if v != math.Trunc(v) || math.IsInf(v, 0) || n == 0 {
			return nil, false
		}
		i := min(max(int(v), 1), n) - 1
		out = append(out, i)
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

func union(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// extractJSON returns the first {...} object of a reply, tolerating code
// fences and prose around it.
func extractJSON(s string) string {
	start := strings.IndexByte(s, '{')
	if start < 0 {
		return s
	}
	depth, inStr, esc := 0, false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && c == '{':
			depth++
		case !inStr && c == '}':
			depth--
			if depth == 0 {
				return s[start : i+1]
			}
		}
	}
	return s[start:]
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 160 {
		s = s[:159] + "…"
	}
	return s
}
