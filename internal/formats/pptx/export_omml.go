package pptx

import (
	"fmt"
	"strings"
	"unicode"
)

// LaTeX -> Office Math (OMML, ECMA-376 Part 1 §22.1) for MATH nodes.
//
// texOMML parses the LaTeX people write on slides into a small tree (runs,
// fractions, scripts, radicals, n-ary operators, limits, delimiters,
// accents, bars, functions, matrices) and writes it as OMML the way
// PowerPoint does: letters as Mathematical Alphanumeric Symbols (𝑥, 𝛼),
// U+2212 for minus, every m:r carrying an a:rPr in Cambria Math, every
// property element (m:fPr, m:naryPr, ...) a m:ctrlPr with the same a:rPr.
// import_math.go's ommlLaTeX reads it back. Whatever the parser does not
// know (an unknown command or environment, a stray brace) is written as
// literal text and named in a warning, so nothing of the source is lost.

// ommlFormula is one converted formula.
type ommlFormula struct {
	// Lines holds one m:oMath element per line (a top-level \\ starts a
	// new line), each without a namespace declaration: the caller puts
	// xmlns:m on the enclosing m:oMathPara or on each m:oMath.
	Lines []string
	// Linear is the formula in a linear form (close to Unicode Math,
	// UTN #28: a/b, x^2, √(x), ■(a&b@c&d)), one string per line, for the
	// mc:Fallback text of consumers that do not read a14:m.
	Linear []string
	// Warnings name what was written as literal text or dropped.
	Warnings []string
}

// ommlProps are the run properties of every run of a formula.
type ommlProps struct {
	Size int    // a:rPr sz, hundredths of a point; 0 leaves it to inheritance
	Fill string // a fill element for a:rPr (a:solidFill ...), "" for none
}

// cambriaMath is the a:latin PowerPoint writes on equation runs.
const cambriaMath = `<a:latin typeface="Cambria Math" panose="02040503050406030204" pitchFamily="18" charset="0"/>`

// texMaxDepth bounds the nesting the parser builds (groups, arguments,
// structures), so the OMML stays far below the package's XML depth limit
// (Limits.MaxXMLDepth, 256): deeper source is kept as literal text.
const texMaxDepth = 40

// texOMML converts LaTeX (math mode, without $ or \[ \]) to OMML. It
// knows: \frac \dfrac \tfrac (m:f), \binom (m:d around an m:f without
// bar), ^ and _ (m:sSup, m:sSub, m:sSubSup), \sqrt and \sqrt[n] (m:rad),
// \sum \prod \coprod \int \iint \iiint \oint \bigcup \bigcap ... with
// \limits/\nolimits (m:nary; its operand runs to the next relation, and
// for sums and products to the next + or - outside brackets), \lim_{...}
// and \underset (m:limLow), \overset \stackrel (m:limUpp), \sin \cos
// \log \ln \exp \max ... and \operatorname (m:func with an upright name;
// the argument is a bracketed group or the letters and digits that
// follow), \left ... \right (m:d), \hat \bar \vec \dot \ddot \tilde ...
// (m:acc), \overline \underline (m:bar), \boxed (m:borderBox),
// \overbrace \underbrace (m:groupChr), matrix pmatrix bmatrix Bmatrix
// vmatrix Vmatrix array cases aligned gathered (m:m, in m:d for the
// bracketed ones), Greek letters and the common symbols (texGreek,
// texSyms), \mathrm (m:sty p), \mathbf (m:sty b), \text (m:nor),
// \mathbb \mathcal (double-struck and script letters), spacing (\, \;
// \quad as Unicode spaces) and a top-level \\ (one m:oMath per line).
func texOMML(latex string, props ommlProps) ommlFormula {
	p := &texParser{src: []rune(latex)}
	lines := p.parseTop()
	var f ommlFormula
	for _, l := range lines {
		w := &ommlWriter{props: props}
		w.b.WriteString("<m:oMath>")
		w.seq(l)
		w.b.WriteString("</m:oMath>")
		f.Lines = append(f.Lines, w.b.String())
		f.Linear = append(f.Linear, linearSeq(l))
	}
	f.Warnings = p.warns
	return f
}

// ---- the tree ----

type mkind uint8

const (
	mkRun      mkind = iota // text: text, sty
	mkGroup                 // a brace group: a
	mkFrac                  // a numerator, b denominator; bar false for \binom's inner fraction
	mkScript                // a base, b subscript (hasSub), c superscript (hasSup)
	mkRad                   // a degree (nil: square root), b radicand
	mkNary                  // text operator character, limits (under/over), b sub, c sup, a operand
	mkLimLow                // a base, b limit below
	mkDelim                 // beg, end delimiter characters ("" draws none), a body
	mkAcc                   // text combining accent character, a base
	mkBar                   // top, a base
	mkFunc                  // a name, b argument
	mkMatrix                // rows of cells, jc per column (m:mcJc)
	mkLimUpp                // a base, b limit above (\overset)
	mkBox                   // a boxed (m:borderBox)
	mkGroupChr              // text brace character, top, a base (\overbrace, \underbrace)
)

// msty is how a run is set.
type msty uint8

const (
	styVar   msty = iota // math italic (letters, lowercase Greek)
	styUp                // upright symbols, digits, operators, capital Greek
	styRoman             // \mathrm, function names: m:sty p
	styBold              // \mathbf: m:sty b
	styText              // \text: m:nor (ordinary text)
)

type mnode struct {
	kind           mkind
	text           string
	sty            msty
	beg, end       string
	top, bar       bool
	limits         bool
	hasSub, hasSup bool
	a, b, c        []*mnode
	rows           [][][]*mnode
	jc             []string
}

func mrun(text string, sty msty) *mnode { return &mnode{kind: mkRun, text: text, sty: sty} }

// ---- the parser ----

// Terminators that end a sequence; a sequence is told which ones end it,
// and any other is kept as literal text.
const (
	stopBrace   = 1 << iota // }
	stopCell                // &
	stopRow                 // \\
	stopRight               // \right
	stopEnd                 // \end
	stopBracket             // ] (of \sqrt[...])
)

// What ends the operand of an n-ary operator: relations always, + and -
// too after a sum or product (an integral's operand runs to its dx).
type bodyMode uint8

const (
	bodyNone bodyMode = iota
	bodySum
	bodyInt
)

type texParser struct {
	src   []rune
	pos   int
	depth int
	warns []string
	seen  map[string]bool
}

