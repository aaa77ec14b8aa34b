package route

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Explicit slide references (ACE App. B.1, "a separate extractor"):
// "slide 3", "slides 2 through 5", "slides 2-4", "2-4" (when the
// instruction speaks of slides), "slides 1, 4 and 6", "the last slide",
// "the first two slides", "slide three", "the third slide", "the title
// slide". Indices are 0-based and clamped to [0, n).

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
	"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
	"fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
	"nineteenth": 19, "twentieth": 20,
}

const (
	numPat   = `(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)`
	ordPat   = `(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth)`
	slideW   = `(?:slides?|pages?)`
	rangeSep = `\s*(?:-|–|—|to|through|thru|until)\s*`
)

var (
	// "slides 2 through 5", "slide 2-4", "pages 3 to 6"
	reRange = regexp.MustCompile(`\b` + slideW + `\s*(?:#|no\.?\s*)?(` + numPat + `)` + rangeSep + `(` + numPat + `)\b`)
	// "slides 1, 4 and 6", "slide 3", "slides 3 & 8", "slide #3"
	reList = regexp.MustCompile(`\b` + slideW + `\s*(?:#|no\.?\s*|number\s*)?(` + numPat + `(?:\s*(?:,\s*(?:and\s+)?|and|&|or)\s*(?:` + slideW + `\s*)?` + numPat + `)*)\b`)
	// a bare "2-4" when the instruction is about slides
	reBareRange = regexp.MustCompile(`\b(?:on|in|for|across)\s+(\d+)\s*(?:-|–|to|through)\s*(\d+)\b`)
	// "the third slide", "the 2nd and 3rd slides", "second and third slides"
	reOrdinal = regexp.MustCompile(`\b(` + ordPat + `(?:\s*(?:,|and|&|or)\s*(?:the\s+)?` + ordPat + `)*)\s+` + slideW + `\b`)
	// "the first two slides", "the last 3 slides", "first slide"
	reFirstLastN = regexp.MustCompile(`\b(first|last|final|opening|closing)\s+(` + numPat + `)\s+` + slideW + `\b`)
	reLast       = regexp.MustCompile(`\b(?:last|final|closing|ending)\s+` + slideW + `\b|\bslide\s+(?:at\s+)?the\s+end\b`)
	rePenult     = regexp.MustCompile(`\b(?:penultimate|second[\s-]to[\s-]last|next[\s-]to[\s-]last)\s+` + slideW + `\b`)
	reTitleSlide = regexp.MustCompile(`\b(?:title|cover|opening)\s+slide\b`)
	reNumToken   = regexp.MustCompile(numPat)
	reOrdToken   = regexp.MustCompile(ordPat)
	// "the pricing slide", "the slide with the roadmap", "the slide about pricing"
	reNamedSlide = regexp.MustCompile(`\b(?:the|on|in)\s+([a-z][a-z0-9&'’\- ]{1,30}?)\s+slide(?:'s)?\b`)
	reSlideAbout = regexp.MustCompile(`\bslide\s+(?:with|about|on|showing|for|that (?:shows|has))\s+(?:the\s+|our\s+)?([a-z][a-z0-9&'’\-]{2,30}(?:\s+[a-z][a-z0-9&'’\-]{2,30})?)`)
	reQuoted     = regexp.MustCompile(`["“”']([^"“”']{3,80})["“”']`)
)

// reUnitAfter matches a unit or ratio right after a number: "19 pt",
// "45 degrees", "50%", "16:9", "4/3", "2x", "0.5in", "2 cm". Such a number
// is a measure, never a slide ("set the title on slide 18 to 19 pt" names
// slide 18 only). "in" and "x" count only when glued to the number ("0.5in",
// "2x") or when "x" is followed by a number ("16 x 9"), so "slide 3 in
// blue" still names slide 3.
var reUnitAfter = regexp.MustCompile(`^(?:\s*(?:pts?|points?|px|pixels?|percent|degrees?|deg|cm|mm|inch(?:es)?|em|emu|times|fold)\b|\s*[%°]|\s*[:/]\s*\d|in\b|x\b|\s*[x×]\s*\d|\.\d)`)

