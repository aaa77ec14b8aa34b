package tools

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Range styling keeps Figma's encoding: characterStyleOverrides maps each
// code point to a key of styleOverrideTable, 0 meaning the base style. After
// every change the table is compacted (keys renumbered from 1 in order of
// first use, unused and duplicate entries dropped), so equal text styling
// always encodes the same way.

// textRange selects characters by position or by substring.
type textRange struct {
	Start     *int   `json:"start,omitempty" min:"0" desc:"First character (code point index, 0-based); default 0."`
	End       *int   `json:"end,omitempty" min:"0" desc:"One past the last character; default the end of the text."`
	Substring string `json:"substring,omitempty" desc:"Style every occurrence of this exact text instead of start/end."`
}

// spans resolves the selection to [start, end) pairs in code points.
func (r textRange) spans(n *sg.Node) ([][2]int, error) {
	total := utf8.RuneCountInString(n.Characters)
	if r.Substring != "" {
		var out [][2]int
		rs := []rune(n.Characters)
		sub := []rune(r.Substring)
		for i := 0; i+len(sub) <= len(rs); i++ {
			if string(rs[i:i+len(sub)]) == r.Substring {
				out = append(out, [2]int{i, i + len(sub)})
				i += len(sub) - 1
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("substring %q does not occur in the text of %q (%q)", r.Substring, n.ID, clip(n.Characters, 80))
		}
		return out, nil
	}
	s, e := 0, total
	if r.Start != nil {
		s = *r.Start
	}
	if r.End != nil {
		e = *r.End
	}
	if s < 0 || e > total || s >= e {
		return nil, fmt.Errorf("range [%d, %d) is outside the %d characters of %q; positions count code points from 0", s, e, total, n.ID)
	}
	return [][2]int{{s, e}}, nil
}

func (r textRange) whole() bool { return r.Start == nil && r.End == nil && r.Substring == "" }

func clip(s string, k int) string {
	if r := []rune(s); len(r) > k {
		return string(r[:k]) + "…"
	}
	return s
}

// styleText applies patch to the selected characters. A whole-text change
// goes into the base style and clears the same fields from the overrides,
// so no range keeps the old value.
func styleText(n *sg.Node, r textRange, patch sg.TypeStyle, clear func(*sg.TypeStyle)) error {
	if !n.Type.CanHoldText() {
		return fmt.Errorf("node %q is a %s and holds no text; use a TEXT node, shape or table cell", n.ID, n.Type)
	}
	if r.whole() || (n.Characters == "" && r.Substring == "") {
		base := sg.TypeStyle{}
		if n.Style != nil {
			base = *n.Style
		}
		merged := base.Merge(patch)
		if clear != nil {
			clear(&merged)
		}
		n.Style = &merged
		for k, o := range n.StyleOverrideTable {
			clearSet(&o, patch)
			if clear != nil {
				clear(&o)
			}
			n.StyleOverrideTable[k] = o
		}
		compactOverrides(n)
		return nil
	}
	spans, err := r.spans(n)
	if err != nil {
		return err
	}
	total := utf8.RuneCountInString(n.Characters)
	per := make([]sg.TypeStyle, total)
	has := make([]bool, total)
	for i := 0; i < total && i < len(n.CharacterStyleOverrides); i++ {
		if k := n.CharacterStyleOverrides[i]; k != 0 {
			if o, ok := n.StyleOverrideTable[strconv.Itoa(k)]; ok {
				per[i], has[i] = o, true
			}
		}
	}
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			per[i] = per[i].Merge(patch)
			if clear != nil {
				clear(&per[i])
			}
			has[i] = true
		}
	}
	encodeOverrides(n, per, has)
	return nil
}

// clearSet zeroes in o every field that patch sets.
func clearSet(o *sg.TypeStyle, p sg.TypeStyle) {
	if p.FontFamily != "" {
		o.FontFamily = ""
	}
	if p.FontFamilyEastAsian != "" {
		o.FontFamilyEastAsian = ""
	}
	if p.FontFamilyComplex != "" {
		o.FontFamilyComplex = ""
	}
	if p.FontSize != 0 {
		o.FontSize = 0
	}
	if p.FontWeight != 0 {
		o.FontWeight = 0
	}
	if p.Italic != nil {
		o.Italic = nil
	}
	if p.TextCase != "" {
		o.TextCase = ""
	}
	if p.TextDecoration != "" {
		o.TextDecoration = ""
	}
	if p.LetterSpacing != nil {
		o.LetterSpacing = nil
	}
	if p.LineHeightPx != 0 || p.LineHeightPercent != 0 {
		o.LineHeightPx, o.LineHeightPercent = 0, 0
	}
	if p.TextAlignHorizontal != "" {
		o.TextAlignHorizontal = ""
	}
	if p.TextAlignVertical != "" {
		o.TextAlignVertical = ""
	}
	if len(p.Fills) > 0 {
		o.Fills = nil
	}
	if p.Link != nil {
		o.Link = nil
	}
	if p.Baseline != 0 {
		o.Baseline = 0
	}
}

