package recipe

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Selector picks nodes of a deck. Every field that is set must hold (AND).
//
//	type:        TEXT | [TEXT, TABLE_CELL]   node types
//	name:        "Logo*"                      glob on the layer name; "/re/" for a regexp
//	text:        "Northwind"                  substring of the text; "/re/i" for a regexp
//	fill:        "#0B6E4F" or {color, tolerance}  a visible SOLID fill within tolerance
//	text_color:  same, on the text's colour
//	font:        "Liberation Sans"            any script slot of the base style or a run
//	role:        title | subtitle | body | footer | date | slide_number | picture
//	             (placeholders; "title" also takes a slide's visible title
//	             when it has no title placeholder: see inferredTitle)
//	slides:      "2-5,8" | first | last | all  1-based slide numbers
//	layout:      "Title*"                     glob on the slide's layout name
//	every_slide: true                         the slides themselves
type Selector struct {
	Pos        Pos
	Types      []sg.NodeType
	Name       *Pattern
	Text       *Pattern
	Fill       *ColorMatch
	TextColor  *ColorMatch
	Font       string
	Role       string
	Slides     string
	Layout     *Pattern
	EverySlide bool
}

// String describes the selector the way a recipe writes it, for reports:
// `type IMAGE, name "/logo/i"`; "every slide" for every_slide.
func (s Selector) String() string {
	var parts []string
	if s.EverySlide {
		parts = append(parts, "every slide")
	}
	if len(s.Types) > 0 {
		ts := make([]string, len(s.Types))
		for i, t := range s.Types {
			ts[i] = string(t)
		}
		parts = append(parts, "type "+strings.Join(ts, "|"))
	}
	if s.Role != "" {
		parts = append(parts, "role "+s.Role)
	}
	if s.Name != nil {
		parts = append(parts, fmt.Sprintf("name %q", s.Name.Src))
	}
	if s.Text != nil {
		parts = append(parts, fmt.Sprintf("text %q", s.Text.Src))
	}
	if s.Fill != nil {
		parts = append(parts, "fill "+s.Fill.Color.Hex())
	}
	if s.TextColor != nil {
		parts = append(parts, "text colour "+s.TextColor.Color.Hex())
	}
	if s.Font != "" {
		parts = append(parts, fmt.Sprintf("font %q", s.Font))
	}
	if s.Layout != nil {
		parts = append(parts, fmt.Sprintf("layout %q", s.Layout.Src))
	}
	if s.Slides != "" {
		parts = append(parts, "slides "+s.Slides)
	}
	if len(parts) == 0 {
		return "every node"
	}
	return strings.Join(parts, ", ")
}

// Pattern is a glob (name, layout), a substring (text), or a regexp
// written /.../ with optional flag i.
type Pattern struct {
	Src string
	Re  *regexp.Regexp
}

// ColorMatch matches a colour within a per-channel tolerance (0..1).
type ColorMatch struct {
	Color     sg.Color
	Tolerance float64
}

// DefaultTolerance is the per-channel colour tolerance when a recipe gives
// none: 0.02 of full scale, about 5 of 255 (ACE App. E.4 uses 0.01 for
// "same colour"; recipes also need to catch near-duplicates of a brand
// colour written by different tools).
const DefaultTolerance = 0.02

var roles = map[string][]string{
	"title":        {"title", "ctrTitle"},
	"subtitle":     {"subTitle"},
	"body":         {"body", "obj"},
	"footer":       {"ftr"},
	"date":         {"dt"},
	"slide_number": {"sldNum"},
	"picture":      {"pic"},
}

func (p *parser) selector(n *yaml.Node) *Selector {
	s := &Selector{Pos: pos(n)}
	p.mapping(n, map[string]func(*yaml.Node){
		"type": func(v *yaml.Node) {
			var names []*yaml.Node
			if v.Kind == yaml.SequenceNode {
				names = v.Content
			} else {
				names = []*yaml.Node{v}
			}
			for _, nv := range names {
				t := sg.NodeType(strings.ToUpper(nv.Value))
				if !t.Known() {
					p.errAt(nv, "unknown node type %q; want one of %s", nv.Value, typeNames())
					continue
				}
				s.Types = append(s.Types, t)
			}
		},
		"name":   func(v *yaml.Node) { s.Name = p.pattern(v, true) },
		"text":   func(v *yaml.Node) { s.Text = p.pattern(v, false) },
		"layout": func(v *yaml.Node) { s.Layout = p.pattern(v, true) },
		"fill":   func(v *yaml.Node) { s.Fill = p.colorMatch(v) },
		"text_color": func(v *yaml.Node) {
			s.TextColor = p.colorMatch(v)
		},
		"font": func(v *yaml.Node) { s.Font = p.str(v) },
		"role": func(v *yaml.Node) {
			s.Role = p.str(v)
			if _, ok := roles[s.Role]; !ok && s.Role != "" {
				p.errAt(v, "unknown placeholder role %q; want one of %s", s.Role, keys(roles))
			}
		},
		"slides": func(v *yaml.Node) {
			s.Slides = p.str(v)
			if _, err := parseSlides(s.Slides, 1000000); err != nil {
				p.errAt(v, "%v", err)
			}
		},
		"every_slide": func(v *yaml.Node) {
			if err := v.Decode(&s.EverySlide); err != nil {
				p.errAt(v, "every_slide wants true or false")
			}
		},
	})
	return s
}