// unitAt reports whether the number ending at s[i] is followed by a unit
// or ratio (see reUnitAfter), or preceded by a ratio sign ("16:9"'s 9).
func unitAt(s string, start, end int) bool {
	if end <= len(s) && reUnitAfter.MatchString(s[end:]) {
		return true
	}
	return start > 0 && (s[start-1] == ':' || s[start-1] == '/')
}

// decimalAt reports a decimal point or thousands separator followed by a
// digit at s[i:] ("3.2", "1,000").
func decimalAt(s string, i int) bool {
	return i+1 < len(s) && (s[i] == '.' || s[i] == ',') && s[i+1] >= '0' && s[i+1] <= '9'
}

func parseNum(s string) int {
	if v, err := strconv.Atoi(s); err == nil {
		return v
	}
	if v, ok := numberWords[s]; ok {
		return v
	}
	return 0
}

func parseOrd(s string) int {
	if v, ok := ordinalWords[s]; ok {
		return v
	}
	digits := strings.TrimRight(s, "stndrh")
	v, _ := strconv.Atoi(digits)
	return v
}

// refs is the result of extracting slide references.
type refs struct {
	slides []int // 0-based, clamped, sorted, unique
	// explicit is true when the instruction named slides by number,
	// ordinal or position (the cases that must never be under-scoped).
	explicit bool
	// byContent is true when targets were found by matching slide names or
	// quoted text rather than by number.
	byContent bool
}

// extractRefs finds the slides an instruction names in a deck of n slides.
// lower is the lower-cased instruction.
func extractRefs(lower string, d *scenegraph.Deck) refs {
	n := len(d.Slides)
	var one []int // 1-based, unclamped
	add := func(v int) {
		if v > 0 {
			one = append(one, v)
		}
	}
	addRange := func(a, b int) {
		if a <= 0 || b <= 0 {
			return
		}
		if a > b {
			a, b = b, a
		}
		if b-a > 10_000 {
			b = a + 10_000
		}
		for v := a; v <= b; v++ {
			add(v)
		}
	}
	masked := lower
	for _, m := range reRange.FindAllStringSubmatchIndex(lower, -1) {
		a, b := parseNum(lower[m[2]:m[3]]), parseNum(lower[m[4]:m[5]])
		// "slide 10 to 3.2 million" is a value, not a range: a range
		// ascends and its end is not a decimal.
		if a >= b || decimalAt(lower, m[5]) || unitAt(lower, m[4], m[5]) {
			continue
		}
		addRange(a, b)
		masked = masked[:m[0]] + strings.Repeat(" ", m[1]-m[0]) + masked[m[1]:]
	}
	for _, m := range reList.FindAllStringSubmatchIndex(masked, -1) {
		for _, tm := range reNumToken.FindAllStringIndex(masked[m[2]:m[3]], -1) {
			a, b := m[2]+tm[0], m[2]+tm[1]
			if unitAt(masked, a, b) {
				continue
			}
			add(parseNum(masked[a:b]))
		}
	}
	if strings.Contains(lower, "slide") {
		for _, m := range reBareRange.FindAllStringSubmatchIndex(masked, -1) {
			if a, b := parseNum(masked[m[2]:m[3]]), parseNum(masked[m[4]:m[5]]); a < b && !decimalAt(masked, m[5]) && !unitAt(masked, m[4], m[5]) {
				addRange(a, b)
			}
		}
	}
	for _, m := range reOrdinal.FindAllStringSubmatch(lower, -1) {
		for _, tok := range reOrdToken.FindAllString(m[1], -1) {
			add(parseOrd(tok))
		}
	}
	for _, m := range reFirstLastN.FindAllStringSubmatch(lower, -1) {
		k := parseNum(m[2])
		if k <= 0 {
			continue
		}
		if m[1] == "first" || m[1] == "opening" {
			addRange(1, k)
		} else {
			addRange(max(1, n-k+1), n)
		}
	}
	if reLast.MatchString(lower) && n > 0 {
		add(n)
	}
	if rePenult.MatchString(lower) && n > 1 {
		add(n - 1)
	}
	if reTitleSlide.MatchString(lower) && !strings.Contains(lower, "except the title slide") && !strings.Contains(lower, "after the title slide") {
		add(1)
	}
	r := refs{explicit: len(one) > 0}
	if len(one) == 0 {
		one = contentRefs(lower, d)
		r.byContent = len(one) > 0
	}
	for _, v := range one {
		i := v - 1
		if n > 0 {
			i = min(max(i, 0), n-1) // clamp (ACE App. B.1)
		}
		if n > 0 {
			r.slides = append(r.slides, i)
		}
	}
	slices.Sort(r.slides)
	r.slides = slices.Compact(r.slides)
	return r
}

