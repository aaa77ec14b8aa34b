package tools

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// A style-preserving rewrite (ACE issue 17 item 6): translating or
// proofreading a text replaces its words but must keep what the author
// styled, a bold phrase, an underlined link, a smaller author line. The
// text is addressed by its structure, one new string per paragraph or
// per run (sg.TextContent.ParagraphRuns), so every new string inherits
// the style of what it replaces without any character alignment.

type rewriteTextArgs struct {
	NodeID     string   `json:"nodeId"`
	Paragraphs []string `json:"paragraphs,omitempty" desc:"One new text per paragraph, in order, as many as the node has (unchanged ones as they are). Each keeps its paragraph's style; a changed paragraph must have one run style, else give runs."`
	Runs       []string `json:"runs,omitempty" desc:"One new text per run, in get_text_node_info's order (runs.items[].text), as many as the node has; each keeps its run's style. \"\" empties a run."`
}

// rewriteStats is rewrite_text's result.
type rewriteStats struct {
	Unit      string `json:"unit"`      // "paragraphs" or "runs"
	Total     int    `json:"total"`     // paragraphs or runs of the node
	Rewritten int    `json:"rewritten"` // how many of them changed
}

// rewriteText replaces n's text paragraph by paragraph (paras) or run by
// run (runs); exactly one of them is given, with one string per
// paragraph or per run of sg.TextContent.ParagraphRuns.
//
// Rules: a run's new text takes the run's override key, so its style
// (weight, size, colour, decoration, hyperlink, fonts) is kept whole; a
// paragraph's new text takes the key of its runs, and a changed
// paragraph whose non-blank runs carry more than one style is refused
// (naming the runs to give instead), because no rule can tell which new
// words the bold belonged to. Paragraph breaks stay where they are, so
// paragraph properties (list, level, alignment, spacing) are kept; an
// item holding '\n' is refused. An unchanged string keeps its characters,
// keys and fields exactly; a field (slide number, date) survives a
// paragraph rewrite when its characters are in the common prefix or
// suffix of the old and new paragraph, as set_text_content keeps them.
func rewriteText(n *sg.Node, paras, runs []string) (rewriteStats, error) {
	switch {
	case paras == nil && runs == nil:
		return rewriteStats{}, fmt.Errorf("give paragraphs (one text per paragraph) or runs (one text per run, as get_text_node_info lists them)")
	case paras != nil && runs != nil:
		return rewriteStats{}, fmt.Errorf("give paragraphs or runs, not both")
	}
	items, unit := paras, "paragraphs"
	if runs != nil {
		items, unit = runs, "runs"
	}
	for i, s := range items {
		if strings.Contains(s, "\n") {
			return rewriteStats{}, fmt.Errorf("%s[%d] contains a paragraph break (\\n); the paragraphs stay as they are (write a line break inside a paragraph as \\u2028; set_text_content changes the paragraphs)", unit, i)
		}
	}
	old := []rune(n.Characters)
	keyAt := func(i int) int {
		if i < len(n.CharacterStyleOverrides) {
			return n.CharacterStyleOverrides[i]
		}
		return 0
	}
	pr := n.ParagraphRuns()
	w := rewriter{old: old, keyAt: keyAt, newPos: make([]int, len(old))}
	for i := range w.newPos {
		w.newPos[i] = -1
	}
	st := rewriteStats{Unit: unit, Total: len(items)}
	if runs != nil {
		if len(runs) != len(pr) {
			return rewriteStats{}, fmt.Errorf("node %q has %d runs, runs has %d; give one text per run: %s", n.ID, len(pr), len(runs), listRuns(n, pr, 0, len(pr)))
		}
		pos := 0
		for k, r := range pr {
			w.copyOld(pos, r.Start)
			if runs[k] == string(old[r.Start:r.End]) {
				w.copyOld(r.Start, r.End)
			} else {
				w.write(runs[k], r.Key)
				st.Rewritten++
			}
			pos = r.End
		}
		w.copyOld(pos, len(old))
	} else {
		if k := n.ParagraphCount(); len(paras) != k {
			return rewriteStats{}, fmt.Errorf("node %q has %d paragraphs, paragraphs has %d; give one text per paragraph: %s", n.ID, k, len(paras), listParagraphs(old))
		}
		start, first := 0, 0 // paragraph start offset; its first run in pr
		for p, s := range paras {
			end := start
			for end < len(old) && old[end] != '\n' {
				end++
			}
			last := first
			for last < len(pr) && pr[last].Paragraph == p {
				last++
			}
			if s == string(old[start:end]) {
				w.copyOld(start, end)
			} else {
				key, err := paragraphKey(n, old, pr[first:last], first, p, start, end, keyAt)
				if err != nil {
					return rewriteStats{}, err
				}
				w.rewriteKeepingAffixes(start, end, s, key)
				st.Rewritten++
			}
			w.copyOld(end, min(end+1, len(old))) // the '\n'
			start, first = end+1, last
		}
	}
	oldText := n.Characters
	n.Characters = string(w.out)
	n.RemapFields(oldText, w.newPos)
	last := len(w.keys)
	for last > 0 && w.keys[last-1] == 0 {
		last--
	}
	if last == 0 {
		n.CharacterStyleOverrides, n.StyleOverrideTable = nil, nil
	} else {
		n.CharacterStyleOverrides = w.keys[:last]
		compactOverrides(n)
	}
	syncScriptSlots(n)
	return st, nil
}

