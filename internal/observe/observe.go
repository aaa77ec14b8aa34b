// Package observe turns what the renderer measured after one of the
// agent's steps into the text observation the agent reads with its tool
// results (ReDeck §3.2: after every edit, Delta viol against the turn's
// start, each new or resolved violation with its element ids and boxes,
// and anchors of the main elements; text only, no screenshot, no score).
//
// ACE's observation adds the measured boxes of the text the step touched
// (rendered lines, height, overflow in px), because an overflow is easiest
// to fix knowing by how much. It is bounded: a step that changes many
// slides gets every violation counted, at most MaxListed of them
// described and anchors for at most MaxAnchorSlides slides, about 1,500
// tokens at most on a 35-slide deck (TestObservationIsBounded).
package observe

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// Bounds of one observation.
const (
	// MaxListed is how many new violations are described one per line
	// (in slide order), MaxResolved how many resolved ones; the rest are
	// counted by kind.
	MaxListed   = 8
	MaxResolved = 4
	// MaxExisting is how many violations the slides already had at the
	// start (and still have) are described; the rest are counted.
	MaxExisting = 4
	// MaxAnchorSlides is how many changed slides get their anchors listed.
	MaxAnchorSlides = 2
	// MaxAnchors is how many anchors one slide lists.
	MaxAnchors = 6
	// MaxTouched is how many touched text nodes get their measured box
	// (those that overflow first).
	MaxTouched = 5
	// maxSlidesNamed is how many measured slides are named one by one;
	// more are given as number ranges.
	maxSlidesNamed = 8
	// previewRunes is the length of a text preview.
	previewRunes = 40
)

// Observation is what the agent is told after a step.
type Observation struct {
	// Slides are the ids of the slides measured: every slide changed
	// since the baseline (the iteration's start).
	Slides []string `json:"slides,omitempty"`
	// Before and Now count violations on those slides at the baseline and
	// now; DeltaViol is Now - Before (ReDeck's Delta viol).
	Before    int `json:"before"`
	Now       int `json:"now"`
	DeltaViol int `json:"deltaViol"`
	// ByKind splits DeltaViol by violation kind (kinds whose count did
	// not change are left out), in kind order.
	ByKind []KindDelta `json:"byKind,omitempty"`
	// New are violations the baseline did not have (render.DeltaViol,
	// keyed by kind, slide and node ids), described for the agent;
	// NewKeys their keys. Resolved are the baseline's that are gone.
	New      []string `json:"new,omitempty"`
	NewKeys  []string `json:"newKeys,omitempty"`
	Resolved []string `json:"resolved,omitempty"`
	// Existing are the violations the measured slides had at the start
	// and still have, described: they do not hold the gate, but an agent
	// asked to fix the layout must know them (a relay model could not
	// tell whether "2 at the start" were overlaps).
	Existing []string `json:"existing,omitempty"`
	// Passed is the submit gate: no violation the baseline did not have,
	// but those waived (Input.Waived).
	Passed bool `json:"passed"`
	// NewViolations are the new violations as measured (for waivers);
	// Waived the new ones the gate let through, described.
	NewViolations []render.Violation `json:"newViolations,omitempty"`
	Waived        []string           `json:"waived,omitempty"`
	// Violations and Baseline are every violation on the measured slides
	// now and at the baseline (for the critic's geometry checks);
	// DeckSlides are the current deck's slide ids in order.
	Violations []render.Violation `json:"violations,omitempty"`
	Baseline   []render.Violation `json:"baseline,omitempty"`
	DeckSlides []string           `json:"deckSlides,omitempty"`
	// Text is the observation as the agent reads it.
	Text string `json:"text"`
}

// Input is one step's measurements.
type Input struct {
	// Baseline is the deck at the iteration's start, Prev before the step,
	// Cur after it.
	Baseline, Prev, Cur *scenegraph.Deck
	// Current holds Cur's slides changed since the baseline, rendered;
	// Base the same slides of the baseline (those it has).
	Current, Base *render.Result
	// Title heads the text ("After your changes", "Layout check").
	Title string
	// Asked: the slides were named by the agent (check_layout with
	// slides), not found by comparing with the start.
	Asked bool
	// Waived are violation keys the critic waived because the instruction
	// requires them: they do not hold the gate.
	Waived map[string]string
}