// contentRefs resolves references by content: "the pricing slide" or
// "the slide with the roadmap" against slide names and titles, and quoted
// text against the slides that contain it. It returns 1-based numbers, or
// nil when nothing (or more than a few slides) matched.
//
// A reference by content kind ("the first table", "the slide with the
// chart", "the photo of the temple") is resolved first, against the slide
// summaries (Summarize).
func contentRefs(lower string, d *scenegraph.Deck) []int {
	if hits := kindRefs(lower, Summaries(d)); len(hits) > 0 {
		return hits
	}
	var phrases []string
	for _, m := range reNamedSlide.FindAllStringSubmatch(lower, -1) {
		phrases = append(phrases, m[1])
	}
	for _, m := range reSlideAbout.FindAllStringSubmatch(lower, -1) {
		phrases = append(phrases, m[1])
	}
	var out []int
	for _, p := range phrases {
		var keep []string
		for _, w := range strings.Fields(p) {
			if !stopWord[w] {
				keep = append(keep, w)
			}
		}
		// The phrase may start far before the noun ("the bars in the
		// pricing slide"): try its last one to three words, longest first.
		for k := min(3, len(keep)); k >= 1; k-- {
			if hits := slidesTitled(d, keep[len(keep)-k:]); len(hits) > 0 && len(hits) <= 3 {
				out = append(out, hits...)
				break
			}
		}
	}
	for _, m := range reQuoted.FindAllStringSubmatch(lower, -1) {
		if hits := slidesContaining(d, m[1]); len(hits) > 0 && len(hits) <= 3 {
			out = append(out, hits...)
		}
	}
	return out
}

var stopWord = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "our": true, "new": true, "current": true,
	"each": true, "every": true, "other": true, "same": true, "next": true, "previous": true, "whole": true,
	"content": true, "one": true, "last": true, "first": true, "final": true, "title": true, "cover": true,
	"of": true, "on": true, "in": true, "to": true, "add": true, "single": true, "entire": true, "with": true,
	"for": true, "at": true, "from": true, "and": true, "slide": true, "slides": true,
}

// slidesTitled returns the 1-based slides whose name or first text
// contains every keyword (singular or plural).
func slidesTitled(d *scenegraph.Deck, words []string) []int {
	var out []int
	for i, s := range d.Slides {
		if s == nil {
			continue
		}
		title := strings.ToLower(s.Name + " " + s.SlideTitle())
		all := true
		for _, w := range words {
			if !strings.Contains(title, w) && !strings.Contains(title, strings.TrimSuffix(w, "s")) {
				all = false
				break
			}
		}
		if all {
			out = append(out, i+1)
		}
	}
	return out
}

func slidesContaining(d *scenegraph.Deck, lowerText string) []int {
	var out []int
	for i, s := range d.Slides {
		if s == nil {
			continue
		}
		found := s.Find(func(n *scenegraph.Node) bool {
			return n.Characters != "" && strings.Contains(strings.ToLower(n.Characters), lowerText)
		})
		if found != nil {
			out = append(out, i+1)
		}
	}
	return out
}
