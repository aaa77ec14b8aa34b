package tools

import (
	"encoding/json"
	"fmt"
	"math"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// refitShrinkText stores a fresh shrink-on-overflow scale on every text of
// after whose box shrinks text on overflow (TextBox.AutoResize TRUNCATE,
// DrawingML normAutofit) and whose layout differs from before (new text,
// characters, sizes, faces, spacing, box size or box settings; not
// colours, links, decoration or alignment). ECMA-376 Part 1 §21.1.2.1.3: fontScale
// and lnSpcReduction are the scale the application applied when it last
// fitted the text, and PowerPoint recomputes them only when the text is
// edited. ACE's edit is such an edit, so the scale found by fit (the
// renderer's bisection, Options.FitText) is stored, floored to a whole
// percent (so the stored scale still fits), with no line spacing
// reduction: the text is drawn, checked and exported at the same scale.
// Text that fits at full size stores none. Errors are fit's, naming the
// texts.
func refitShrinkText(before, after *sg.Deck, fit func(*sg.Deck, []string) (map[string]float64, error)) error {
	old := map[string]string{}
	before.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type.CanHoldText() {
			old[n.ID] = fitKey(n)
		}
		return true
	})
	var ids []string
	nodes := map[string]*sg.Node{}
	after.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.TextBox == nil || n.TextBox.AutoResize != sg.AutoResizeShrink || n.Characters == "" {
			return true
		}
		if k, ok := old[n.ID]; !ok || k != fitKey(n) {
			ids = append(ids, n.ID)
			nodes[n.ID] = n
		}
		return true
	})
	if len(ids) == 0 {
		return nil
	}
	scales, err := fit(after, ids)
	if err != nil {
		return fmt.Errorf("fit the text of %d shrink-on-overflow box(es) %v: %w", len(ids), ids, err)
	}
	for _, id := range ids {
		s, ok := scales[id]
		if !ok {
			continue // not drawn (hidden): keep what is stored
		}
		tb := nodes[id].TextBox
		tb.FontScale, tb.LineSpacingReduction = storedScale(s), 0
	}
	return nil
}

// storedScale is a fitted scale as stored: floored to a whole percent
// (a:normAutofit/@fontScale is written in 1/1000 %), at least 25%, and 0
// (none, 100%) when the text fits at full size.
func storedScale(s float64) float64 {
	if s >= 1 || math.IsNaN(s) {
		return 0
	}
	return math.Max(math.Floor(s*100+1e-9)/100, 0.25)
}

// fitKey is what a text's fit depends on: its box size and its text with
// colours, links, decoration, alignment (none changes where lines break)
// and the stored scale left out.
func fitKey(n *sg.Node) string {
	tc := n.TextContent
	layoutOnly := func(s sg.TypeStyle) sg.TypeStyle {
		s.Fills, s.Link, s.TextDecoration = nil, nil, ""
		s.TextAlignHorizontal, s.TextAlignVertical = "", ""
		return s
	}
	if tc.Style != nil {
		st := layoutOnly(*tc.Style)
		tc.Style = &st
	}
	if len(tc.StyleOverrideTable) > 0 {
		t := make(map[string]sg.TypeStyle, len(tc.StyleOverrideTable))
		for k, v := range tc.StyleOverrideTable {
			t[k] = layoutOnly(v)
		}
		tc.StyleOverrideTable = t
	}
	if len(tc.Paragraphs) > 0 {
		ps := make([]sg.Paragraph, len(tc.Paragraphs))
		for i, p := range tc.Paragraphs {
			p.BulletColor, p.BulletThemeColor, p.Align = nil, nil, ""
			ps[i] = p
		}
		tc.Paragraphs = ps
	}
	if tc.TextBox != nil {
		b := *tc.TextBox
		b.FontScale, b.LineSpacingReduction = 0, 0
		tc.TextBox = &b
	}
	tc.Fields = nil
	b, _ := json.Marshal(struct {
		Size sg.Vector
		Text sg.TextContent
	}{n.Size, tc})
	return string(b)
}
