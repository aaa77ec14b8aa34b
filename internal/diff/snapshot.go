package diff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// SnapshotBudget bounds the origin snapshot appended to Text, in bytes
// (about 15k tokens), so a 1,000-slide deck does not flood the judge.
const SnapshotBudget = 60_000

// Snapshot renders the origin deck slide by slide for the judge (ACE App.
// E.6): each slide's background and, per node, its text with alignment and
// font, and its visual shapes (type, name, box, fill). Output stops at
// budget bytes with a note saying how many slides were left out.
func Snapshot(d *scenegraph.Deck, budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Original deck (D0) snapshot: %d slide(s), %gx%g px\n", len(d.Slides), d.Width, d.Height)
	ix := scenegraph.NewIndex(d)
	for i, s := range d.Slides {
		if s == nil {
			continue
		}
		sb := snapshotSlide(ix, s, i)
		if budget > 0 && b.Len()+len(sb) > budget {
			fmt.Fprintf(&b, "... %d more slide(s) not shown (snapshot budget %d bytes)\n", len(d.Slides)-i, budget)
			break
		}
		b.WriteString(sb)
	}
	return b.String()
}

// Snapshot line bounds per slide: at most snapshotLines node lines, of
// which the key ones (text, tables, charts, pictures, formulas) may take
// up to snapshotKeyLines when a slide has more, so decorative shapes
// (an icon's dozens of vector paths) never push a slide's text out.
const (
	snapshotLines    = 40
	snapshotKeyLines = 60
	// snapshotNotes bounds a slide's speaker notes in runes.
	snapshotNotes = 300
)

// snapLine is one node line of a slide's snapshot.
type snapLine struct {
	text  string
	depth int
	key   bool
}

// snapshotSlide is one slide of the snapshot: a header with the slide's
// id, its title (or, without a title placeholder, its first text, marked
// as such) and background, its notes, then its node lines (see
// snapshotLines). A group or frame whose subtree has no text, picture,
// table, chart or formula is one line counting its shapes.
func snapshotSlide(ix *scenegraph.Index, s *scenegraph.Node, i int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Slide %d %q [%s]", i+1, s.Name, s.ID)
	switch title, isTitle := s.TitleText(); {
	case isTitle:
		fmt.Fprintf(&sb, " title %q", clip(strings.Join(strings.Fields(normText(title)), " "), 100))
	case title != "":
		sb.WriteString(" (no title placeholder)")
	}
	if bg := paintStrings(s.Fills); len(bg) > 0 {
		fmt.Fprintf(&sb, " background %s", strings.Join(bg, ","))
	}
	sb.WriteString("\n")
	if s.Slide != nil {
		if notes := strings.Join(strings.Fields(normText(s.Slide.Notes)), " "); notes != "" {
			fmt.Fprintf(&sb, "  notes: %q\n", clip(notes, snapshotNotes))
		}
	}
	var lines []snapLine
	for _, k := range s.Children {
		k.Walk(func(n, _ *scenegraph.Node, depth int) bool {
			if shapes, ok := decorative(n); ok {
				lines = append(lines, snapLine{text: fmt.Sprintf("%s %q [%s] at %s: %d shape(s), no text", n.Type, n.Name, n.ID, boxOf(ix.AbsoluteBounds(n.ID)), shapes), depth: depth})
				return false
			}
			if l := snapshotLine(ix, n); l != "" {
				lines = append(lines, snapLine{text: l, depth: depth, key: keyNode(n)})
			}
			return true
		})
	}
	keep := make([]bool, len(lines))
	if len(lines) <= snapshotLines {
		for j := range keep {
			keep[j] = true
		}
	} else {
		kept := 0
		for j, l := range lines {
			if l.key && kept < snapshotKeyLines {
				keep[j], kept = true, kept+1
			}
		}
		for j, l := range lines {
			if !l.key && kept < snapshotLines {
				keep[j], kept = true, kept+1
			}
		}
	}
	left, leftKey := 0, 0
	for j, l := range lines {
		if !keep[j] {
			left++
			if l.key {
				leftKey++
			}
			continue
		}
		fmt.Fprintf(&sb, "%s%s\n", strings.Repeat("  ", l.depth+1), l.text)
	}
	if left > 0 {
		fmt.Fprintf(&sb, "  ... %d more node(s) not shown, %d of them with text or content\n", left, leftKey)
	}
	return sb.String()
}

// keyNode: a node whose line the judge needs most (it carries text or
// content rather than decoration).
func keyNode(n *scenegraph.Node) bool {
	if strings.TrimSpace(n.Characters) != "" || n.Table != nil || n.Chart != nil || n.Math != nil || n.Type == scenegraph.TypeImage {
		return true
	}
	for _, p := range n.Fills {
		if p.Type == scenegraph.PaintImage {
			return true
		}
	}
	return false
}

// decorative reports whether n is a group or frame of at least three
// shapes none of which is a key node (an icon drawn as vector paths), and
// how many shapes it holds.
func decorative(n *scenegraph.Node) (int, bool) {
	if n.Type != scenegraph.TypeGroup && n.Type != scenegraph.TypeFrame || len(n.Children) == 0 || keyNode(n) {
		return 0, false
	}
	shapes, key := 0, false
	for _, k := range n.Children {
		k.Walk(func(m, _ *scenegraph.Node, _ int) bool {
			if keyNode(m) {
				key = true
				return false
			}
			if m.Type != scenegraph.TypeGroup && m.Type != scenegraph.TypeFrame {
				shapes++
			}
			return true
		})
	}
	return shapes, !key && shapes >= 3
}

