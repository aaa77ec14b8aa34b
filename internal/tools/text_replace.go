package tools

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// textMatcher finds the occurrences find-and-replace works on: a literal
// or a regular expression (Go RE2 syntax), matched with or without case,
// optionally only as a whole word. One matcher serves set_text_content's
// find and replace_text.
type textMatcher struct {
	find      string
	re        *regexp.Regexp
	regex     bool
	wholeWord bool
	repl      string
}

// newTextMatcher compiles find. matchCase false folds case (Unicode simple
// folding, RE2's (?i)); wholeWord keeps only occurrences with no letter,
// digit or underscore right before or after them. Line breaks are refused
// in find and repl: paragraph styles are per line, and a find-and-replace
// must not reflow them.
func newTextMatcher(find, repl string, matchCase, wholeWord, regex bool) (*textMatcher, error) {
	if find == "" {
		return nil, fmt.Errorf("find is empty; give the text to look for")
	}
	if strings.Contains(find, "\n") || strings.Contains(repl, "\n") {
		return nil, fmt.Errorf("find and the replacement must not contain line breaks; replace_text works within paragraphs (set_text_content replaces whole texts)")
	}
	pat := find
	if !regex {
		pat = regexp.QuoteMeta(find)
	}
	if !matchCase {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return nil, fmt.Errorf("find %q is not a valid regular expression (Go RE2 syntax): %v; or set regex false to match it literally", find, err)
	}
	return &textMatcher{find: find, re: re, regex: regex, wholeWord: wholeWord, repl: repl}, nil
}

// wordRune reports whether r is part of a word for wholeWord.
func wordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// occurrences returns the byte ranges [start, end) of the non-empty
// matches in s, whole words only when asked.
func (m *textMatcher) occurrences(s string) [][]int {
	var out [][]int
	for _, loc := range m.re.FindAllStringSubmatchIndex(s, -1) {
		if loc[1] == loc[0] {
			continue
		}
		if m.wholeWord {
			if r, _ := utf8.DecodeLastRuneInString(s[:loc[0]]); loc[0] > 0 && wordRune(r) {
				continue
			}
			if r, _ := utf8.DecodeRuneInString(s[loc[1]:]); loc[1] < len(s) && wordRune(r) {
				continue
			}
		}
		out = append(out, loc)
	}
	return out
}

// replacement is the text that replaces the occurrence at loc: the literal
// replacement, or with regex the template with $1 / ${name} expanded.
func (m *textMatcher) replacement(s string, loc []int) string {
	if !m.regex {
		return m.repl
	}
	return string(m.re.ExpandString(nil, m.repl, s, loc))
}

// replaceString replaces every occurrence in s (speaker notes and other
// unstyled text) and returns the new text and the count.
func (m *textMatcher) replaceString(s string) (string, int, error) {
	locs := m.occurrences(s)
	if len(locs) == 0 {
		return s, 0, nil
	}
	var b strings.Builder
	prev := 0
	for _, loc := range locs {
		if strings.Contains(s[loc[0]:loc[1]], "\n") {
			return s, 0, m.spansBreak(s[loc[0]:loc[1]])
		}
		b.WriteString(s[prev:loc[0]])
		b.WriteString(m.replacement(s, loc))
		prev = loc[1]
	}
	b.WriteString(s[prev:])
	return b.String(), len(locs), nil
}

func (m *textMatcher) spansBreak(match string) error {
	return fmt.Errorf("find %q matches %q, which spans a paragraph break; replace_text works within paragraphs: narrow the expression (e.g. [ \\t] instead of \\s)", m.find, match)
}

// replaceIn replaces every occurrence in n's characters and keeps every
// character's style. The rule: characters outside the occurrences keep
// their own style; each replacement takes, for all its characters, the
// style of the first character it replaces (the run where the match
// starts), so a bold company name stays bold and a match spanning a bold
// and a plain run comes out bold. Paragraph styles are untouched: no line
// break is added or removed. It returns how many occurrences it replaced.
func (m *textMatcher) replaceIn(n *sg.Node) (int, error) {
	s := n.Characters
	locs := m.occurrences(s)
	if len(locs) == 0 {
		return 0, nil
	}
	keyAt := func(i int) int {
		if i < len(n.CharacterStyleOverrides) {
			return n.CharacterStyleOverrides[i]
		}
		return 0
	}
	var out strings.Builder
	keys := make([]int, 0, len(n.CharacterStyleOverrides))
	newPos := make([]int, 0, utf8.RuneCountInString(s)) // old offset -> new, -1 inside an occurrence
	rn, prev := 0, 0                                    // rune index of byte offset prev
	copyTo := func(end int) {
		for _, r := range s[prev:end] {
			newPos = append(newPos, len(keys))
			out.WriteRune(r)
			keys = append(keys, keyAt(rn))
			rn++
		}
		prev = end
	}
	for _, loc := range locs {
		if strings.Contains(s[loc[0]:loc[1]], "\n") {
			return 0, m.spansBreak(s[loc[0]:loc[1]])
		}
		copyTo(loc[0])
		k := keyAt(rn)
		for _, r := range m.replacement(s, loc) {
			out.WriteRune(r)
			keys = append(keys, k)
		}
		for range s[loc[0]:loc[1]] {
			newPos = append(newPos, -1)
			rn++
		}
		prev = loc[1]
	}
	copyTo(len(s))
	n.Characters = out.String()
	n.RemapFields(s, newPos)
	// Drop trailing base-style keys so the slice stays as short as it was
	// meant to be, and drop it entirely when nothing is overridden.
	last := len(keys)
	for last > 0 && keys[last-1] == 0 {
		last--
	}
	if last == 0 {
		n.CharacterStyleOverrides, n.StyleOverrideTable = nil, nil
	} else {
		n.CharacterStyleOverrides = keys[:last]
	}
	return len(locs), nil
}

// replaceText replaces every occurrence of find in n's characters by repl
// (set_text_content with find), keeping styles as replaceIn does; matching
// folds case when ignoreCase. A find that is not there is an error naming
// the node and how to read its text.
func replaceText(n *sg.Node, find, repl string, ignoreCase bool) (int, error) {
	m, err := newTextMatcher(find, repl, !ignoreCase, false, false)
	if err != nil {
		return 0, err
	}
	k, err := m.replaceIn(n)
	if err == nil && k == 0 {
		hint := "find is case-sensitive unless ignoreCase is true"
		if ignoreCase {
			hint = "case was ignored"
		}
		return 0, fmt.Errorf("node %q does not contain %q (%s); read its text with get_text_node_info", n.ID, find, hint)
	}
	return k, err
}
