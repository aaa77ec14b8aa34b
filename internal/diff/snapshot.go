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

// snapshotSlide is one slide of the snapshot: its header line and at
// most 40 node lines.
func snapshotSlide(ix *scenegraph.Index, s *scenegraph.Node, i int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Slide %d %q [%s]", i+1, s.Name, s.ID)
	if bg := paintStrings(s.Fills); len(bg) > 0 {
		fmt.Fprintf(&sb, " background %s", strings.Join(bg, ","))
	}
	sb.WriteString("\n")
	lines := 0
	for _, k := range s.Children {
		k.Walk(func(n, _ *scenegraph.Node, depth int) bool {
			if lines >= 40 {
				return false
			}
			if l := snapshotLine(ix, n); l != "" {
				fmt.Fprintf(&sb, "%s%s\n", strings.Repeat("  ", depth+1), l)
				lines++
			}
			return n.Type != scenegraph.TypeTable || lines < 40
		})
	}
	if lines >= 40 {
		sb.WriteString("  ... (more nodes)\n")
	}
	return sb.String()
}

func snapshotLine(ix *scenegraph.Index, n *scenegraph.Node) string {
	box := boxOf(ix.AbsoluteBounds(n.ID))
	text := strings.Join(strings.Fields(normText(n.Characters)), " ")
	switch {
	case text != "":
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
		return fmt.Sprintf("%s %q: %q [%s] at %s", n.Type, n.Name, clip(text, 100), desc, box)
	case n.Type == scenegraph.TypeTableCell:
		if len(n.Fills) == 0 {
			return ""
		}
	}
	l := fmt.Sprintf("%s %q at %s", n.Type, n.Name, box)
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