// rewriter builds the new characters, their override keys and the map
// from old offsets to new ones (-1 for replaced characters).
type rewriter struct {
	old    []rune
	keyAt  func(int) int
	out    []rune
	keys   []int
	newPos []int
}

// copyOld keeps old characters [from, to) with their keys.
func (w *rewriter) copyOld(from, to int) {
	for i := from; i < to; i++ {
		w.newPos[i] = len(w.out)
		w.out = append(w.out, w.old[i])
		w.keys = append(w.keys, w.keyAt(i))
	}
}

// write appends s, every character with key.
func (w *rewriter) write(s string, key int) {
	for _, r := range s {
		w.out = append(w.out, r)
		w.keys = append(w.keys, key)
	}
}

// rewriteKeepingAffixes replaces old [from, to) by s with key, mapping
// the characters of the longest common prefix and then suffix to their
// new offsets, so a field there stays live.
func (w *rewriter) rewriteKeepingAffixes(from, to int, s string, key int) {
	base, nr := len(w.out), []rune(s)
	or := w.old[from:to]
	p := 0
	for p < len(or) && p < len(nr) && or[p] == nr[p] {
		w.newPos[from+p] = base + p
		p++
	}
	for k := 1; k <= len(or)-p && k <= len(nr)-p && or[len(or)-k] == nr[len(nr)-k]; k++ {
		w.newPos[to-k] = base + len(nr) - k
	}
	w.write(s, key)
}

// paragraphKey is the override key a rewritten paragraph's text takes:
// the key of its non-blank runs when they share one, the key of its
// blank runs when it has nothing else, and for an empty paragraph the
// key of its paragraph break (the end-of-paragraph run properties),
// else of the break before it. More than one style is an error listing
// the paragraph's runs by index (from is the index of its first run).
func paragraphKey(n *sg.Node, old []rune, runs []sg.ParagraphRun, from, p, start, end int, keyAt func(int) int) (int, error) {
	if len(runs) == 0 {
		switch {
		case end < len(old):
			return keyAt(end), nil
		case start > 0:
			return keyAt(start - 1), nil
		}
		return 0, nil
	}
	key, seen := runs[0].Key, false
	for _, r := range runs {
		if strings.TrimFunc(string(old[r.Start:r.End]), unicode.IsSpace) == "" {
			continue
		}
		if seen && r.Key != key {
			return 0, fmt.Errorf("paragraph %d of %q has runs in different styles (%s); give runs to keep each style (the other paragraphs' runs as they are), or set_text_content to drop them", p, n.ID, listRuns(n, n.ParagraphRuns(), from, from+len(runs)))
		}
		if !seen {
			key, seen = r.Key, true
		}
	}
	return key, nil
}