func snapshotLine(ix *scenegraph.Index, n *scenegraph.Node) string {
	box := boxOf(ix.AbsoluteBounds(n.ID))
	head := fmt.Sprintf("%s %q [%s]", n.Type, n.Name, n.ID)
	if n.Placeholder != nil && n.Placeholder.Role != "" {
		head += " " + n.Placeholder.Role + " placeholder"
	}
	text := strings.Join(strings.Fields(normText(n.Characters)), " ")
	switch {
	case text != "":
		return fmt.Sprintf("%s: %q [%s] at %s", head, clip(text, 100), textStyleDesc(n), box)
	case n.Type == scenegraph.TypeTableCell:
		if len(n.Fills) == 0 {
			return ""
		}
	}
	l := fmt.Sprintf("%s at %s", head, box)
	if f := paintStrings(n.Fills); len(f) > 0 {
		l += " fill " + strings.Join(f, ",")
	}
	if n.Chart != nil {
		l += " " + chartSummary(n.Chart)
	}
	if n.Table != nil {
		l += fmt.Sprintf(" table %dx%d", len(n.Table.Rows), len(n.Table.Columns))
	}
	return l
}

// RoutedText renders the diff for the judge and the critic with the
// origin snapshot routed like the agent's context (issue 17 item 10):
// Text's header and entry tree, then the snapshot of only the origin
// slides the edit touched (an entry names them) or the router targeted
// (targets, 0-based origin indices), and one line counting the slides and
// nodes left out. A skipped target slide therefore still shows, and the
// judge can tell "not done" from "not needed" wherever the agent was
// sent. targets nil or empty means the edit was routed to the whole deck:
// then every slide is shown, as Text does.
func (d *Diff) RoutedText(origin *scenegraph.Deck, targets []int) string {
	if origin == nil || len(targets) == 0 {
		return d.Text(origin)
	}
	show := map[string]bool{}
	for _, i := range targets {
		if i >= 0 && i < len(origin.Slides) && origin.Slides[i] != nil {
			show[origin.Slides[i].ID] = true
		}
	}
	if d != nil {
		for _, e := range d.Entries {
			show[e.SlideID] = true
		}
	}
	return d.Text(nil) + "\n" + RoutedSnapshot(origin, show, SnapshotBudget)
}

// RoutedSnapshot is Snapshot of the slides whose ids show holds, followed
// by a line counting the other slides (their 1-based numbers as ranges),
// their nodes and their text nodes. The budget (bytes) applies as in
// Snapshot.
func RoutedSnapshot(d *scenegraph.Deck, show map[string]bool, budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Original deck (D0) snapshot: %d slide(s), %gx%g px; shown: the slides the edit touched or was routed to\n", len(d.Slides), d.Width, d.Height)
	ix := scenegraph.NewIndex(d)
	var rest []int
	nodes, texts := 0, 0
	for i, s := range d.Slides {
		if s == nil {
			continue
		}
		if !show[s.ID] {
			rest = append(rest, i+1)
			for _, k := range s.Children {
				k.Walk(func(n, _ *scenegraph.Node, _ int) bool {
					nodes++
					if strings.TrimSpace(n.Characters) != "" {
						texts++
					}
					return true
				})
			}
			continue
		}
		sb := snapshotSlide(ix, s, i)
		if budget > 0 && b.Len()+len(sb) > budget {
			fmt.Fprintf(&b, "... slide %d and later shown slides left out (snapshot budget %d bytes)\n", i+1, budget)
			break
		}
		b.WriteString(sb)
	}
	if len(rest) > 0 {
		fmt.Fprintf(&b, "Not shown: %d other slide(s) (%s) with %d node(s), %d of them with text; the edit neither touched them nor was routed to them.\n",
			len(rest), ranges(rest), nodes, texts)
	}
	return b.String()
}

// ranges writes ascending numbers as "1-2, 4, 6-10".
func ranges(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ns[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// textStyleDesc is the style of a text node's first character as the
// judge reads it: "Inter 24px bold italic CENTER #222222" (family, or
// "theme font"; size in px; weight and slant when set; the first
// paragraph's alignment; the solid text colour).
func textStyleDesc(n *scenegraph.Node) string {
	st := n.StyleAt(0)
	font := st.FontFamily
	if font == "" {
		font = "theme font"
	}
	desc := fmt.Sprintf("%s %gpx", font, round2(st.FontSize))
	if st.Bold() {
		desc += " bold"
	}
	if st.Italic != nil && *st.Italic {
		desc += " italic"
	}
	align := st.TextAlignHorizontal
	if len(n.Paragraphs) > 0 && n.Paragraphs[0].Align != "" {
		align = n.Paragraphs[0].Align
	}
	if align != "" {
		desc += " " + align
	}
	if c, ok := textColor(&st).(scenegraph.Color); ok {
		desc += " " + c.Hex()
	}
	return desc
}