// Build makes the observation. It is deterministic: the same input gives
// the same text.
func Build(in Input) Observation {
	var o Observation
	for _, s := range in.Current.Slides {
		o.Slides = append(o.Slides, s.SlideID)
	}
	var base []render.Violation
	if in.Base != nil {
		base = in.Base.Violations
	}
	cur := in.Current.Violations
	o.Before, o.Now = len(base), len(cur)
	o.DeltaViol = o.Now - o.Before
	o.Violations, o.Baseline = cur, base
	o.ByKind = DeltaByKind(base, cur)
	for _, s := range in.Cur.Slides {
		o.DeckSlides = append(o.DeckSlides, s.ID)
	}
	var fresh []render.Violation
	for _, v := range bySlide(in.Cur, render.DeltaViol(cur, base)) {
		if quote, ok := in.Waived[v.Key]; ok {
			o.Waived = append(o.Waived, fmt.Sprintf("%s (the instruction says %q)", judge.Describe(v), quote))
			continue
		}
		fresh = append(fresh, v)
		o.New = append(o.New, judge.Describe(v))
		o.NewKeys = append(o.NewKeys, v.Key)
	}
	o.NewViolations = fresh
	for _, v := range bySlide(in.Baseline, render.DeltaViol(base, cur)) {
		o.Resolved = append(o.Resolved, judge.Describe(v))
	}
	atStart := map[string]bool{}
	for _, v := range base {
		atStart[v.Key] = true
	}
	for _, v := range bySlide(in.Cur, cur) {
		if atStart[v.Key] {
			o.Existing = append(o.Existing, judge.Describe(v))
		}
	}
	o.Passed = len(fresh) == 0

	var b strings.Builder
	title := in.Title
	if title == "" {
		title = "After your changes"
	}
	fmt.Fprintf(&b, "%s: ", title)
	switch {
	case len(o.Slides) == 0:
		b.WriteString("no slide differs from the start of this iteration.\n")
	case in.Asked:
		fmt.Fprintf(&b, "%s measured, as asked.\n", slideList(in.Cur, o.Slides))
	default:
		fmt.Fprintf(&b, "%s measured (the slides changed since this iteration began).\n", slideList(in.Cur, o.Slides))
	}
	fmt.Fprintf(&b, "Layout violations on them: %d at the start, %d now (Delta viol %+d)", o.Before, o.Now, o.DeltaViol)
	if len(o.ByKind) > 0 {
		parts := make([]string, len(o.ByKind))
		for i, k := range o.ByKind {
			parts[i] = fmt.Sprintf("%s %+d", k.Kind, k.Delta)
		}
		fmt.Fprintf(&b, "; by kind %s", strings.Join(parts, ", "))
	}
	b.WriteString(".\n")
	listed(&b, "New since the start (must be fixed before submit passes)", o.New, MaxListed)
	listed(&b, "Resolved since the start", o.Resolved, MaxResolved)
	listed(&b, "Waived, because the instruction requires them", o.Waived, MaxListed)
	if in.Asked || len(o.New) == 0 {
		// With new violations to fix, those come first; the old ones are
		// listed when nothing new is pending or the agent asked.
		listed(&b, "Already there at the start (they do not hold the gate; fix them only if the instruction asks)", o.Existing, MaxExisting)
	}
	if t := touchedText(in); t != "" {
		b.WriteString(t)
	}
	b.WriteString(anchors(in, fresh))
	if o.Passed {
		b.WriteString("Submit would pass the layout gate now.")
	} else {
		fmt.Fprintf(&b, "Submit would be refused now: %d new violation(s). Fix them, or undo_step to return to the state before your last change.", len(fresh))
	}
	o.Text = b.String()
	return o
}

// slideList names slides by number and id: "slides 2 (s2), 5 (s5)"; more
// than maxSlidesNamed by number ranges: "37 slides: 1-37".
func slideList(d *scenegraph.Deck, ids []string) string {
	if len(ids) > maxSlidesNamed {
		var nums []int
		removed := 0
		for _, id := range ids {
			if _, i := d.SlideByID(id); i >= 0 {
				nums = append(nums, i+1)
			} else {
				removed++
			}
		}
		sort.Ints(nums)
		s := fmt.Sprintf("%d slides: %s", len(nums), scenegraph.SlideRanges(nums, ", "))
		if removed > 0 {
			s += fmt.Sprintf(" (and %d removed)", removed)
		}
		return s
	}
	var parts []string
	for _, id := range ids {
		if _, i := d.SlideByID(id); i >= 0 {
			parts = append(parts, fmt.Sprintf("%d (%s)", i+1, id))
		} else {
			parts = append(parts, id+" (removed)")
		}
	}
	word := "slides "
	if len(parts) == 1 {
		word = "slide "
	}
	return word + strings.Join(parts, ", ")
}

