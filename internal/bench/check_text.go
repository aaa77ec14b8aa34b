package bench

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// textScope is where a text check looks: one node, one slide, or the
// whole deck (neither set).
type textScope struct {
	Node  *Selector
	Slide SlideRef
}

func (s textScope) String() string {
	switch {
	case s.Node != nil:
		return "in " + s.Node.String()
	case s.Slide.set():
		return "on " + s.Slide.String()
	}
	return "in the deck"
}

// texts returns the text-bearing nodes in scope (document order), or a
// failure when the scope is not in the deck.
func (s textScope) texts(e *env) ([]located, *Failure) {
	d := e.Result
	if s.Node != nil {
		l, f := s.Node.resolve(d, e.res)
		if f != nil {
			return nil, f
		}
		var out []located
		l.node.Walk(func(n, _ *sg.Node, _ int) bool {
			if n.Characters != "" {
				out = append(out, located{node: n, slide: l.slide, index: l.index})
			}
			return true
		})
		return out, nil
	}
	first, last := 0, len(d.Slides)-1
	if s.Slide.set() {
		i, err := s.Slide.find(d)
		if err != nil {
			return nil, &Failure{Message: err.Error()}
		}
		first, last = i, i
	}
	var out []located
	for i := first; i <= last; i++ {
		slide := d.Slides[i]
		slide.Walk(func(n, _ *sg.Node, depth int) bool {
			if depth > 0 && n.Characters != "" {
				out = append(out, located{node: n, slide: slide, index: i})
			}
			return true
		})
	}
	return out, nil
}

func (s textScope) failure(e *env, msg string) Failure {
	f := Failure{Message: msg}
	if s.Slide.set() {
		if i, err := s.Slide.find(e.Result); err == nil {
			f.Slide, f.SlideID = i+1, e.Result.Slides[i].ID
		}
	}
	return f
}

func (p *parser) textScopeKey(s *textScope) map[string]func(*yaml.Node) {
	return map[string]func(*yaml.Node){
		"slide": func(v *yaml.Node) { s.Slide = p.slideRef(v) },
		"node":  func(v *yaml.Node) { sel := p.selector(v); s.Node = &sel },
	}
}

// textCheck is text_present and text_absent:
//
//	text_present: {text: "Q3 results", slide: 2, ignore_case: true}
//	text_present: {text: "Q3 results", node: {slide: 2, placeholder: title}}
//	text_absent:  {text: "Lorem ipsum"}                       # nowhere in the deck
//
// White space is collapsed (line and paragraph breaks read as one space),
// so a phrase split over lines still matches.
type textCheck struct {
	present    bool
	text       string
	ignoreCase bool
	scope      textScope
}

func parseTextPresent(p *parser, v *yaml.Node) checker { return p.textCheck(v, true) }
func parseTextAbsent(p *parser, v *yaml.Node) checker  { return p.textCheck(v, false) }

func (p *parser) textCheck(v *yaml.Node, present bool) checker {
	c := &textCheck{present: present}
	h := p.textScopeKey(&c.scope)
	h["text"] = func(n *yaml.Node) { c.text = p.str(n) }
	h["ignore_case"] = func(n *yaml.Node) { c.ignoreCase = p.boolean(n) }
	p.mapping(v, h)
	if v.Kind == yaml.MappingNode && strings.TrimSpace(c.text) == "" {
		p.errAt(v, "text is required and not blank")
	}
	if c.scope.Node != nil && c.scope.Slide.set() {
		p.errAt(v, "give slide or node, not both (a node selector names its slide)")
	}
	return c
}

func (c *textCheck) describe() string {
	s := fmt.Sprintf("%q %s", c.text, c.scope)
	if c.ignoreCase {
		s += ", ignoring case"
	}
	return s
}

func (c *textCheck) eval(e *env) []Failure {
	nodes, f := c.scope.texts(e)
	if f != nil {
		return []Failure{*f}
	}
	want := normText(c.text, c.ignoreCase)
	var hits []located
	for _, l := range nodes {
		if strings.Contains(normText(l.node.Characters, c.ignoreCase), want) {
			hits = append(hits, l)
		}
	}
	if c.present {
		if len(hits) > 0 {
			return nil
		}
		if c.scope.Node != nil && len(nodes) > 0 {
			return []Failure{nodes[0].failure("text is %s, want it to contain %q", quoteShort(nodes[0].node.Characters), c.text)}
		}
		return []Failure{c.scope.failure(e, fmt.Sprintf("no text contains %q", c.text))}
	}
	out := make([]Failure, len(hits))
	for i, l := range hits {
		out[i] = l.failure("text %s still contains %q", quoteShort(l.node.Characters), c.text)
	}
	return out
}

