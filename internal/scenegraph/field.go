package scenegraph

import (
	"fmt"
	"strings"
)

// FieldSlideNumber is the a:fld/@type of a slide number (ECMA-376 Part 1
// §21.1.2.2.4). Dates are "datetime", "datetime1" .. "datetime13", and
// PowerPoint also writes "datetimeFigureOut"; every type is kept as read.
const FieldSlideNumber = "slidenum"

// TextField is a range of a text's characters that is a live field, not
// literal text: a slide number or a date the presentation program
// recomputes (DrawingML a:fld, ECMA-376 Part 1 §21.1.2.2.4).
//
// Start and End are code-point offsets into TextContent.Characters,
// [Start, End); the characters in the range are the field's cached text
// (a:fld/a:t), drawn as is. A field never spans a paragraph ('\n') or a
// line break. Type is a:fld/@type ("slidenum", "datetime1", ...; empty
// when the file has none) and ID is a:fld/@id, the field's GUID as
// written ("{4ACDC551-...}"); export writes both back unchanged.
type TextField struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Type  string `json:"type,omitempty"`
	ID    string `json:"id"`
}

// FieldAt returns the index in Fields of the field covering code point i,
// or -1.
func (t *TextContent) FieldAt(i int) int {
	for k, f := range t.Fields {
		if i >= f.Start && i < f.End {
			return k
		}
	}
	return -1
}

// RemapFields keeps the fields of a text whose characters went from old to
// t.Characters, at their new offsets. newPos[i] is the new code-point
// offset of old character i, or -1 when the edit removed or replaced it;
// a nil newPos maps by the longest common prefix and suffix of the two
// texts (what a whole-text rewrite keeps in place).
//
// A field is kept when every one of its characters maps, in order and
// without a gap, to the same characters in the new text; otherwise its
// range has become ordinary text and the field is dropped (the new
// characters stay as literal text in the field's former run style).
func (t *TextContent) RemapFields(old string, newPos []int) {
	if len(t.Fields) == 0 {
		return
	}
	or, nr := []rune(old), []rune(t.Characters)
	if newPos == nil {
		newPos = affixMap(or, nr)
	}
	var kept []TextField
	for _, f := range t.Fields {
		if f.Start < 0 || f.End > len(or) || f.End <= f.Start || len(newPos) < f.End {
			continue
		}
		s := newPos[f.Start]
		ok := s >= 0
		for i := f.Start; ok && i < f.End; i++ {
			j := s + (i - f.Start)
			ok = newPos[i] == j && j < len(nr) && nr[j] == or[i]
		}
		if ok {
			f.End = s + (f.End - f.Start)
			f.Start = s
			kept = append(kept, f)
		}
	}
	t.Fields = kept
}

// affixMap maps each character of old in the longest common prefix and
// (then) suffix of old and new to its offset in new; the rest to -1.
func affixMap(old, new []rune) []int {
	m := make([]int, len(old))
	for i := range m {
		m[i] = -1
	}
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		m[p] = p
		p++
	}
	for s := 1; s <= len(old)-p && s <= len(new)-p && old[len(old)-s] == new[len(new)-s]; s++ {
		m[len(old)-s] = len(new) - s
	}
	return m
}

// checkFields reports the fields of t that do not fit its characters:
// out of range, empty, overlapping or out of order, spanning a paragraph
// or line break, or without an id.
func checkFields(t *TextContent) error {
	rs := []rune(t.Characters)
	prev := 0
	for k, f := range t.Fields {
		switch {
		case f.Start < prev || f.End <= f.Start || f.End > len(rs):
			return fmt.Errorf("field %d [%d,%d) is empty, out of order or past the %d characters of the text", k, f.Start, f.End, len(rs))
		case strings.ContainsAny(string(rs[f.Start:f.End]), "\n"+string(LineBreak)):
			return fmt.Errorf("field %d [%d,%d) spans a paragraph or line break", k, f.Start, f.End)
		case f.ID == "":
			return fmt.Errorf("field %d has no id (a:fld/@id)", k)
		}
		prev = f.End
	}
	return nil
}
