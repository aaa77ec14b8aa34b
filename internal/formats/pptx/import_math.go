package pptx

import (
	"strings"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Namespaces of PowerPoint equations: a14:m wraps Office Math (OMML,
// ECMA-376 Part 1 §22.1) inside a DrawingML paragraph; the shape sits in an
// mc:AlternateContent whose mc:Fallback is a picture of the formula.
const (
	nsA14  = "http://schemas.microsoft.com/office/drawing/2010/main"
	nsMath = "http://schemas.openxmlformats.org/officeDocument/2006/math"
)

// mathShape models an mc:AlternateContent whose mc:Choice is a p:sp holding
// only equations (every paragraph is a14:m and blank runs) as a MATH node:
// the LaTeX comes from the OMML (ommlLaTeX), Display from m:oMathPara (a
// formula on its own line; a bare m:oMath is inline), size and colour from
// the first math run's a:rPr through the text inheritance chain. The node's
// source element is the whole mc:AlternateContent, so export keeps it byte
// for byte while the node is untouched. It returns nil for anything else
// (text mixed with math, no math), which stays unmodelled.
func (c *shapeCtx) mathShape(ac *xnode, m emuMap, slideID string) *sg.Node {
	var sp *xnode
	for _, ch := range ac.all(nsMC, "Choice") {
		if sp = ch.child(nsP, "sp"); sp != nil {
			break
		}
	}
	tb := sp.child(nsP, "txBody")
	if tb == nil {
		return nil
	}
	var lines []string
	display := false
	var firstRPr *xnode
	for _, p := range tb.all(nsA, "p") {
		for _, k := range p.elems() {
			switch {
			case k.is(nsA14, "m"):
				for _, om := range k.elems() {
					switch {
					case om.is(nsMath, "oMathPara"):
						display = true
						for _, o := range om.all(nsMath, "oMath") {
							lines = append(lines, ommlLaTeX(o))
						}
					case om.is(nsMath, "oMath"):
						lines = append(lines, ommlLaTeX(om))
					}
					if firstRPr == nil {
						firstRPr = firstMathRPr(om)
					}
				}
			case k.is(nsA, "r") || k.is(nsA, "fld"):
				if strings.TrimSpace(k.child(nsA, "t").allText()) != "" {
					return nil
				}
			}
		}
	}
	var keep []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return nil
	}
	n := c.sp(sp, m, slideID)
	info := c.im.shapes[n.ID]
	info.elem, info.kind = ac, "math"
	c.im.equations[ac] = true
	style := c.textCtx(sp, sp.child(nsP, "style")).runStyle(0, firstRPr)
	latex := keep[0]
	if len(keep) > 1 {
		latex = `\begin{gathered}` + strings.Join(keep, ` \\ `) + `\end{gathered}`
	}
	n.Type = sg.TypeMath
	n.TextContent = sg.TextContent{}
	n.Preset, n.Paths, n.CornerRadius = "", nil, 0
	n.Math = &sg.Math{LaTeX: latex, FontSize: style.FontSize, Display: display}
	for _, f := range style.Fills {
		if f.Type == sg.PaintSolid && f.Color != nil && f.IsVisible() {
			col := *f.Color
			n.Math.Color = &col
			break
		}
	}
	return n
}

// firstMathRPr returns the DrawingML a:rPr of the first math run under e.
func firstMathRPr(e *xnode) *xnode {
	for _, k := range e.elems() {
		if k.is(nsMath, "r") {
			if r := k.child(nsA, "rPr"); r != nil {
				return r
			}
		}
		if r := firstMathRPr(k); r != nil {
			return r
		}
	}
	return nil
}

// ommlLaTeX converts Office Math (ECMA-376 Part 1 §22.1.2) to LaTeX for
// MathJax: fractions, scripts, radicals, n-ary operators, delimiters,
// functions, accents, bars, boxes, group characters, limits, matrices and
// equation arrays; property elements (*Pr) are read for their options and
// never written; an unknown element contributes its children.
func ommlLaTeX(e *xnode) string {
	var b strings.Builder
	for _, k := range e.elems() {
		b.WriteString(ommlElem(k))
	}
	return strings.TrimSpace(b.String())
}

// ommlArg converts an argument element (m:e, m:num, m:sub, ...) to a brace
// group.
func ommlArg(e *xnode) string { return "{" + ommlLaTeX(e) + "}" }

// ommlVal returns m:val of a property child, or def.
func ommlVal(pr *xnode, name, def string) string {
	el := pr.child(nsMath, name)
	if el == nil {
		return def
	}
	for _, a := range el.attrs {
		if a.local == "val" && (a.ns == nsMath || a.prefix == "") {
			return a.value // "" is a value too: an empty begChr draws no delimiter
		}
	}
	// An on/off property present without a value is on (ST_OnOff).
	return "1"
}

func ommlOn(v string) bool { return v == "1" || v == "on" || v == "true" }

func ommlElem(k *xnode) string {
	if k.ns != nsMath {
		return ""
	}
	m := func(name string) *xnode { return k.child(nsMath, name) }
	pr := m(k.local + "Pr")
	switch k.local {
	case "r":
		return ommlRun(k)
	case "f":
		num, den := ommlLaTeX(m("num")), ommlLaTeX(m("den"))
		switch ommlVal(pr, "type", "bar") {
		case "lin":
			return "{" + num + "}/{" + den + "}"
		case "noBar":
			return `\genfrac{}{}{0pt}{}{` + num + "}{" + den + "}"
		}
		return `\frac{` + num + "}{" + den + "}"
	case "sSup":
		return ommlArg(m("e")) + "^" + ommlArg(m("sup"))
	case "sSub":
		return ommlArg(m("e")) + "_" + ommlArg(m("sub"))
	case "sSubSup":
		return ommlArg(m("e")) + "_" + ommlArg(m("sub")) + "^" + ommlArg(m("sup"))
	case "sPre":
		return "{}_" + ommlArg(m("sub")) + "^" + ommlArg(m("sup")) + ommlArg(m("e"))
	case "rad":
		if ommlOn(ommlVal(pr, "degHide", "0")) || ommlLaTeX(m("deg")) == "" {
			return `\sqrt` + ommlArg(m("e"))
		}
		return `\sqrt[` + ommlLaTeX(m("deg")) + "]" + ommlArg(m("e"))
	case "nary":
		op := ommlVal(pr, "chr", "∫")
		s := ommlSymbol(op)
		if s == op {
			s = `\mathop{` + op + `}`
		}
		if ommlVal(pr, "limLoc", "") == "undOvr" && (op == "∫" || op == "∬" || op == "∭" || op == "∮") {
			s += `\limits`
		}
		if !ommlOn(ommlVal(pr, "subHide", "0")) && ommlLaTeX(m("sub")) != "" {
			s += "_" + ommlArg(m("sub"))
		}
		if !ommlOn(ommlVal(pr, "supHide", "0")) && ommlLaTeX(m("sup")) != "" {
			s += "^" + ommlArg(m("sup"))
		}
		return s + ommlArg(m("e")) + " "
	case "d":
		beg, end, sep := ommlVal(pr, "begChr", "("), ommlVal(pr, "endChr", ")"), ommlVal(pr, "sepChr", "|")
		var parts []string
		for _, e := range k.all(nsMath, "e") {
			parts = append(parts, ommlLaTeX(e))
		}
		return `\left` + ommlDelim(beg) + " " + strings.Join(parts, " "+ommlDelimMid(sep)+" ") + ` \right` + ommlDelim(end)
	case "func":
		name := strings.TrimSpace(ommlLaTeX(m("fName")))
		if !strings.HasPrefix(name, `\`) && name != "" {
			if knownFuncs[name] {
				name = `\` + name
			} else if !strings.ContainsAny(name, "{}_^") {
				name = `\operatorname{` + name + `}`
			}
		}
		return name + ommlArg(m("e"))
	case "acc":
		cmd, ok := ommlAccents[ommlVal(pr, "chr", "\u0302")]
		if !ok {
			cmd = `\hat`
		}
		return cmd + ommlArg(m("e"))
	case "bar":
		if ommlVal(pr, "pos", "bot") == "top" {
			return `\overline` + ommlArg(m("e"))
		}
		return `\underline` + ommlArg(m("e"))
	case "borderBox":
		return `\boxed` + ommlArg(m("e"))
	case "box", "phant":
		return ommlArg(m("e"))
	case "groupChr":
		top := ommlVal(pr, "pos", "bot") == "top"
		switch ommlVal(pr, "chr", "\u23DF") {
		case "\u23DE":
			return `\overbrace` + ommlArg(m("e"))
		case "\u23DF":
			return `\underbrace` + ommlArg(m("e"))
		case "→", "\u20D7":
			return `\xrightarrow` + ommlArg(m("e"))
		case "←":
			return `\xleftarrow` + ommlArg(m("e"))
		}
		if top {
			return `\overbrace` + ommlArg(m("e"))
		}
		return `\underbrace` + ommlArg(m("e"))
	case "limLow":
		base := ommlLaTeX(m("e"))
		if base == `\lim` || base == "lim" || base == `\operatorname{lim}` {
			return `\lim_` + ommlArg(m("lim")) + " "
		}
		return `\underset` + ommlArg(m("lim")) + "{" + base + "}"
	case "limUpp":
		return `\overset` + ommlArg(m("lim")) + ommlArg(m("e"))
	case "m":
		var rows []string
		for _, mr := range k.all(nsMath, "mr") {
			var cells []string
			for _, e := range mr.all(nsMath, "e") {
				cells = append(cells, ommlLaTeX(e))
			}
			rows = append(rows, strings.Join(cells, " & "))
		}
		return `\begin{matrix}` + strings.Join(rows, ` \\ `) + `\end{matrix}`
	case "eqArr":
		var rows []string
		for _, e := range k.all(nsMath, "e") {
			rows = append(rows, ommlLaTeX(e))
		}
		return `\begin{gathered}` + strings.Join(rows, ` \\ `) + `\end{gathered}`
	case "oMath":
		return ommlLaTeX(k)
	}
	if strings.HasSuffix(k.local, "Pr") {
		return ""
	}
	return ommlLaTeX(k)
}

// ommlRun converts a math run's text: math-italic letters back to ASCII,
// symbols to LaTeX commands, TeX specials escaped; an upright run of
// letters (m:sty p, m:nor) that is not a known function is \mathrm.
func ommlRun(r *xnode) string {
	text := ""
	for _, t := range r.all(nsMath, "t") {
		text += t.allText()
	}
	var b strings.Builder
	for _, ch := range text {
		b.WriteString(ommlSymbol(string(mathPlain(ch))))
	}
	s := b.String()
	pr := r.child(nsMath, "rPr")
	upright := ommlVal(pr, "sty", "") == "p" || ommlOn(ommlVal(pr, "nor", "0"))
	if knownFuncs[s] {
		return `\` + s + " "
	}
	if upright && len(s) > 1 && isLetters(s) {
		return `\mathrm{` + s + "}"
	}
	return s
}

func isLetters(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// mathPlain maps a Mathematical Alphanumeric Symbol (U+1D400 block: the
// italic and bold letters PowerPoint stores in m:t) to its plain letter.
func mathPlain(c rune) rune {
	switch {
	case c == 0x210E: // ℎ, the italic h
		return 'h'
	case c >= 0x1D400 && c <= 0x1D6A3: // Latin: 13 styles of A-Z a-z
		i := (c - 0x1D400) % 52
		if i < 26 {
			return 'A' + i
		}
		return 'a' + i - 26
	case c >= 0x1D6A8 && c <= 0x1D7C9: // Greek: 5 styles of 58 letters
		i := (c - 0x1D6A8) % 58
		switch {
		case i == 17: // ϴ, the capital theta symbol
			return 'Θ'
		case i < 25: // Α..Ω
			return 0x391 + i
		case i == 25:
			return '∇'
		case i < 51: // α..ω
			return 0x3B1 + i - 26
		default: // ∂ ϵ ϑ ϰ ϕ ϱ ϖ
			return []rune("∂ϵϑϰϕϱϖ")[i-51]
		}
	case c >= 0x1D7CE && c <= 0x1D7FF: // digits
		return '0' + (c-0x1D7CE)%10
	}
	return c
}

// ommlSymbol returns the LaTeX for one character: a command for Greek
// letters and operators, an escape for TeX specials, else the character.
func ommlSymbol(s string) string {
	if c, ok := texSymbols[s]; ok {
		if last := c[len(c)-1]; c[0] == '\\' && (last >= 'a' && last <= 'z' || last >= 'A' && last <= 'Z') {
			return c + " " // \pm b, not \pmb
		}
		return c
	}
	switch s {
	case "{", "}", "%", "#", "&", "$", "_":
		return `\` + s
	case `\`:
		return `\backslash `
	case "~":
		return `\sim `
	case "^":
		return `\hat{}`
	}
	if r, _ := utf8.DecodeRuneInString(s); r == 0x2061 || r == 0x2062 || r == 0x2063 || r == 0x200B {
		return "" // function application, invisible times and separators
	}
	return s
}

func ommlDelim(s string) string {
	switch s {
	case "":
		return "."
	case "{", "}":
		return `\` + s
	case "⟨", "〈":
		return `\langle`
	case "⟩", "〉":
		return `\rangle`
	case "‖":
		return `\|`
	case "⌊":
		return `\lfloor`
	case "⌋":
		return `\rfloor`
	case "⌈":
		return `\lceil`
	case "⌉":
		return `\rceil`
	}
	return s
}

func ommlDelimMid(s string) string {
	if s == "|" {
		return `\mid`
	}
	return ommlDelim(s)
}

var knownFuncs = map[string]bool{
	"sin": true, "cos": true, "tan": true, "cot": true, "sec": true, "csc": true, "arcsin": true, "arccos": true, "arctan": true,
	"sinh": true, "cosh": true, "tanh": true, "coth": true, "log": true, "ln": true, "lg": true, "exp": true, "lim": true,
	"max": true, "min": true, "sup": true, "inf": true, "det": true, "dim": true, "gcd": true, "arg": true, "deg": true, "ker": true, "Pr": true,
}

var ommlAccents = map[string]string{
	"\u0302": `\hat`, "\u0303": `\tilde`, "\u0307": `\dot`, "\u0308": `\ddot`, "\u20D7": `\vec`, "\u0305": `\bar`,
	"\u0304": `\bar`, "\u030C": `\check`, "\u0301": `\acute`, "\u0300": `\grave`, "\u0306": `\breve`, "\u20D6": `\overleftarrow`,
}

var texSymbols = map[string]string{
	"α": `\alpha`, "β": `\beta`, "γ": `\gamma`, "δ": `\delta`, "ε": `\varepsilon`, "ϵ": `\epsilon`, "ζ": `\zeta`, "η": `\eta`,
	"θ": `\theta`, "ϑ": `\vartheta`, "ι": `\iota`, "κ": `\kappa`, "λ": `\lambda`, "μ": `\mu`, "ν": `\nu`, "ξ": `\xi`, "π": `\pi`,
	"ϖ": `\varpi`, "ρ": `\rho`, "ϱ": `\varrho`, "σ": `\sigma`, "ς": `\varsigma`, "τ": `\tau`, "υ": `\upsilon`, "φ": `\varphi`,
	"ϕ": `\phi`, "χ": `\chi`, "ψ": `\psi`, "ω": `\omega`, "Γ": `\Gamma`, "Δ": `\Delta`, "Θ": `\Theta`, "Λ": `\Lambda`,
	"Ξ": `\Xi`, "Π": `\Pi`, "Σ": `\Sigma`, "Υ": `\Upsilon`, "Φ": `\Phi`, "Ψ": `\Psi`, "Ω": `\Omega`,
	"∑": `\sum`, "∏": `\prod`, "∐": `\coprod`, "∫": `\int`, "∬": `\iint`, "∭": `\iiint`, "∮": `\oint`, "⋃": `\bigcup`, "⋂": `\bigcap`,
	"±": `\pm`, "∓": `\mp`, "×": `\times`, "÷": `\div`, "⋅": `\cdot`, "·": `\cdot`, "∙": `\cdot`, "∗": `\ast`, "∘": `\circ`,
	"≤": `\le`, "≥": `\ge`, "≠": `\ne`, "≈": `\approx`, "≡": `\equiv`, "∼": `\sim`, "≅": `\cong`, "∝": `\propto`, "≪": `\ll`, "≫": `\gg`,
	"∞": `\infty`, "∂": `\partial`, "∇": `\nabla`, "∀": `\forall`, "∃": `\exists`, "∅": `\emptyset`, "∈": `\in`, "∉": `\notin`,
	"⊂": `\subset`, "⊃": `\supset`, "⊆": `\subseteq`, "⊇": `\supseteq`, "∪": `\cup`, "∩": `\cap`, "∧": `\wedge`, "∨": `\vee`, "¬": `\neg`,
	"→": `\rightarrow`, "←": `\leftarrow`, "↔": `\leftrightarrow`, "⇒": `\Rightarrow`, "⇐": `\Leftarrow`, "⇔": `\Leftrightarrow`, "↦": `\mapsto`,
	"…": `\ldots`, "⋯": `\cdots`, "⋮": `\vdots`, "⋱": `\ddots`, "′": `'`, "″": `''`, "−": "-", "ℏ": `\hbar`, "ℓ": `\ell`, "ℝ": `\mathbb{R}`,
	"ℕ": `\mathbb{N}`, "ℤ": `\mathbb{Z}`, "ℚ": `\mathbb{Q}`, "ℂ": `\mathbb{C}`, "°": `^{\circ}`, "√": `\surd`, "⊥": `\perp`, "∥": `\parallel`,
	"∠": `\angle`, "△": `\triangle`,
}