func typeNames() string {
	s := make([]string, len(sg.AllTypes))
	for i, t := range sg.AllTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

func (p *parser) pattern(v *yaml.Node, glob bool) *Pattern {
	src := p.str(v)
	if src == "" {
		p.errAt(v, "empty pattern")
		return nil
	}
	pt := &Pattern{Src: src}
	if re, flags, ok := splitRegexp(src); ok {
		if strings.Contains(flags, "i") {
			re = "(?i)" + re
		}
		c, err := regexp.Compile(re)
		if err != nil {
			p.errAt(v, "bad regular expression %s: %v", src, err)
			return nil
		}
		pt.Re = c
	} else if glob {
		if _, err := path.Match(src, ""); err != nil {
			p.errAt(v, "bad glob %q: %v", src, err)
			return nil
		}
	}
	return pt
}

// splitRegexp recognizes /body/flags.
func splitRegexp(s string) (body, flags string, ok bool) {
	if len(s) < 2 || s[0] != '/' {
		return "", "", false
	}
	end := strings.LastIndex(s, "/")
	if end == 0 {
		return "", "", false
	}
	flags = s[end+1:]
	if strings.Trim(flags, "i") != "" {
		return "", "", false
	}
	return s[1:end], flags, true
}

// matchGlob matches name against a glob pattern or regexp.
func (pt *Pattern) matchGlob(name string) bool {
	if pt.Re != nil {
		return pt.Re.MatchString(name)
	}
	ok, _ := path.Match(pt.Src, name)
	return ok
}

// matchText reports whether text contains the pattern.
func (pt *Pattern) matchText(text string) bool {
	if pt.Re != nil {
		return pt.Re.MatchString(text)
	}
	return strings.Contains(text, pt.Src)
}

func (p *parser) colorMatch(v *yaml.Node) *ColorMatch {
	cm := &ColorMatch{Tolerance: DefaultTolerance}
	if v.Kind == yaml.ScalarNode {
		c, err := sg.ParseHex(v.Value)
		if err != nil {
			p.errAt(v, "%v", err)
			return nil
		}
		cm.Color = c
		return cm
	}
	ok := true
	p.mapping(v, map[string]func(*yaml.Node){
		"color": func(cv *yaml.Node) {
			c, err := sg.ParseHex(cv.Value)
			if err != nil {
				p.errAt(cv, "%v", err)
				ok = false
			}
			cm.Color = c
		},
		"tolerance": func(tv *yaml.Node) {
			if err := tv.Decode(&cm.Tolerance); err != nil || cm.Tolerance < 0 || cm.Tolerance > 1 {
				p.errAt(tv, "tolerance is a number in 0..1 (per colour channel)")
				ok = false
			}
		},
	})
	if !ok {
		return nil
	}
	return cm
}

// parseSlides turns "2-5,8", "first", "last", "all" into 0-based indices
// for a deck of n slides; numbers past the end are clamped away.
func parseSlides(spec string, n int) ([]int, error) {
	spec = strings.TrimSpace(strings.ToLower(spec))
	switch spec {
	case "", "all":
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	case "first":
		if n == 0 {
			return nil, nil
		}
		return []int{0}, nil
	case "last":
		if n == 0 {
			return nil, nil
		}
		return []int{n - 1}, nil
	}
	seen := map[int]bool{}
	var out []int
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err != nil || a < 1 || b < a {
			return nil, fmt.Errorf("bad slide range %q: want 1-based numbers like \"2-5,8\", or first, last, all", part)
		}
		for i := a; i <= b && i <= n; i++ {
			if !seen[i-1] {
				seen[i-1] = true
				out = append(out, i-1)
			}
		}
	}
	return out, nil
}

// Match is one node a selector picked, with what templates may reference.
type Match struct {
	Node       *sg.Node
	Slide      *sg.Node
	SlideIndex int // 0-based
}

// Select returns the nodes of d the selector picks, in document order.
func (s *Selector) Select(d *sg.Deck) []Match {
	slides, _ := parseSlides(s.Slides, len(d.Slides))
	var out []Match
	var ix *sg.Index
	for _, si := range slides {
		slide := d.Slides[si]
		if s.Layout != nil && (slide.Slide == nil || !s.Layout.matchGlob(slide.Slide.Layout)) {
			continue
		}
		if s.EverySlide {
			if s.matches(slide) {
				out = append(out, Match{Node: slide, Slide: slide, SlideIndex: si})
			}
			continue
		}
		var inferred *sg.Node
		if s.Role == "title" {
			if ix == nil {
				ix = sg.NewIndex(d)
			}
			inferred = inferredTitle(slide, ix, d.Height)
		}
		for _, c := range slide.Children {
			c.Walk(func(n, _ *sg.Node, _ int) bool {
				if n == inferred && s.matchesBut(n, "role") {
					out = append(out, Match{Node: n, Slide: slide, SlideIndex: si})
				} else if s.matches(n) {
					out = append(out, Match{Node: n, Slide: slide, SlideIndex: si})
				}
				return true
			})
		}
	}
	return out
}