func (p *texParser) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if !p.seen[msg] {
		p.seen[msg] = true
		p.warns = append(p.warns, msg)
	}
}

func (p *texParser) eof() bool { return p.pos >= len(p.src) }

func (p *texParser) skipSpace() {
	for !p.eof() {
		switch c := p.src[p.pos]; {
		case unicode.IsSpace(c):
			p.pos++
		case c == '%': // a TeX comment runs to the end of the line
			start := p.pos
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
			p.warn("comment %q dropped (TeX does not typeset comments)", string(p.src[start:p.pos]))
		default:
			return
		}
	}
}

// readCmd reads the control sequence at pos (a backslash) and returns its
// name: letters, or one other character ("" for a backslash at the end).
func (p *texParser) readCmd() string {
	p.pos++
	if p.eof() {
		return ""
	}
	start := p.pos
	if isASCIILetter(p.src[p.pos]) {
		for !p.eof() && isASCIILetter(p.src[p.pos]) {
			p.pos++
		}
	} else {
		p.pos++
	}
	return string(p.src[start:p.pos])
}

func isASCIILetter(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// peekCmd returns the name of the control sequence at pos without
// consuming it ("" when pos is not at one).
func (p *texParser) peekCmd() string {
	if p.eof() || p.src[p.pos] != '\\' {
		return ""
	}
	save := p.pos
	name := p.readCmd()
	p.pos = save
	return name
}

// term returns the terminator at pos (after spaces), 0 if none.
func (p *texParser) term() int {
	p.skipSpace()
	if p.eof() {
		return 0
	}
	switch p.src[p.pos] {
	case '}':
		return stopBrace
	case '&':
		return stopCell
	case ']':
		return stopBracket
	case '\\':
		switch p.peekCmd() {
		case `\`:
			return stopRow
		case "right":
			return stopRight
		case "end":
			return stopEnd
		}
	}
	return 0
}

func (p *texParser) enter() bool {
	p.depth++
	return p.depth <= texMaxDepth
}

func (p *texParser) leave() { p.depth-- }

// parseTop parses the whole source into lines (split at top-level \\).
func (p *texParser) parseTop() [][]*mnode {
	var lines [][]*mnode
	for {
		lines = append(lines, p.parseSeq(stopRow, bodyNone))
		if p.term() != stopRow {
			break
		}
		p.readCmd()
		p.skipOptArg()
	}
	for len(lines) > 1 && len(lines[len(lines)-1]) == 0 { // a trailing \\
		lines = lines[:len(lines)-1]
	}
	return lines
}

// skipOptArg drops the [dimension] of \\[4pt].
func (p *texParser) skipOptArg() {
	p.skipSpace()
	if p.eof() || p.src[p.pos] != '[' {
		return
	}
	start := p.pos
	for !p.eof() && p.src[p.pos] != ']' {
		p.pos++
	}
	if !p.eof() {
		p.pos++
	}
	p.warn("line spacing %q dropped", string(p.src[start:p.pos]))
}

// parseSeq parses atoms up to a terminator in stops (not consumed) or the
// end. body > bodyNone also ends it before a relation (and, for sums, a +
// or -) once it holds something.
func (p *texParser) parseSeq(stops int, body bodyMode) []*mnode {
	if !p.enter() {
		defer p.leave()
		return p.rawUntil(stops)
	}
	defer p.leave()
	var out []*mnode
	open := 0 // unclosed ( and [ of out, for the n-ary operand
	for {
		t := p.term()
		if p.eof() {
			return out
		}
		if t != 0 {
			if t&stops != 0 {
				return out
			}
			if t != stopBracket {
				out = append(out, p.stray(t))
				continue
			}
		}
		if body != bodyNone && len(out) > 0 && open <= 0 && p.atBodyStop(body) {
			return out
		}
		at := p.pos
		if n := p.parseAtom(stops); n != nil {
			out = append(out, n)
			open += parens(n)
		}
		if p.pos == at { // never stall: keep the character as text
			out = append(out, mrun(string(p.src[p.pos]), styText))
			p.pos++
		}
	}
}

// rawUntil keeps the source up to the next terminator in stops outside
// braces as literal text: the nesting budget is spent.
func (p *texParser) rawUntil(stops int) []*mnode {
	start, level := p.pos, 0
	for !p.eof() {
		if level == 0 {
			if t := p.term(); t&stops != 0 || p.eof() {
				break
			}
		}
		switch p.src[p.pos] {
		case '{':
			level++
		case '}':
			level--
			if level < 0 {
				level = 0
			}
		case '\\':
			p.pos++ // an escaped brace is not a brace
		}
		p.pos++
	}
	if p.pos > len(p.src) {
		p.pos = len(p.src)
	}
	s := strings.TrimSpace(string(p.src[start:p.pos]))
	if s == "" {
		return nil
	}
	p.warn("nesting deeper than %d levels kept as LaTeX text: %s", texMaxDepth, clip(s))
	return []*mnode{mrun(s, styText)}
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// stray consumes a terminator that does not end the current sequence and
// keeps it as literal text.
func (p *texParser) stray(t int) *mnode {
	switch t {
	case stopBrace:
		p.pos++
		p.warn("unbalanced } kept as text")
		return mrun("}", styUp)
	case stopCell:
		p.pos++
		p.warn("& outside a matrix kept as text")
		return mrun("&", styUp)
	case stopRow:
		p.readCmd()
		p.warn(`\\ inside a group kept as text`)
		return mrun(`\\`, styText)
	case stopRight:
		p.readCmd()
		d := p.readDelim()
		p.warn(`\right without \left: its delimiter kept as text`)
		return mrun(d, styUp)
	case stopEnd:
		p.readCmd()
		name := p.readEnvName()
		p.warn(`\end{%s} without \begin kept as text`, name)
		return mrun(`\end{`+name+`}`, styText)
	}
	p.pos++
	return nil
}

// relChars and relCmds end an n-ary operand (with , and ; and \quad,
// which separate formulas).
var relChars = map[rune]bool{'=': true, '<': true, '>': true, ',': true, ';': true}

var relCmds = map[string]bool{
	"leq": true, "le": true, "geq": true, "ge": true, "neq": true, "ne": true, "approx": true, "equiv": true, "sim": true,
	"simeq": true, "cong": true, "propto": true, "to": true, "rightarrow": true, "leftarrow": true, "gets": true,
	"Rightarrow": true, "Leftarrow": true, "leftrightarrow": true, "Leftrightarrow": true, "implies": true, "iff": true,
	"mapsto": true, "in": true, "notin": true, "subset": true, "supset": true, "subseteq": true, "supseteq": true,
	"ll": true, "gg": true, "quad": true, "qquad": true,
}

// atBodyStop reports whether an n-ary operand ends here.
func (p *texParser) atBodyStop(body bodyMode) bool {
	p.skipSpace()
	if p.eof() {
		return true
	}
	c := p.src[p.pos]
	if c == '\\' {
		name := p.peekCmd()
		return relCmds[name] || body == bodySum && (name == "pm" || name == "mp")
	}
	return relChars[c] || body == bodySum && (c == '+' || c == '-')
}

// parens is the number of ( and [ a run (or a scripted run) opens, less
// the ) and ] it closes.
func parens(a *mnode) int {
	if a.kind == mkScript && len(a.a) == 1 {
		a = a.a[0]
	}
	if a.kind != mkRun {
		return 0
	}
	return strings.Count(a.text, "(") + strings.Count(a.text, "[") - strings.Count(a.text, ")") - strings.Count(a.text, "]")
}

// parseAtom parses one atom and the scripts that follow it.
func (p *texParser) parseAtom(stops int) *mnode {
	if !p.enter() {
		defer p.leave()
		// Out of budget: keep the rest of the sequence as text.
		if r := p.rawUntil(stops); len(r) > 0 {
			return r[0]
		}
		return nil
	}
	defer p.leave()
	var n *mnode
	switch c := p.src[p.pos]; c {
	case '{':
		p.pos++
		n = &mnode{kind: mkGroup, a: p.parseSeq(stopBrace, bodyNone)}
		p.closeBrace()
	case '^', '_':
		n = &mnode{kind: mkGroup}
	case '\\':
		var scripted bool
		n, scripted = p.command(stops)
		if n == nil || scripted {
			return n
		}
	default:
		p.pos++
		n = charRun(c)
	}
	return p.scripts(n)
}

// closeBrace consumes the } of a group or notes that it is missing.
func (p *texParser) closeBrace() {
	if p.term() == stopBrace {
		p.pos++
		return
	}
	p.warn("missing } at the end of the formula")
}

// charRun is the run of one source character.
func charRun(c rune) *mnode {
	switch {
	case isASCIILetter(c):
		return mrun(string(c), styVar)
	case c == '-':
		return mrun("−", styUp)
	case c == '*':
		return mrun("∗", styUp)
	case c == '\'':
		return mrun("′", styUp)
	case c == '~':
		return mrun("\u00A0", styUp)
	case c >= 0x3B1 && c <= 0x3C9:
		return mrun(string(c), styVar)
	}
	return mrun(string(c), styUp)
}

// scripts attaches ^ and _ that follow n. A second ^ (or _) on the same
// base is a TeX error; it is left for the caller's next atom (an empty
// base) rather than nested.
func (p *texParser) scripts(n *mnode) *mnode {
	var s *mnode
	for {
		p.skipSpace()
		if p.eof() {
			break
		}
		c := p.src[p.pos]
		if c != '^' && c != '_' {
			break
		}
		if s == nil {
			s = &mnode{kind: mkScript, a: []*mnode{n}}
		}
		if c == '^' && s.hasSup || c == '_' && s.hasSub {
			p.warn("double %c in the formula", c)
			break
		}
		p.pos++
		arg := p.parseArg()
		if c == '^' {
			s.hasSup, s.c = true, arg
		} else {
			s.hasSub, s.b = true, arg
		}
	}
	if s == nil {
		return n
	}
	if n.kind == mkGroup && len(n.a) == 0 {
		s.a = nil
	}
	return s
}

// parseArg parses a macro argument: a brace group, one command with its
// own arguments, or one character.
func (p *texParser) parseArg() []*mnode {
	t := p.term()
	if p.eof() || t != 0 && p.src[p.pos] != ']' {
		p.warn("missing argument")
		return nil
	}
	switch c := p.src[p.pos]; c {
	case '{':
		p.pos++
		seq := p.parseSeq(stopBrace, bodyNone)
		p.closeBrace()
		return seq
	case '\\':
		if !p.enter() {
			p.leave()
			return p.rawUntil(stopBrace | stopCell | stopRow | stopRight | stopEnd)
		}
		defer p.leave()
		n, _ := p.command(0)
		if n == nil {
			return nil
		}
		return []*mnode{n}
	default:
		p.pos++
		return []*mnode{charRun(c)}
	}
}

// restyle sets every letter run of seq (recursively) to sty.
func restyle(seq []*mnode, sty msty) {
	for _, n := range seq {
		if n.kind == mkRun && (n.sty == styVar || n.sty == styUp && sty != styVar) {
			n.sty = sty
		}
		restyle(n.a, sty)
		restyle(n.b, sty)
		restyle(n.c, sty)
		for _, r := range n.rows {
			for _, c := range r {
				restyle(c, sty)
			}
		}
	}
}

// command parses a control sequence at pos. scripted reports whether the
// node already took its own scripts (n-ary operators, functions, limits).
func (p *texParser) command(stops int) (n *mnode, scripted bool) {
	name := p.readCmd()
	if name == "" {
		p.warn(`lone \ at the end kept as text`)
		return mrun(`\`, styUp), false
	}
	if s, ok := texSpaces[name]; ok {
		if s == "" {
			return nil, false
		}
		return mrun(s, styUp), false
	}
	if s, ok := texGreek[name]; ok {
		if s >= "α" && s <= "ω" || s == "ϵ" || s == "ϑ" || s == "ϕ" || s == "ϖ" || s == "ϱ" || s == "ϰ" {
			return mrun(s, styVar), false
		}
		return mrun(s, styUp), false
	}
	if s, ok := texSyms[name]; ok {
		return mrun(s, styUp), false
	}
	if chr, ok := texNary[name]; ok {
		return p.nary(chr, stops), true
	}
	if texFuncs[name] {
		return p.function([]*mnode{mrun(name, styRoman)}, stops), true
	}
	if chr, ok := texAccents[name]; ok {
		return &mnode{kind: mkAcc, text: chr, a: p.parseArg()}, false
	}
	switch name {
	case "frac", "dfrac", "tfrac", "cfrac":
		num := p.parseArg()
		den := p.parseArg()
		return &mnode{kind: mkFrac, bar: true, a: num, b: den}, false
	case "binom", "dbinom", "tbinom":
		num := p.parseArg()
		den := p.parseArg()
		return &mnode{kind: mkDelim, beg: "(", end: ")", a: []*mnode{{kind: mkFrac, a: num, b: den}}}, false
	case "sqrt":
		r := &mnode{kind: mkRad}
		p.skipSpace()
		if !p.eof() && p.src[p.pos] == '[' {
			p.pos++
			r.a = p.parseSeq(stopBracket, bodyNone)
			if p.term() == stopBracket {
				p.pos++
			} else {
				p.warn(`missing ] after \sqrt[`)
			}
		}
		r.b = p.parseArg()
		return r, false
	case "overline":
		return &mnode{kind: mkBar, top: true, a: p.parseArg()}, false
	case "underline":
		return &mnode{kind: mkBar, a: p.parseArg()}, false
	case "mathrm", "mathup", "mathsf", "mathtt":
		seq := p.parseArg()
		restyle(seq, styRoman)
		return &mnode{kind: mkGroup, a: seq}, false
	case "mathit":
		seq := p.parseArg()
		restyle(seq, styVar)
		return &mnode{kind: mkGroup, a: seq}, false
	case "mathbf", "boldsymbol", "bm":
		seq := p.parseArg()
		restyle(seq, styBold)
		return &mnode{kind: mkGroup, a: seq}, false
	case "mathbb":
		seq := p.parseArg()
		doubleStruck(seq)
		return &mnode{kind: mkGroup, a: seq}, false
	case "text", "textrm", "textnormal", "mbox", "textit", "textbf", "mathnormal":
		return mrun(p.rawArg(), styText), false
	case "operatorname":
		if !p.eof() && p.src[p.pos] == '*' {
			p.pos++
		}
		nm := p.parseArg()
		restyle(nm, styRoman)
		return p.function(nm, stops), true
	case "lim":
		for p.skipSpace(); p.peekCmd() == "limits" || p.peekCmd() == "nolimits"; p.skipSpace() {
			p.readCmd()
		}
		if !p.eof() && p.src[p.pos] == '_' {
			p.pos++
			return &mnode{kind: mkLimLow, a: []*mnode{mrun("lim", styRoman)}, b: p.parseArg()}, false
		}
		return p.function([]*mnode{mrun("lim", styRoman)}, stops), true
	case "overset", "stackrel":
		over := p.parseArg()
		return &mnode{kind: mkLimUpp, a: p.parseArg(), b: over}, false
	case "underset":
		under := p.parseArg()
		return &mnode{kind: mkLimLow, a: p.parseArg(), b: under}, false
	case "boxed":
		return &mnode{kind: mkBox, a: p.parseArg()}, false
	case "overbrace", "underbrace":
		top := name == "overbrace"
		g := &mnode{kind: mkGroupChr, text: map[bool]string{true: "\u23DE", false: "\u23DF"}[top], top: top, a: p.parseArg()}
		// The label: a superscript over \overbrace, a subscript under \underbrace.
		p.skipSpace()
		if !p.eof() && (top && p.src[p.pos] == '^' || !top && p.src[p.pos] == '_') {
			p.pos++
			kind := mkLimLow
			if top {
				kind = mkLimUpp
			}
			return &mnode{kind: kind, a: []*mnode{g}, b: p.parseArg()}, false
		}
		return g, false
	case "mathcal", "mathscr":
		seq := p.parseArg()
		mapLetters(seq, scriptAlphabet.letter)
		return &mnode{kind: mkGroup, a: seq}, false
	case "bmod":
		return mrun("mod", styRoman), false
	case "middle":
		d := p.readDelim()
		p.warn(`\middle%s written as a delimiter that does not stretch`, d)
		return mrun(d, styUp), false
	case "left":
		d := &mnode{kind: mkDelim, beg: p.readDelim()}
		d.a = p.parseSeq(stopRight, bodyNone)
		if p.term() == stopRight {
			p.readCmd()
			d.end = p.readDelim()
		} else {
			p.warn(`\left without \right: closed at the end of its group`)
		}
		return d, false
	case "begin":
		return p.environment(p.readEnvName()), false
	case "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl", "Biggr", "bigm", "Bigm":
		d := p.readDelim()
		if d == "" {
			return nil, false
		}
		return mrun(d, styUp), false
	case "not":
		p.skipSpace()
		if p.eof() {
			return mrun("\u0338", styUp), false
		}
		arg := p.parseArg()
		if len(arg) == 1 && arg[0].kind == mkRun {
			if s, ok := texNegated[arg[0].text]; ok {
				return mrun(s, styUp), false
			}
			arg[0].text += "\u0338"
			return arg[0], false
		}
		return &mnode{kind: mkGroup, a: append([]*mnode{mrun("\u0338", styUp)}, arg...)}, false
	case "limits", "nolimits":
		p.warn(`\%s not after an operator, dropped`, name)
		return nil, false
	case "displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle":
		p.warn(`\%s dropped (OMML sets the style from the structure)`, name)
		return nil, false
	}
	// Unknown: keep the command as text; its arguments follow as groups.
	p.warn(`\%s is not supported; written as text`, name)
	return mrun(`\`+name, styText), false
}

// nary parses an n-ary operator's \limits, scripts and operand.
func (p *texParser) nary(chr string, stops int) *mnode {
	n := &mnode{kind: mkNary, text: chr, limits: chr != "∫" && chr != "∬" && chr != "∭" && chr != "∮"}
	for {
		p.skipSpace()
		switch p.peekCmd() {
		case "limits":
			p.readCmd()
			n.limits = true
			continue
		case "nolimits":
			p.readCmd()
			n.limits = false
			continue
		}
		if p.eof() {
			break
		}
		c := p.src[p.pos]
		if c == '_' && !n.hasSub {
			p.pos++
			n.hasSub, n.b = true, p.parseArg()
			continue
		}
		if c == '^' && !n.hasSup {
			p.pos++
			n.hasSup, n.c = true, p.parseArg()
			continue
		}
		break
	}
	mode := bodySum
	if strings.Contains("∫∬∭∮", chr) {
		mode = bodyInt
	}
	n.a = p.parseSeq(stops, mode)
	return n
}

// function parses the scripts of a function name and its argument: a
// parenthesised group, or the letters, digits and groups right after it,
// or one structure.
func (p *texParser) function(name []*mnode, stops int) *mnode {
	fn := &mnode{kind: mkFunc}
	base := &mnode{kind: mkGroup, a: name}
	if s := p.scripts(base); s != base {
		fn.a = []*mnode{s}
	} else {
		fn.a = name
	}
	for {
		if t := p.term(); p.eof() || t != 0 {
			break
		}
		c := p.src[p.pos]
		if len(fn.b) == 0 && (c == '(' || c == '[') {
			open, close, depth := string(c), map[rune]string{'(': ")", '[': "]"}[c], 0
			for {
				if t := p.term(); p.eof() || t != 0 && p.src[p.pos] != ']' {
					break
				}
				at := p.pos
				a := p.parseAtom(stops)
				if a == nil {
					if p.pos == at {
						break
					}
					continue
				}
				fn.b = append(fn.b, a)
				if a.kind == mkRun && a.text == open {
					depth++
				} else if a.kind == mkRun && a.text == close || a.kind == mkScript && len(a.a) == 1 && a.a[0].text == close {
					depth--
				}
				if depth <= 0 {
					break
				}
				p.skipSpace()
			}
			break
		}
		letter := isASCIILetter(c) || c >= '0' && c <= '9' || c == '.'
		if c == '\\' {
			nm := p.peekCmd()
			_, greek := texGreek[nm]
			letter = greek
			if !letter && len(fn.b) > 0 {
				break
			}
			if !letter && nm != "frac" && nm != "sqrt" && nm != "left" && texAccents[nm] == "" && nm != "mathrm" && nm != "text" {
				break
			}
		} else if !letter && c != '{' {
			break
		}
		at := p.pos
		a := p.parseAtom(stops)
		if a != nil {
			fn.b = append(fn.b, a)
		}
		if !letter || p.pos == at {
			break
		}
	}
	return fn
}

// readEnvName reads {name} after \begin or \end.
func (p *texParser) readEnvName() string {
	p.skipSpace()
	if p.eof() || p.src[p.pos] != '{' {
		return ""
	}
	p.pos++
	start := p.pos
	for !p.eof() && p.src[p.pos] != '}' {
		p.pos++
	}
	name := string(p.src[start:p.pos])
	if !p.eof() {
		p.pos++
	}
	return strings.TrimSpace(name)
}

// rawArg reads a brace group as literal text (\text{...}); nested braces
// are kept, \{ \} \% \$ \& \# \_ unescaped.
func (p *texParser) rawArg() string {
	p.skipSpace()
	if p.eof() {
		return ""
	}
	if p.src[p.pos] != '{' {
		c := p.src[p.pos]
		p.pos++
		return string(c)
	}
	p.pos++
	var b strings.Builder
	level := 0
	for !p.eof() {
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == '\\' && !p.eof() && strings.ContainsRune(`{}%$&#_ `, p.src[p.pos]):
			b.WriteRune(p.src[p.pos])
			p.pos++
			continue
		case c == '{':
			level++
		case c == '}':
			if level == 0 {
				return b.String()
			}
			level--
		}
		b.WriteRune(c)
	}
	p.warn("missing } after \\text")
	return b.String()
}

// readDelim reads the delimiter after \left, \right or \big: a character,
// a command (\{, \langle, \|, ...) or . for none ("").
func (p *texParser) readDelim() string {
	p.skipSpace()
	if p.eof() {
		return ""
	}
	c := p.src[p.pos]
	switch c {
	case '.':
		p.pos++
		return ""
	case '<':
		p.pos++
		return "⟨"
	case '>':
		p.pos++
		return "⟩"
	case '\\':
		save := p.pos
		name := p.readCmd()
		if d, ok := texDelims[name]; ok {
			return d
		}
		if name == `\` || name == "right" || name == "end" {
			p.pos = save
			return ""
		}
		p.warn(`delimiter \%s is not supported; written as text`, name)
		return `\` + name
	case '}', '&', '{':
		return ""
	}
	p.pos++
	return string(c)
}

// environment parses \begin{name} ... \end{name}: the matrix family as an
// m:m (inside m:d for pmatrix and the like), cases and aligned as
// matrices with their own column alignment; an unknown environment keeps
// its \begin and \end as text around a matrix of its cells.
func (p *texParser) environment(name string) *mnode {
	env := strings.TrimSuffix(name, "*")
	m := &mnode{kind: mkMatrix}
	if env == "array" || env == "subarray" { // column spec: {lcr}
		spec := p.readEnvName()
		for _, c := range spec {
			switch c {
			case 'l':
				m.jc = append(m.jc, "left")
			case 'r':
				m.jc = append(m.jc, "right")
			case 'c':
				m.jc = append(m.jc, "center")
			}
		}
	}
	var row [][]*mnode
	closed := false
	for !closed {
		cell := p.parseSeq(stopCell|stopRow|stopEnd, bodyNone)
		row = append(row, cell)
		switch p.term() {
		case stopCell:
			p.pos++
		case stopRow:
			p.readCmd()
			p.skipOptArg()
			m.rows = append(m.rows, row)
			row = nil
		case stopEnd:
			p.readCmd()
			if end := p.readEnvName(); end != name {
				p.warn(`\begin{%s} closed by \end{%s}`, name, end)
			}
			closed = true
		default:
			p.warn(`\begin{%s} without \end`, name)
			closed = true
		}
	}
	if len(row) > 1 || len(row) == 1 && len(row[0]) > 0 || len(m.rows) == 0 {
		m.rows = append(m.rows, row)
	}
	cols := 0
	for _, r := range m.rows {
		cols = max(cols, len(r))
	}
	for i := range m.rows {
		for len(m.rows[i]) < cols {
			m.rows[i] = append(m.rows[i], nil)
		}
	}
	switch env {
	case "matrix", "smallmatrix", "array", "subarray", "gathered", "gather":
		return m
	case "aligned", "align", "split", "alignedat", "eqnarray":
		for i := 0; i < cols; i++ {
			m.jc = append(m.jc, map[bool]string{true: "right", false: "left"}[i%2 == 0])
		}
		return m
	case "cases":
		m.jc = []string{"left", "left"}
		return &mnode{kind: mkDelim, beg: "{", end: "", a: []*mnode{m}}
	}
	if d, ok := texMatrixDelims[env]; ok {
		return &mnode{kind: mkDelim, beg: d[0], end: d[1], a: []*mnode{m}}
	}
	p.warn(`environment %s is not supported; its cells are written as a matrix between its \begin and \end as text`, name)
	return &mnode{kind: mkGroup, a: []*mnode{mrun(`\begin{`+name+`}`, styText), m, mrun(`\end{`+name+`}`, styText)}}
}

var texMatrixDelims = map[string][2]string{
	"pmatrix": {"(", ")"}, "bmatrix": {"[", "]"}, "Bmatrix": {"{", "}"}, "vmatrix": {"|", "|"}, "Vmatrix": {"‖", "‖"},
}

// doubleStruck maps letters of seq to their double-struck forms (ℝ, 𝔸).
func doubleStruck(seq []*mnode) { mapLetters(seq, doubleStruckAlphabet.letter) }

// mathAlphabet is one alphabet of Unicode's Mathematical Alphanumeric
// Symbols block: where its capitals, small letters and digits start (0:
// the alphabet has none) and the letters Unicode encodes elsewhere, in
// Letterlike Symbols (the "holes": ℝ, ℒ, ℎ).
type mathAlphabet struct {
	upper, lower, digit rune
	holes               map[rune]rune
}

var (
	doubleStruckAlphabet = mathAlphabet{0x1D538, 0x1D552, 0x1D7D8,
		map[rune]rune{'C': 'ℂ', 'H': 'ℍ', 'N': 'ℕ', 'P': 'ℙ', 'Q': 'ℚ', 'R': 'ℝ', 'Z': 'ℤ'}}
	scriptAlphabet = mathAlphabet{0x1D49C, 0x1D4B6, 0,
		map[rune]rune{'B': 'ℬ', 'E': 'ℰ', 'F': 'ℱ', 'H': 'ℋ', 'I': 'ℐ', 'L': 'ℒ', 'M': 'ℳ', 'R': 'ℛ', 'e': 'ℯ', 'g': 'ℊ', 'o': 'ℴ'}}
	italicAlphabet = mathAlphabet{0x1D434, 0x1D44E, 0, map[rune]rune{'h': 'ℎ'}}
)

// letter maps an ASCII letter or digit to the alphabet; anything else,
// and digits the alphabet lacks, stay as they are.
func (a mathAlphabet) letter(c rune) rune {
	if r, ok := a.holes[c]; ok {
		return r
	}
	switch {
	case c >= 'A' && c <= 'Z':
		return a.upper + c - 'A'
	case c >= 'a' && c <= 'z':
		return a.lower + c - 'a'
	case c >= '0' && c <= '9' && a.digit != 0:
		return a.digit + c - '0'
	}
	return c
}

// mapLetters maps the characters of seq's runs (set upright, as the
// mapped letters carry their style) with f.
func mapLetters(seq []*mnode, f func(rune) rune) {
	for _, n := range seq {
		if n.kind != mkRun {
			continue
		}
		n.text, n.sty = strings.Map(f, n.text), styUp
	}
}

// ---- the OMML writer ----

type ommlWriter struct {
	b     strings.Builder
	props ommlProps
}

// rPr is the a:rPr of a run (and of m:ctrlPr).
func (w *ommlWriter) rPr(sty msty) string {
	s := `<a:rPr lang="en-US"`
	if w.props.Size > 0 {
		s += fmt.Sprintf(` sz="%d"`, w.props.Size)
	}
	switch sty {
	case styVar:
		s += ` i="1"`
	case styBold:
		s += ` b="1" i="0"`
	default:
		s += ` b="0" i="0"`
	}
	return s + ">" + w.props.Fill + cambriaMath + "</a:rPr>"
}

func (w *ommlWriter) ctrlPr() string { return "<m:ctrlPr>" + w.rPr(styVar) + "</m:ctrlPr>" }

func (w *ommlWriter) seq(ns []*mnode) {
	for i := 0; i < len(ns); {
		n := ns[i]
		if n.kind == mkRun {
			var text strings.Builder
			j := i
			for ; j < len(ns) && ns[j].kind == mkRun && ns[j].sty == n.sty; j++ {
				text.WriteString(ns[j].text)
			}
			w.run(text.String(), n.sty)
			i = j
			continue
		}
		w.node(n)
		i++
	}
}

func (w *ommlWriter) run(text string, sty msty) {
	if text == "" {
		return
	}
	w.b.WriteString("<m:r>")
	switch sty {
	case styRoman:
		w.b.WriteString(`<m:rPr><m:sty m:val="p"/></m:rPr>`)
	case styBold:
		w.b.WriteString(`<m:rPr><m:sty m:val="b"/></m:rPr>`)
	case styText:
		w.b.WriteString(`<m:rPr><m:nor/></m:rPr>`)
	case styVar:
		text = mathItalic(text)
	}
	w.b.WriteString(w.rPr(sty))
	if strings.TrimSpace(text) != text {
		w.b.WriteString(`<m:t xml:space="preserve">`)
	} else {
		w.b.WriteString("<m:t>")
	}
	w.b.WriteString(escXMLText(text))
	w.b.WriteString("</m:t></m:r>")
}

// xmlSafe drops the characters XML 1.0 cannot carry (C0 controls other
// than tab and newline, U+FFFE, U+FFFF; Go strings hold no surrogates).
func xmlSafe(s string) string {
	return strings.Map(func(c rune) rune {
		if c < 0x20 && c != '\t' && c != '\n' || c == 0xFFFE || c == 0xFFFF {
			return -1
		}
		return c
	}, s)
}

// escXMLText escapes character data (after xmlSafe).
func escXMLText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(xmlSafe(s))
}

// arg writes <m:tag>seq</m:tag> (an empty element for an empty seq).
func (w *ommlWriter) arg(tag string, seq []*mnode) {
	if len(seq) == 0 {
		w.b.WriteString("<m:" + tag + "/>")
		return
	}
	w.b.WriteString("<m:" + tag + ">")
	w.seq(seq)
	w.b.WriteString("</m:" + tag + ">")
}

func val(tag, v string) string { return `<m:` + tag + ` m:val="` + esc(xmlSafe(v)) + `"/>` }

func (w *ommlWriter) node(n *mnode) {
	b := &w.b
	switch n.kind {
	case mkGroup:
		w.seq(n.a)
	case mkFrac:
		b.WriteString("<m:f><m:fPr>")
		if !n.bar {
			b.WriteString(val("type", "noBar"))
		}
		b.WriteString(w.ctrlPr() + "</m:fPr>")
		w.arg("num", n.a)
		w.arg("den", n.b)
		b.WriteString("</m:f>")
	case mkScript:
		tag := "sSup"
		switch {
		case n.hasSub && n.hasSup:
			tag = "sSubSup"
		case n.hasSub:
			tag = "sSub"
		}
		b.WriteString("<m:" + tag + "><m:" + tag + "Pr>" + w.ctrlPr() + "</m:" + tag + "Pr>")
		w.arg("e", n.a)
		if n.hasSub {
			w.arg("sub", n.b)
		}
		if n.hasSup {
			w.arg("sup", n.c)
		}
		b.WriteString("</m:" + tag + ">")
	case mkRad:
		b.WriteString("<m:rad><m:radPr>")
		if len(n.a) == 0 {
			b.WriteString(val("degHide", "1"))
		}
		b.WriteString(w.ctrlPr() + "</m:radPr>")
		w.arg("deg", n.a)
		w.arg("e", n.b)
		b.WriteString("</m:rad>")
	case mkNary:
		b.WriteString("<m:nary><m:naryPr>" + val("chr", n.text))
		if n.limits {
			b.WriteString(val("limLoc", "undOvr"))
		} else {
			b.WriteString(val("limLoc", "subSup"))
		}
		if !n.hasSub {
			b.WriteString(val("subHide", "1"))
		}
		if !n.hasSup {
			b.WriteString(val("supHide", "1"))
		}
		b.WriteString(w.ctrlPr() + "</m:naryPr>")
		w.arg("sub", n.b)
		w.arg("sup", n.c)
		w.arg("e", n.a)
		b.WriteString("</m:nary>")
	case mkLimLow:
		b.WriteString("<m:limLow><m:limLowPr>" + w.ctrlPr() + "</m:limLowPr>")
		w.arg("e", n.a)
		w.arg("lim", n.b)
		b.WriteString("</m:limLow>")
	case mkDelim:
		b.WriteString("<m:d><m:dPr>" + val("begChr", n.beg) + val("endChr", n.end) + w.ctrlPr() + "</m:dPr>")
		w.arg("e", n.a)
		b.WriteString("</m:d>")
	case mkAcc:
		b.WriteString("<m:acc><m:accPr>" + val("chr", n.text) + w.ctrlPr() + "</m:accPr>")
		w.arg("e", n.a)
		b.WriteString("</m:acc>")
	case mkBar:
		pos := "bot"
		if n.top {
			pos = "top"
		}
		b.WriteString("<m:bar><m:barPr>" + val("pos", pos) + w.ctrlPr() + "</m:barPr>")
		w.arg("e", n.a)
		b.WriteString("</m:bar>")
	case mkFunc:
		if len(n.b) == 0 { // no argument: the upright name alone, no empty m:e placeholder
			w.seq(n.a)
			return
		}
		b.WriteString("<m:func><m:funcPr>" + w.ctrlPr() + "</m:funcPr>")
		w.arg("fName", n.a)
		w.arg("e", n.b)
		b.WriteString("</m:func>")
	case mkMatrix:
		cols := 0
		for _, r := range n.rows {
			cols = max(cols, len(r))
		}
		b.WriteString("<m:m><m:mPr><m:mcs>")
		if len(n.jc) == 0 {
			b.WriteString(fmt.Sprintf(`<m:mc><m:mcPr><m:count m:val="%d"/><m:mcJc m:val="center"/></m:mcPr></m:mc>`, max(cols, 1)))
		}
		for i := 0; i < len(n.jc) && i < max(cols, 1); i++ {
			b.WriteString(`<m:mc><m:mcPr><m:count m:val="1"/>` + val("mcJc", n.jc[i]) + `</m:mcPr></m:mc>`)
		}
		b.WriteString("</m:mcs>" + w.ctrlPr() + "</m:mPr>")
		for _, r := range n.rows {
			b.WriteString("<m:mr>")
			if len(r) == 0 {
				b.WriteString("<m:e/>")
			}
			for _, c := range r {
				w.arg("e", c)
			}
			b.WriteString("</m:mr>")
		}
		b.WriteString("</m:m>")
	case mkLimUpp:
		b.WriteString("<m:limUpp><m:limUppPr>" + w.ctrlPr() + "</m:limUppPr>")
		w.arg("e", n.a)
		w.arg("lim", n.b)
		b.WriteString("</m:limUpp>")
	case mkBox:
		b.WriteString("<m:borderBox><m:borderBoxPr>" + w.ctrlPr() + "</m:borderBoxPr>")
		w.arg("e", n.a)
		b.WriteString("</m:borderBox>")
	case mkGroupChr:
		pos, vj := "bot", "top"
		if n.top {
			pos, vj = "top", "bot"
		}
		b.WriteString("<m:groupChr><m:groupChrPr>" + val("chr", n.text) + val("pos", pos) + val("vertJc", vj) + w.ctrlPr() + "</m:groupChrPr>")
		w.arg("e", n.a)
		b.WriteString("</m:groupChr>")
	case mkRun:
		w.run(n.text, n.sty)
	}
}

// mathItalic maps Latin and lowercase Greek letters to the Mathematical
// Italic letters PowerPoint stores (U+1D434..., ℎ for h; mathPlain in
// import_math.go is the inverse).
func mathItalic(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case isASCIILetter(c):
			c = italicAlphabet.letter(c)
		case c >= 0x3B1 && c <= 0x3C9: // α..ω
			c = 0x1D6FC + c - 0x3B1
		default:
			if i := strings.IndexRune("ϵϑϰϕϱϖ", c); i >= 0 {
				c = 0x1D716 + rune(len([]rune("ϵϑϰϕϱϖ"[:i])))
			}
		}
		b.WriteRune(c)
	}
	return b.String()
}

// ---- the linear form ----

func linearSeq(ns []*mnode) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(linearNode(n))
	}
	return b.String()
}

// linearArg parenthesises an operand of more than one character.
func linearArg(ns []*mnode) string {
	s := linearSeq(ns)
	if len([]rune(s)) <= 1 || isWord(s) {
		return s
	}
	if len(ns) == 1 && (ns[0].kind == mkDelim || ns[0].kind == mkRad) {
		return s
	}
	return "(" + s + ")"
}

// isWord reports whether s is a word of letters (a function name).
func isWord(s string) bool {
	for _, c := range s {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func linearNode(n *mnode) string {
	switch n.kind {
	case mkRun:
		return n.text
	case mkGroup:
		return linearSeq(n.a)
	case mkFrac:
		if !n.bar {
			return linearArg(n.a) + "¦" + linearArg(n.b)
		}
		return linearArg(n.a) + "/" + linearArg(n.b)
	case mkScript:
		s := linearArg(n.a)
		if n.hasSub {
			s += "_" + linearArg(n.b)
		}
		if n.hasSup {
			s += "^" + linearArg(n.c)
		}
		return s
	case mkRad:
		if len(n.a) > 0 {
			return "√(" + linearSeq(n.a) + "&" + linearSeq(n.b) + ")"
		}
		return "√" + linearArg(n.b)
	case mkNary:
		s := n.text
		if n.hasSub {
			s += "_" + linearArg(n.b)
		}
		if n.hasSup {
			s += "^" + linearArg(n.c)
		}
		return s + " " + linearSeq(n.a)
	case mkLimLow:
		return linearSeq(n.a) + "_" + linearArg(n.b) + " "
	case mkLimUpp:
		return linearSeq(n.a) + "^" + linearArg(n.b) + " "
	case mkBox:
		return "▭" + linearArg(n.a)
	case mkGroupChr:
		return n.text + linearArg(n.a)
	case mkDelim:
		return n.beg + linearSeq(n.a) + n.end
	case mkAcc:
		if s := linearSeq(n.a); len([]rune(s)) == 1 {
			return s + n.text
		}
		return linearArg(n.a) + n.text
	case mkBar:
		if n.top {
			return "¯" + linearArg(n.a)
		}
		return "▁" + linearArg(n.a)
	case mkFunc:
		arg := linearSeq(n.b)
		if strings.HasPrefix(arg, "(") {
			return linearSeq(n.a) + arg
		}
		return linearSeq(n.a) + " " + arg
	case mkMatrix:
		var rows []string
		for _, r := range n.rows {
			var cells []string
			for _, c := range r {
				cells = append(cells, linearSeq(c))
			}
			rows = append(rows, strings.Join(cells, "&"))
		}
		return "■(" + strings.Join(rows, "@") + ")"
	}
	return ""
}

// ---- tables ----

// texSpaces are TeX's spacing commands as Unicode spaces ("" for \!,
// which OMML cannot express).
var texSpaces = map[string]string{
	",": "\u2009", ":": "\u205F", ">": "\u205F", ";": "\u2004", " ": " ", "quad": "\u2003", "qquad": "\u2003\u2003",
	"!": "", "thinspace": "\u2009", "enspace": "\u2002",
}

var texGreek = map[string]string{
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ", "eta": "η",
	"theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "varkappa": "ϰ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
	"omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ",
	"upsilon": "υ", "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ",
	"Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}

var texSyms = map[string]string{
	"infty": "∞", "cdot": "⋅", "times": "×", "pm": "±", "mp": "∓", "div": "÷", "ast": "∗", "star": "⋆", "circ": "∘",
	"bullet": "∙", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "equiv": "≡",
	"sim": "∼", "simeq": "≃", "cong": "≅", "propto": "∝", "ll": "≪", "gg": "≫", "rightarrow": "→", "to": "→",
	"leftarrow": "←", "gets": "←", "Rightarrow": "⇒", "Leftarrow": "⇐", "leftrightarrow": "↔", "Leftrightarrow": "⇔",
	"implies": "⟹", "iff": "⟺", "mapsto": "↦", "longrightarrow": "⟶", "longleftarrow": "⟵", "uparrow": "↑", "downarrow": "↓",
	"partial": "∂", "nabla": "∇", "forall": "∀", "exists": "∃", "emptyset": "∅", "varnothing": "∅", "in": "∈",
	"notin": "∉", "ni": "∋", "subset": "⊂", "supset": "⊃", "subseteq": "⊆", "supseteq": "⊇", "cup": "∪", "cap": "∩",
	"setminus": "∖", "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "neg": "¬", "lnot": "¬", "ldots": "…", "dots": "…",
	"cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "hbar": "ℏ", "ell": "ℓ", "perp": "⊥", "parallel": "∥", "mid": "∣",
	"angle": "∠", "triangle": "△", "prime": "′", "degree": "°", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊",
	"rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "|": "‖", "{": "{", "}": "}", "%": "%", "#": "#", "&": "&", "$": "$",
	"_": "_", "backslash": `\`, "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ", "wp": "℘", "oplus": "⊕", "otimes": "⊗",
	"vert": "|", "Vert": "‖", "lvert": "|", "rvert": "|", "colon": ":", "dagger": "†", "top": "⊤", "bot": "⊥",
	"leqslant": "⩽", "geqslant": "⩾", "lbrace": "{", "rbrace": "}", "Box": "□", "square": "□", "checkmark": "✓",
}

var texNegated = map[string]string{"=": "≠", "∈": "∉", "<": "≮", ">": "≯", "≤": "≰", "≥": "≱", "⊂": "⊄", "⊆": "⊈", "≡": "≢", "∼": "≁"}

var texDelims = map[string]string{
	"{": "{", "}": "}", "lbrace": "{", "rbrace": "}", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋",
	"lceil": "⌈", "rceil": "⌉", "|": "‖", "Vert": "‖", "vert": "|", "lvert": "|", "rvert": "|", "lVert": "‖", "rVert": "‖",
	"uparrow": "↑", "downarrow": "↓", "backslash": `\`, "lbrack": "[", "rbrack": "]",
}

var texNary = map[string]string{
	"sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "iiint": "∭", "oint": "∮",
	"bigcup": "⋃", "bigcap": "⋂", "bigoplus": "⨁", "bigotimes": "⨂", "bigvee": "⋁", "bigwedge": "⋀",
}

// texFuncs are the log-like operators written as m:func with an upright
// name; \lim with a subscript becomes m:limLow instead.
var texFuncs = map[string]bool{
	"sin": true, "cos": true, "tan": true, "cot": true, "sec": true, "csc": true, "arcsin": true, "arccos": true,
	"arctan": true, "sinh": true, "cosh": true, "tanh": true, "coth": true, "log": true, "ln": true, "lg": true,
	"exp": true, "max": true, "min": true, "sup": true, "inf": true, "det": true, "dim": true, "gcd": true, "arg": true,
	"deg": true, "ker": true, "Pr": true, "liminf": true, "limsup": true, "hom": true,
}

// texAccents map accent commands to the combining characters of m:acc.
var texAccents = map[string]string{
	"hat": "\u0302", "widehat": "\u0302", "bar": "\u0305", "vec": "\u20D7", "dot": "\u0307", "ddot": "\u0308",
	"tilde": "\u0303", "widetilde": "\u0303", "check": "\u030C", "acute": "\u0301", "grave": "\u0300", "breve": "\u0306",
	"overrightarrow": "\u20D7", "overleftarrow": "\u20D6",
}