// quoteShort quotes a text for a message, cut to 80 characters.
func quoteShort(s string) string {
	s = normText(s, false)
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return fmt.Sprintf("%q", s)
}

// notesCheck is notes:
//
//	notes: {slide: 2, contains: "Mention the Q3 numbers"}
//	notes: {slide: 2, equals: "", ignore_case: true}
type notesCheck struct {
	slide      SlideRef
	want       string
	equals     bool
	ignoreCase bool
}

func parseNotes(p *parser, v *yaml.Node) checker {
	c := &notesCheck{}
	var has int
	p.mapping(v, map[string]func(*yaml.Node){
		"slide":       func(n *yaml.Node) { c.slide = p.slideRef(n) },
		"contains":    func(n *yaml.Node) { c.want = p.str(n); has++ },
		"equals":      func(n *yaml.Node) { c.want, c.equals = p.str(n), true; has++ },
		"ignore_case": func(n *yaml.Node) { c.ignoreCase = p.boolean(n) },
	})
	if v.Kind == yaml.MappingNode && (!c.slide.set() || has != 1) {
		p.errAt(v, "notes needs slide and one of contains and equals")
	}
	return c
}

func (c *notesCheck) describe() string {
	op := "contain"
	if c.equals {
		op = "equal"
	}
	return fmt.Sprintf("of %s %s %q", c.slide, op, c.want)
}

func (c *notesCheck) eval(e *env) []Failure {
	i, err := c.slide.find(e.Result)
	if err != nil {
		return []Failure{{Message: err.Error()}}
	}
	slide := e.Result.Slides[i]
	var notes string
	if slide.Slide != nil {
		notes = slide.Slide.Notes
	}
	got, want := normText(notes, c.ignoreCase), normText(c.want, c.ignoreCase)
	if (c.equals && got == want) || (!c.equals && strings.Contains(got, want)) {
		return nil
	}
	op := "contain"
	if c.equals {
		op = "equal"
	}
	return []Failure{{Slide: i + 1, SlideID: slide.ID, Message: fmt.Sprintf("notes are %s, want them to %s %q", quoteShort(notes), op, c.want)}}
}

// fontCheck is font: every run of text in scope has the given properties.
//
//	font: {node: {slide: 1, placeholder: title}, family: "Georgia", size: 40, bold: true, color: "#1F3864"}
//	font: {slide: 3, family: Arial}         # every text on slide 3
//	font: {family: Arial}                   # every text in the deck
//
// size is px (or "30pt"), within 1% (ACE App. E.4); color within 0.02
// per channel.
type fontCheck struct {
	scope  textScope
	family string
	size   float64
	bold   *bool
	italic *bool
	color  *sg.Color
}

func parseFont(p *parser, v *yaml.Node) checker {
	c := &fontCheck{}
	h := p.textScopeKey(&c.scope)
	h["family"] = func(n *yaml.Node) { c.family = p.str(n) }
	h["size"] = func(n *yaml.Node) {
		before := len(p.errs)
		if c.size = p.length(n); c.size <= 0 && len(p.errs) == before {
			p.errAt(n, "size must be more than 0")
		}
	}
	h["bold"] = func(n *yaml.Node) { b := p.boolean(n); c.bold = &b }
	h["italic"] = func(n *yaml.Node) { b := p.boolean(n); c.italic = &b }
	h["color"] = func(n *yaml.Node) { col := p.color(n); c.color = &col }
	p.mapping(v, h)
	if v.Kind == yaml.MappingNode && c.family == "" && c.size == 0 && c.bold == nil && c.italic == nil && c.color == nil {
		p.errAt(v, "font needs at least one of family, size, bold, italic, color")
	}
	return c
}

func (c *fontCheck) want() string {
	var parts []string
	if c.family != "" {
		parts = append(parts, "family "+c.family)
	}
	if c.size > 0 {
		parts = append(parts, fmt.Sprintf("size %g px", c.size))
	}
	if c.bold != nil {
		parts = append(parts, fmt.Sprintf("bold %t", *c.bold))
	}
	if c.italic != nil {
		parts = append(parts, fmt.Sprintf("italic %t", *c.italic))
	}
	if c.color != nil {
		parts = append(parts, "colour "+hex6(*c.color))
	}
	return strings.Join(parts, ", ")
}