func (s *Selector) matches(n *sg.Node) bool { return s.matchesBut(n, "") }

// matchesBut is matches without the named check ("role" for an inferred
// title, which has no placeholder).
func (s *Selector) matchesBut(n *sg.Node, skip string) bool {
	if len(s.Types) > 0 && !containsType(s.Types, n.Type) {
		return false
	}
	if s.Name != nil && !s.Name.matchGlob(n.Name) {
		return false
	}
	if s.Text != nil && !s.Text.matchText(n.Characters) {
		return false
	}
	if skip != "role" && s.Role != "" && (n.Placeholder == nil || !containsString(roles[s.Role], n.Placeholder.Role)) {
		return false
	}
	if s.Fill != nil && !paintsNear(n.Fills, s.Fill) {
		return false
	}
	if s.TextColor != nil && !textColorNear(n, s.TextColor) {
		return false
	}
	if s.Font != "" && !usesFont(n, s.Font) {
		return false
	}
	return true
}

func containsType(ts []sg.NodeType, t sg.NodeType) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func paintsNear(ps []sg.Paint, cm *ColorMatch) bool {
	for _, p := range ps {
		if p.IsVisible() && p.Type == sg.PaintSolid && p.Color != nil && p.Color.Near(cm.Color, cm.Tolerance) {
			return true
		}
	}
	return false
}

// textStyles returns the base style and every override of a text node.
func textStyles(n *sg.Node) []sg.TypeStyle {
	if n.Characters == "" {
		return nil
	}
	var out []sg.TypeStyle
	if n.Style != nil {
		out = append(out, *n.Style)
	}
	for _, s := range n.StyleOverrideTable {
		out = append(out, s)
	}
	return out
}

func textColorNear(n *sg.Node, cm *ColorMatch) bool {
	for _, s := range textStyles(n) {
		if paintsNear(s.Fills, cm) {
			return true
		}
	}
	return false
}

func usesFont(n *sg.Node, family string) bool {
	for _, s := range textStyles(n) {
		for _, f := range []string{s.FontFamily, s.FontFamilyEastAsian, s.FontFamilyComplex} {
			if strings.EqualFold(f, family) {
				return true
			}
		}
	}
	return false
}

// inferredTitle is the text that reads as the title of a slide that has no
// title placeholder (decks built from text boxes, as many templates and
// exports from other tools are): the text with the largest font whose box
// starts in the upper 40% of the slide, at most 15 words and 3 lines, and
// at least 1.2 times the size of every other text on the slide; it must
// hold words (not a big "11.") in one size (not a heading run followed by
// its description). Nil when
// the slide has a title placeholder or no text stands out that way.
func inferredTitle(slide *sg.Node, ix *sg.Index, slideH float64) *sg.Node {
	var best *sg.Node
	bestSize, second := 0.0, 0.0
	hasPlaceholder := false
	slide.Walk(func(n, _ *sg.Node, depth int) bool {
		if depth == 0 {
			return true
		}
		if !n.IsVisible() || n.Type == sg.TypeTable {
			return false
		}
		if n.Placeholder != nil && containsString(roles["title"], n.Placeholder.Role) {
			hasPlaceholder = true
		}
		if !n.Type.CanHoldText() || strings.TrimSpace(n.Characters) == "" {
			return true
		}
		size := n.StyleAt(0).FontSize
		if f := n.TextBox.DrawnFontScale(); f < 1 {
			size *= f
		}
		top := ix.AbsoluteBounds(n.ID).Y
		short := len(strings.Fields(n.Characters)) <= 15 && strings.Count(strings.TrimSpace(n.Characters), "\n") < 3 &&
			hasLetters(n.Characters) && evenSize(n)
		switch {
		case size > bestSize && top < 0.4*slideH && short:
			second = max(second, bestSize)
			best, bestSize = n, size
		default:
			second = max(second, size)
		}
		return true
	})
	if hasPlaceholder || best == nil || bestSize < 1.2*second {
		return nil
	}
	return best
}

// hasLetters reports whether s holds at least two letters.
func hasLetters(s string) bool {
	k := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if k++; k >= 2 {
				return true
			}
		}
	}
	return false
}

// evenSize reports whether every character of n's text is set within 10%
// of one size.
func evenSize(n *sg.Node) bool {
	lo, hi := math.Inf(1), 0.0
	for i := range []rune(n.Characters) {
		f := n.StyleAt(i).FontSize
		lo, hi = math.Min(lo, f), math.Max(hi, f)
	}
	return hi == 0 || lo >= 0.9*hi
}