// bySlide orders violations by their slide's place in d, then as the
// renderer sorts them (by key), so the agent reads them slide by slide.
func bySlide(d *scenegraph.Deck, vs []render.Violation) []render.Violation {
	pos := map[string]int{}
	for i, s := range d.Slides {
		pos[s.ID] = i
	}
	out := append([]render.Violation(nil), vs...)
	sort.SliceStable(out, func(i, j int) bool {
		pi, ok := pos[out[i].SlideID]
		if !ok {
			pi = len(d.Slides)
		}
		pj, ok := pos[out[j].SlideID]
		if !ok {
			pj = len(d.Slides)
		}
		return pi < pj
	})
	return out
}

// KindDelta is the change in the number of violations of one kind
// (render.Violation.Kind: text_overflow, overlap, out_of_bounds, ...).
type KindDelta struct {
	Kind  string `json:"kind"`
	Delta int    `json:"delta"`
}

// DeltaByKind is ReDeck's Delta viol per kind: violations of each kind in
// cur minus those in base, kinds with a non-zero change only, sorted by
// kind. The deltas sum to len(cur) - len(base).
func DeltaByKind(base, cur []render.Violation) []KindDelta {
	d := map[string]int{}
	for _, v := range cur {
		d[v.Kind]++
	}
	for _, v := range base {
		d[v.Kind]--
	}
	var out []KindDelta
	for k, n := range d {
		if n != 0 {
			out = append(out, KindDelta{Kind: k, Delta: n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

func listed(b *strings.Builder, head string, lines []string, max int) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "%s:\n", head)
	for i, l := range lines {
		if i == max {
			fmt.Fprintf(b, "- ... and %d more (counted above)\n", len(lines)-max)
			break
		}
		b.WriteString("- ")
		b.WriteString(l)
		b.WriteString("\n")
	}
}

// touchedText lists the measured boxes of the text nodes the step added
// or changed (by node digest, Prev against Cur).
func touchedText(in Input) string {
	measured := map[string]render.Measured{}
	slideOf := map[string]int{}
	for _, s := range in.Current.Slides {
		for id, m := range s.Nodes {
			measured[id] = m
			slideOf[id] = s.Index
		}
	}
	// How far each text overflowed at the iteration's start: an overflow
	// the step did not make worse is the deck's own, said as such so the
	// agent does not "fix" what nobody asked about.
	startOver := map[string]float64{}
	if in.Base != nil {
		for _, s := range in.Base.Slides {
			for id, m := range s.Nodes {
				if m.HasText {
					startOver[id] = math.Max(m.OverflowX, m.OverflowY)
				}
			}
		}
	}
	before := map[string]string{}
	if in.Prev != nil {
		for _, s := range in.Prev.Slides {
			s.Walk(func(n, _ *scenegraph.Node, _ int) bool { before[n.ID] = scenegraph.NodeDigest(n); return true })
		}
	}
	type touched struct {
		line     string
		overflow bool
	}
	var all []touched
	for _, s := range in.Cur.Slides {
		s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
			if n.Characters == "" || len(n.Children) > 0 {
				return true
			}
			if d, ok := before[n.ID]; ok && d == scenegraph.NodeDigest(n) {
				return true
			}
			m, ok := measured[n.ID]
			if !ok || !m.HasText {
				return true
			}
			line := fmt.Sprintf("- %s on slide %d %q: box %s, %d line(s)", n.ID, slideOf[n.ID]+1, preview(n.Characters), box(m.Bounds), m.Lines)
			if m.TextBounds != nil {
				line += fmt.Sprintf(", text %s px high", px(m.TextBounds.Height))
			}
			if over := math.Max(m.OverflowX, m.OverflowY); over > 0 {
				line += fmt.Sprintf(", OVERFLOWS by %s px (width %s, height %s)", px(over), px(math.Max(0, m.OverflowX)), px(math.Max(0, m.OverflowY)))
				if was, ok := startOver[n.ID]; ok && was > 0 && over <= was+render.TextOverflowTolerance {
					line += fmt.Sprintf(", as at the start (%s px): not yours to fix unless asked", px(was))
				}
			} else {
				line += ", fits"
			}
			if m.AutoFitScale > 0 && m.AutoFitScale < 1 {
				line += fmt.Sprintf(", drawn at %s%% (shrink on overflow)", px(m.AutoFitScale*100))
			}
			all = append(all, touched{line, math.Max(m.OverflowX, m.OverflowY) > 0 && !strings.Contains(line, ", as at the start")})
			return true
		})
	}
	if len(all) == 0 {
		return ""
	}
	// Texts that overflow first: they are what the next step must fix.
	sort.SliceStable(all, func(i, j int) bool { return all[i].overflow && !all[j].overflow })
	var b strings.Builder
	b.WriteString("Text you changed, as rendered:\n")
	for i, t := range all {
		if i == MaxTouched {
			fmt.Fprintf(&b, "- ... and %d more changed text nodes\n", len(all)-MaxTouched)
			break
		}
		b.WriteString(t.line)
		b.WriteString("\n")
	}
	return b.String()
}

// anchors lists the main elements of the slides that hold a new
// violation (fresh), then of the other slides the step changed (Prev
// against Cur), at most MaxAnchorSlides: id, box, kind, text preview (or
// name, else fill or "picture"), a text's vertical anchor when not top,
// in reading order, leaving out layout art, slide numbers, dates and
// footers (ReDeck's anchors A_t). A slide with a new violation comes
// first so its elements are never the ones cut.
func anchors(in Input, fresh []render.Violation) string {
	var changed []*scenegraph.Node
	seen := map[string]bool{}
	for _, v := range fresh {
		if s, _ := in.Cur.SlideByID(v.SlideID); s != nil && !seen[s.ID] {
			seen[s.ID] = true
			changed = append(changed, s)
		}
	}
	for _, s := range in.Cur.Slides {
		if seen[s.ID] {
			continue
		}
		var prev *scenegraph.Node
		if in.Prev != nil {
			prev, _ = in.Prev.SlideByID(s.ID)
		}
		if prev == nil || scenegraph.NodeDigest(prev) != scenegraph.NodeDigest(s) {
			changed = append(changed, s)
		}
	}
	measured := map[string]render.Measured{}
	for _, s := range in.Current.Slides {
		for id, m := range s.Nodes {
			measured[id] = m
		}
	}
	var b strings.Builder
	for k, s := range changed {
		if k == MaxAnchorSlides {
			fmt.Fprintf(&b, "(%d more changed slides not listed; check_layout with their slide ids lists them.)\n", len(changed)-MaxAnchorSlides)
			break
		}
		type anchor struct {
			id   string
			r    scenegraph.Rect
			text string
		}
		var as []anchor
		for _, n := range s.Children {
			m, ok := measured[n.ID]
			if !ok || m.Art || !n.IsVisible() || noise(n) || m.Bounds.Area() < 1 {
				continue
			}
			as = append(as, anchor{n.ID, m.Bounds, describe(n)})
		}
		sort.SliceStable(as, func(i, j int) bool {
			if math.Abs(as[i].r.Y-as[j].r.Y) > 4 {
				return as[i].r.Y < as[j].r.Y
			}
			return as[i].r.X < as[j].r.X
		})
		_, idx := in.Cur.SlideByID(s.ID)
		fmt.Fprintf(&b, "Main elements on slide %d (%s), id: x,y wxh px:\n", idx+1, s.ID)
		for i, a := range as {
			if i == MaxAnchors {
				fmt.Fprintf(&b, "- ... and %d more\n", len(as)-MaxAnchors)
				break
			}
			fmt.Fprintf(&b, "- %s: %s %s\n", a.id, box(a.r), a.text)
		}
	}
	return b.String()
}

// noise are elements an anchor list leaves out: slide numbers, dates and
// footers (placeholders sldNum, dt, ftr).
func noise(n *scenegraph.Node) bool {
	if n.Placeholder == nil {
		return false
	}
	switch n.Placeholder.Role {
	case "sldNum", "dt", "ftr":
		return true
	}
	return false
}

// describe is an anchor's kind and what tells it apart: its text
// (`TEXT "Quarterly revenue"`, with `anchored bottom` or `anchored
// middle` when the text sits there, DrawingML a:bodyPr/@anchor), else its
// name, else its first visible fill (`RECTANGLE (fill #1F4E79)`,
// `RECTANGLE (picture)`), so no two boxes read alike for want of a label.
func describe(n *scenegraph.Node) string {
	s := string(n.Type)
	switch {
	case n.Characters != "":
		s += " " + strconv.Quote(preview(n.Characters))
		if n.Style != nil {
			switch n.Style.TextAlignVertical {
			case scenegraph.AlignCenter:
				s += " anchored middle"
			case scenegraph.AlignBottom:
				s += " anchored bottom"
			}
		}
	case n.Name != "":
		s += " (" + preview(n.Name) + ")"
	default:
		for _, p := range n.Fills {
			if !p.IsVisible() {
				continue
			}
			if p.Type == scenegraph.PaintImage {
				s += " (picture)"
			} else if p.Type == scenegraph.PaintSolid && p.Color != nil {
				s += " (fill " + p.Color.Hex() + ")"
			}
			break
		}
	}
	return s
}

func preview(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= previewRunes {
		return s
	}
	return string(r[:previewRunes-1]) + "…"
}

func box(r scenegraph.Rect) string {
	return fmt.Sprintf("%s,%s %sx%s", px(r.X), px(r.Y), px(r.Width), px(r.Height))
}

func px(v float64) string { return strconv.FormatFloat(math.Round(v), 'f', -1, 64) }