func (c *fontCheck) describe() string { return c.want() + " " + c.scope.String() }

func (c *fontCheck) eval(e *env) []Failure {
	nodes, f := c.scope.texts(e)
	if f != nil {
		return []Failure{*f}
	}
	var out []Failure
	checked := 0
	for _, l := range nodes {
		n := l.node
		text := []rune(n.Characters)
		for _, run := range n.Runs() {
			if strings.TrimSpace(string(text[run.Start:run.End])) == "" {
				continue // a blank run shows no glyph
			}
			checked++
			if why := c.mismatch(n.StyleAt(run.Start)); why != "" {
				out = append(out, l.failure("text %s %s", quoteShort(string(text[run.Start:run.End])), why))
				break // one failure per node
			}
		}
	}
	if checked == 0 && len(out) == 0 {
		return []Failure{c.scope.failure(e, "no text "+c.scope.String())}
	}
	return out
}

// mismatch says how st differs from what the check wants, "" if it does not.
func (c *fontCheck) mismatch(st sg.TypeStyle) string {
	var why []string
	if c.family != "" && !strings.EqualFold(st.FontFamily, c.family) {
		why = append(why, fmt.Sprintf("is set in %q, want %q", st.FontFamily, c.family))
	}
	if c.size > 0 && math.Abs(st.FontSize-c.size) > 0.01*c.size {
		why = append(why, fmt.Sprintf("is %.4g px, want %.4g px", st.FontSize, c.size))
	}
	if c.bold != nil && st.Bold() != *c.bold {
		why = append(why, fmt.Sprintf("has bold %t, want %t", st.Bold(), *c.bold))
	}
	if c.italic != nil && (st.Italic != nil && *st.Italic) != *c.italic {
		why = append(why, fmt.Sprintf("has italic %t, want %t", !*c.italic, *c.italic))
	}
	if c.color != nil {
		got, ok := solid(st.Fills)
		switch {
		case !ok:
			why = append(why, "has no solid text colour, want "+hex6(*c.color))
		case !got.Near(*c.color, DefaultColorTolerance):
			why = append(why, fmt.Sprintf("is coloured %s, want %s", hex6(got), hex6(*c.color)))
		}
	}
	return strings.Join(why, "; ")
}

// mathCheck is math: an equation (MATH node) whose LaTeX contains a
// fragment, compared with white space and braces left out: an equation
// exported to OMML (ECMA-376 Part 1 §22.1) imports again with every sub-
// and superscript braced, "R_t" as "{R}_{t}".
//
//	math: {slide: 4, latex: "\\frac{a}{b}"}
type mathCheck struct {
	slide SlideRef
	latex string
}

func parseMath(p *parser, v *yaml.Node) checker {
	c := &mathCheck{}
	p.mapping(v, map[string]func(*yaml.Node){
		"slide": func(n *yaml.Node) { c.slide = p.slideRef(n) },
		"latex": func(n *yaml.Node) { c.latex = p.str(n) },
	})
	if v.Kind == yaml.MappingNode && (!c.slide.set() || c.latex == "") {
		p.errAt(v, "math needs slide and latex")
	}
	return c
}

func (c *mathCheck) describe() string { return fmt.Sprintf("%q on %s", c.latex, c.slide) }

func (c *mathCheck) eval(e *env) []Failure {
	i, err := c.slide.find(e.Result)
	if err != nil {
		return []Failure{{Message: err.Error()}}
	}
	slide := e.Result.Slides[i]
	squash := func(s string) string {
		return strings.NewReplacer("{", "", "}", "").Replace(strings.Join(strings.Fields(s), ""))
	}
	want := squash(c.latex)
	var seen []string
	found := false
	slide.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type == sg.TypeMath && n.Math != nil {
			seen = append(seen, n.Math.LaTeX)
			found = found || strings.Contains(squash(n.Math.LaTeX), want)
		}
		return !found
	})
	if found {
		return nil
	}
	msg := fmt.Sprintf("no equation contains %q", c.latex)
	if len(seen) > 0 {
		msg += fmt.Sprintf("; the slide's equations are %q", seen)
	}
	return []Failure{{Slide: i + 1, SlideID: slide.ID, Message: msg}}
}