// maxListed bounds the runs or paragraphs an error lists.
const maxListed = 30

// listRuns lists runs [from, to) of n as `0 "text" (bold 16px)`, for
// errors; get_text_node_info lists them in full.
func listRuns(n *sg.Node, pr []sg.ParagraphRun, from, to int) string {
	rs := []rune(n.Characters)
	var parts []string
	for k := from; k < to && k < len(pr); k++ {
		if k-from == maxListed {
			parts = append(parts, fmt.Sprintf("... %d more (get_text_node_info lists every run)", to-k))
			break
		}
		r := pr[k]
		parts = append(parts, fmt.Sprintf("%d %q (paragraph %d; %s)", k, clip(string(rs[r.Start:r.End]), 60), r.Paragraph, styleSummary(n.StyleAt(r.Start))))
	}
	if len(parts) == 0 {
		return "none (the text is empty)"
	}
	return "runs " + strings.Join(parts, ", ")
}

// listParagraphs lists a text's paragraphs as `0 "text"`, for errors.
func listParagraphs(old []rune) string {
	var parts []string
	for k, p := range strings.Split(string(old), "\n") {
		if k == maxListed {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprintf("%d %q", k, clip(p, 60)))
	}
	return strings.Join(parts, ", ")
}

// styleSummary is the short form of an effective text style a model reads
// beside a run: family, size in px, then only what is set (bold or the
// weight, italic, decoration, case, colour, super/subscript, link).
func styleSummary(s sg.TypeStyle) string {
	var parts []string
	if s.FontFamily != "" {
		parts = append(parts, s.FontFamily)
	}
	if s.FontSize > 0 {
		parts = append(parts, strconv.FormatFloat(round2(s.FontSize), 'f', -1, 64)+"px")
	}
	switch {
	case s.FontWeight >= 600 && s.FontWeight != 700:
		parts = append(parts, fmt.Sprintf("bold %d", s.FontWeight))
	case s.FontWeight == 700:
		parts = append(parts, "bold")
	case s.FontWeight != 0 && s.FontWeight != 400:
		parts = append(parts, fmt.Sprintf("weight %d", s.FontWeight))
	}
	if s.Italic != nil && *s.Italic {
		parts = append(parts, "italic")
	}
	if s.TextDecoration != "" && s.TextDecoration != sg.DecorationNone {
		parts = append(parts, strings.ToLower(s.TextDecoration))
	}
	if s.TextCase != "" && s.TextCase != sg.CaseOriginal {
		parts = append(parts, strings.ToLower(s.TextCase))
	}
	for _, f := range s.Fills {
		if f.Type == sg.PaintSolid && f.Color != nil {
			parts = append(parts, f.Color.Hex())
			break
		}
	}
	switch {
	case s.Baseline > 0:
		parts = append(parts, "superscript")
	case s.Baseline < 0:
		parts = append(parts, "subscript")
	}
	if s.Link != nil {
		switch {
		case s.Link.URL != "":
			parts = append(parts, "link "+s.Link.URL)
		case s.Link.NodeID != "":
			parts = append(parts, "link to slide "+s.Link.NodeID)
		default:
			parts = append(parts, "link")
		}
	}
	if len(parts) == 0 {
		return "base style"
	}
	return strings.Join(parts, " ")
}

// syncScriptSlots keeps a text's script slots in step with its content:
// when the text now holds CJK or complex-script characters and the base
// style names only a Latin face, that face is set on the slot too (ACE
// issue 4: a Latin-only style leaves CJK text in another face).
func syncScriptSlots(n *sg.Node) {
	if n.Style == nil && n.Characters != "" {
		n.Style = &sg.TypeStyle{}
	}
	if n.Style == nil || n.Style.FontFamily == "" {
		return
	}
	ea, cs := hasScript(n.Characters)
	if ea && n.Style.FontFamilyEastAsian == "" {
		n.Style.FontFamilyEastAsian = n.Style.FontFamily
	}
	if cs && n.Style.FontFamilyComplex == "" {
		n.Style.FontFamilyComplex = n.Style.FontFamily
	}
}