// encodeOverrides writes per-character override styles back in compact
// form.
func encodeOverrides(n *sg.Node, per []sg.TypeStyle, has []bool) {
	keys := map[string]int{}
	table := map[string]sg.TypeStyle{}
	out := make([]int, len(per))
	last := 0
	for i, st := range per {
		if !has[i] || isEmptyStyle(st) {
			continue
		}
		b, _ := json.Marshal(st)
		k, ok := keys[string(b)]
		if !ok {
			k = len(keys) + 1
			keys[string(b)] = k
			table[strconv.Itoa(k)] = st
		}
		out[i] = k
		last = i + 1
	}
	if last == 0 {
		n.CharacterStyleOverrides, n.StyleOverrideTable = nil, nil
		return
	}
	n.CharacterStyleOverrides = out[:last]
	n.StyleOverrideTable = table
}

func isEmptyStyle(s sg.TypeStyle) bool {
	b, _ := json.Marshal(s)
	return string(b) == "{}"
}

// compactOverrides re-encodes the current overrides (after a table edit).
func compactOverrides(n *sg.Node) {
	total := utf8.RuneCountInString(n.Characters)
	per := make([]sg.TypeStyle, total)
	has := make([]bool, total)
	for i := 0; i < total && i < len(n.CharacterStyleOverrides); i++ {
		if k := n.CharacterStyleOverrides[i]; k != 0 {
			if o, ok := n.StyleOverrideTable[strconv.Itoa(k)]; ok {
				per[i], has[i] = o, true
			}
		}
	}
	encodeOverrides(n, per, has)
}

// setFamily sets a typeface on the script slots the text needs: always
// Latin; East Asian when the text has CJK characters or the style already
// names an East Asian face; complex likewise for Arabic, Hebrew, Thai and
// Indic text (ACE issue 4: a Latin-only change leaves CJK text in the old
// face). Explicit slot arguments win.
func setFamily(st *sg.TypeStyle, family, text string, existing *sg.TypeStyle) {
	st.FontFamily = family
	ea, cs := hasScript(text)
	if existing != nil {
		ea = ea || existing.FontFamilyEastAsian != ""
		cs = cs || existing.FontFamilyComplex != ""
	}
	if ea {
		st.FontFamilyEastAsian = family
	}
	if cs {
		st.FontFamilyComplex = family
	}
}

// usesOverrideSlot reports whether any override names an East Asian or
// complex face (so a family change must reach those slots too).
func usesOverrideSlot(n *sg.Node) (ea, cs bool) {
	for _, o := range n.StyleOverrideTable {
		ea = ea || o.FontFamilyEastAsian != ""
		cs = cs || o.FontFamilyComplex != ""
	}
	return
}

// setCharacters replaces a node's text, keeping the base style, the
// paragraph styles that still have a line, and dropping range overrides.
//
// Fields (slide number, date; a:fld) are kept where the new text leaves
// their characters in place: a field inside the longest common prefix or
// suffix of the old and new text moves with it ("Slide 3" to "Page 3"
// keeps the slide number "3" live). A field whose characters the new text
// replaces or cuts becomes literal text: the caller wrote those
// characters, so ACE exports what it was given rather than a field that
// PowerPoint would overwrite with its own value.
func setCharacters(n *sg.Node, text string) error {
	if !n.Type.CanHoldText() {
		return fmt.Errorf("node %q is a %s and holds no text; use a TEXT node, shape or table cell", n.ID, n.Type)
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("text for %q is not valid UTF-8", n.ID)
	}
	old := n.Characters
	n.Characters = text
	n.RemapFields(old, nil)
	n.CharacterStyleOverrides, n.StyleOverrideTable = nil, nil
	if lines := strings.Count(text, "\n") + 1; len(n.Paragraphs) > lines {
		n.Paragraphs = n.Paragraphs[:lines]
	}
	syncScriptSlots(n)
	return nil
}
