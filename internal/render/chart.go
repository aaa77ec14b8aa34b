package render

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// defaultSeriesColors is used when neither the series nor the deck's
// accent1..accent6 tokens give a colour (Office 2013+ default accents).
var defaultSeriesColors = []string{"#4472C4", "#ED7D31", "#A5A5A5", "#FFC000", "#5B9BD5", "#70AD47"}

func (b *builder) seriesColor(i int, s scenegraph.Series) string {
	if s.Color != nil {
		return cssColor(*s.Color, 1)
	}
	if c, ok := b.deck.Tokens.Colors[fmt.Sprintf("accent%d", i%6+1)]; ok {
		return cssColor(c, 1)
	}
	return defaultSeriesColors[i%len(defaultSeriesColors)]
}

// niceTicks returns axis ticks covering [lo, hi] with about n steps of a
// 1-2-5 multiple.
func niceTicks(lo, hi float64, n int) []float64 {
	if hi <= lo {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var ts []float64
	for v := start; v <= hi+step*0.5 && len(ts) < 50; v += step {
		ts = append(ts, v)
	}
	if len(ts) > 0 && ts[len(ts)-1] < hi {
		ts = append(ts, ts[len(ts)-1]+step)
	}
	return ts
}

func fmtTick(v float64) string {
	if math.Abs(v) >= 1e6 {
		return trimFloat(v/1e6) + "M"
	}
	if math.Abs(v) >= 1e4 {
		return trimFloat(v/1e3) + "k"
	}
	return trimFloat(math.Round(v*100) / 100)
}

// chart draws a CHART node's data as SVG: title, legend, axes with 1-2-5
// ticks and gridlines, and bars, lines, areas, points or pie slices.
func (b *builder) chart(n *scenegraph.Node) {
	ch := n.Chart
	if ch == nil {
		b.errorf(n, "CHART node without chart data")
		return
	}
	w, h := math.Max(n.Size.X, 10), math.Max(n.Size.Y, 10)
	fs := math.Max(9, math.Min(16, h/24))
	font := b.fontStack(scenegraph.TypeStyle{})
	var sb strings.Builder
	txt := func(x, y float64, anchor, s string, size float64, extra string) {
		fmt.Fprintf(&sb, `<text x="%s" y="%s" text-anchor="%s" font-size="%s" fill="#404040"%s>%s</text>`,
			trimFloat(x), trimFloat(y), anchor, trimFloat(size), extra, escapeText(s))
	}
	fmt.Fprintf(&sb, `<svg class="vl" width="%s" height="%s" viewBox="0 0 %s %s" style="font-family:%s">`,
		trimFloat(w), trimFloat(h), trimFloat(w), trimFloat(h), attr(font))
	top, left, right, bottom := 6.0, 6.0, 6.0, 6.0
	if ch.Title != "" {
		txt(w/2, top+fs*1.2, "middle", ch.Title, fs*1.3, ` font-weight="bold"`)
		top += fs * 1.9
	}
	legendPos := "RIGHT"
	if ch.Legend != nil && ch.Legend.Position != "" {
		legendPos = ch.Legend.Position
	}
	pie := ch.ChartType == scenegraph.ChartPie || ch.ChartType == scenegraph.ChartDoughnut
	var legendItems []string
	var legendColors []string
	if pie || byPoint(ch) {
		legendItems = ch.Categories
		for i := range ch.Categories {
			legendColors = append(legendColors, b.pointColor(ch, 0, i))
		}
	} else {
		for i, s := range ch.Series {
			legendItems = append(legendItems, s.Name)
			legendColors = append(legendColors, b.seriesColor(i, s))
		}
		if cat, _ := ch.Axes(); ch.ChartType == scenegraph.ChartBar && !cat.Reversed && (legendPos == "RIGHT" || legendPos == "LEFT") {
			// Horizontal bars stack the first series lowest; a side
			// legend lists them in the order they are drawn, top down.
			slices.Reverse(legendItems)
			slices.Reverse(legendColors)
		}
	}
	if len(legendItems) > 0 && legendPos != "NONE" && (pie || len(ch.Series) > 1 || ch.Legend != nil) {
		switch legendPos {
		case "BOTTOM", "TOP":
			x := left
			y := h - bottom - fs*0.3
			if legendPos == "TOP" {
				y = top + fs
				top += fs * 1.8
			} else {
				bottom += fs * 1.8
			}
			for i, it := range legendItems {
				fmt.Fprintf(&sb, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, trimFloat(x), trimFloat(y-fs*0.8), trimFloat(fs*0.8), trimFloat(fs*0.8), legendColors[i])
				txt(x+fs, y, "start", it, fs, "")
				x += fs*1.6 + float64(len([]rune(it)))*fs*0.55
			}
		default: // RIGHT, LEFT
			lw := fs * 2
			for _, it := range legendItems {
				lw = math.Max(lw, fs*1.6+float64(len([]rune(it)))*fs*0.55)
			}
			lw = math.Min(lw, w*0.35)
			x := w - right - lw
			if legendPos == "LEFT" {
				x = left
				left += lw + fs
			} else {
				right += lw + fs
			}
			y := top + (h-top-bottom)/2 - float64(len(legendItems))*fs*0.7
			for i, it := range legendItems {
				fmt.Fprintf(&sb, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, trimFloat(x), trimFloat(y-fs*0.8), trimFloat(fs*0.8), trimFloat(fs*0.8), legendColors[i])
				txt(x+fs, y, "start", it, fs, "")
				y += fs * 1.4
			}
		}
	}
	pw, ph := w-left-right, h-top-bottom
	if pw > 10 && ph > 10 {
		if pie {
			b.pie(&sb, ch, left, top, pw, ph, fs)
		} else {
			b.cartesian(&sb, ch, left, top, pw, ph, fs, txt)
		}
	}
	sb.WriteString(`</svg>`)
	b.w(sb.String())
}

func escapeText(s string) string { return attr(s) }

// percentShares returns a copy of the chart whose values are each
// point's share (0..1) of its category's total of absolute values, as a
// stack to 100% plots them.
func percentShares(ch *scenegraph.Chart, ncat int) *scenegraph.Chart {
	totals := make([]float64, ncat)
	for _, s := range ch.Series {
		for c, v := range s.Values {
			if c < ncat && !math.IsNaN(v) {
				totals[c] += math.Abs(v)
			}
		}
	}
	pc := *ch
	pc.Series = make([]scenegraph.Series, len(ch.Series))
	for i, s := range ch.Series {
		s.Values = slices.Clone(s.Values)
		for c, v := range s.Values {
			if c < ncat && totals[c] > 0 {
				s.Values[c] = v / totals[c]
			}
		}
		pc.Series[i] = s
	}
	return &pc
}

// byPoint reports whether each point of the chart's one series gets its
// own colour (c:varyColors, ECMA-376 Part 1 §21.2.2.227). Office ignores
// it for area charts and for charts of several series ([MS-OI29500]
// 2.1.1571), and so does this.
func byPoint(ch *scenegraph.Chart) bool {
	return len(ch.Series) == 1 && ch.ChartType != scenegraph.ChartArea && ch.VariesColors()
}

// pointColor is the colour of point i of series si: the accent colours in
// turn when the chart varies colours by point, else the series' colour.
func (b *builder) pointColor(ch *scenegraph.Chart, si, i int) string {
	if byPoint(ch) {
		return b.seriesColor(i, scenegraph.Series{})
	}
	if si < len(ch.Series) {
		return b.seriesColor(si, ch.Series[si])
	}
	return b.seriesColor(si, scenegraph.Series{})
}

func (b *builder) pie(sb *strings.Builder, ch *scenegraph.Chart, x, y, w, h, fs float64) {
	if len(ch.Series) == 0 {
		return
	}
	vals := ch.Series[0].Values
	total := 0.0
	for _, v := range vals {
		if v > 0 {
			total += v
		}
	}
	if total <= 0 {
		return
	}
	cx, cy := x+w/2, y+h/2
	r := math.Min(w, h) / 2 * 0.95
	a0 := -math.Pi / 2
	for i, v := range vals {
		if v <= 0 {
			continue
		}
		a1 := a0 + v/total*2*math.Pi
		large := 0
		if a1-a0 > math.Pi {
			large = 1
		}
		col := b.pointColor(ch, 0, i)
		if len(vals) == 1 || v >= total {
			fmt.Fprintf(sb, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, trimFloat(cx), trimFloat(cy), trimFloat(r), col)
		} else {
			fmt.Fprintf(sb, `<path d="M%s %s L%s %s A%s %s 0 %d 1 %s %s Z" fill="%s" stroke="#fff" stroke-width="1"/>`,
				trimFloat(cx), trimFloat(cy), trimFloat(cx+r*math.Cos(a0)), trimFloat(cy+r*math.Sin(a0)),
				trimFloat(r), trimFloat(r), large, trimFloat(cx+r*math.Cos(a1)), trimFloat(cy+r*math.Sin(a1)), col)
		}
		if ch.DataLabels {
			am := (a0 + a1) / 2
			fmt.Fprintf(sb, `<text x="%s" y="%s" text-anchor="middle" font-size="%s" fill="#fff">%s</text>`,
				trimFloat(cx+r*0.65*math.Cos(am)), trimFloat(cy+r*0.65*math.Sin(am)+fs/3), trimFloat(fs), escapeText(formatNumber(v, ch.Series[0].FormatCode)))
		}
		a0 = a1
	}
	if ch.ChartType == scenegraph.ChartDoughnut {
		fmt.Fprintf(sb, `<circle cx="%s" cy="%s" r="%s" fill="#fff"/>`, trimFloat(cx), trimFloat(cy), trimFloat(r*0.5))
	}
}

func (b *builder) cartesian(sb *strings.Builder, ch *scenegraph.Chart, x, y, w, h, fs float64, txt func(x, y float64, anchor, s string, size float64, extra string)) {
	ncat := len(ch.Categories)
	for _, s := range ch.Series {
		ncat = max(ncat, len(s.Values))
	}
	if ncat == 0 || len(ch.Series) == 0 {
		return
	}
	stacked := ch.Stacked && (ch.ChartType == scenegraph.ChartBar || ch.ChartType == scenegraph.ChartColumn || ch.ChartType == scenegraph.ChartArea)
	// Data labels always show the values as stored; a stack to 100%
	// (c:grouping percentStacked) plots each as its share of the
	// category's total, on an axis from 0 to 100%.
	orig := ch
	percent := stacked && ch.PercentStacked
	if percent {
		ch = percentShares(ch, ncat)
	}
	lo, hi := 0.0, 0.0
	for c := 0; c < ncat; c++ {
		pos, neg := 0.0, 0.0
		for _, s := range ch.Series {
			if c >= len(s.Values) || math.IsNaN(s.Values[c]) {
				continue
			}
			v := s.Values[c]
			if stacked {
				if v >= 0 {
					pos += v
				} else {
					neg += v
				}
			} else {
				hi, lo = math.Max(hi, v), math.Min(lo, v)
			}
		}
		if stacked {
			hi, lo = math.Max(hi, pos), math.Min(lo, neg)
		}
	}
	if percent { // shares sum to 1 up to rounding
		hi, lo = math.Min(hi, 1), math.Max(lo, -1)
	}
	ticks := niceTicks(lo, hi, 5)
	tlo, thi := ticks[0], ticks[len(ticks)-1]
	horizontal := ch.ChartType == scenegraph.ChartBar
	catAx, valAx := ch.Axes()
	// Axis label gutters.
	gut := fs * 3.2
	if ch.YAxisTitle != "" {
		gut += fs * 1.4
	}
	bot := fs * 1.8
	if ch.XAxisTitle != "" {
		bot += fs * 1.4
	}
	px0, py0, pw, ph := x+gut, y+fs*0.5, w-gut-fs*0.5, h-bot-fs*0.5
	if horizontal {
		// Categories on the left need a wider gutter.
		maxLen := 0
		for _, c := range ch.Categories {
			maxLen = max(maxLen, len([]rune(c)))
		}
		g := math.Min(w*0.35, float64(maxLen)*fs*0.55+fs)
		px0, pw = x+g, w-g-fs*0.5
	}
	if pw <= 4 || ph <= 4 {
		return
	}
	// val maps a value to 0..1 along the value axis, from the axis'
	// origin (c:orientation maxMin runs it the other way).
	val := func(v float64) float64 {
		f := (v - tlo) / (thi - tlo)
		if valAx.Reversed {
			f = 1 - f
		}
		return f
	}
	grid := `stroke="#D9D9D9" stroke-width="1"`
	gridAt := func(f float64, minor bool) {
		g := grid
		if minor {
			g = `stroke="#EDEDED" stroke-width="0.75"`
		}
		if horizontal {
			gx := px0 + f*pw
			fmt.Fprintf(sb, `<line x1="%s" y1="%s" x2="%s" y2="%s" %s/>`, trimFloat(gx), trimFloat(py0), trimFloat(gx), trimFloat(py0+ph), g)
		} else {
			gy := py0 + ph - f*ph
			fmt.Fprintf(sb, `<line x1="%s" y1="%s" x2="%s" y2="%s" %s/>`, trimFloat(px0), trimFloat(gy), trimFloat(px0+pw), trimFloat(gy), g)
		}
	}
	// Gridlines only as stored (c:majorGridlines, ECMA-376 Part 1
	// §21.2.2.100, and c:minorGridlines); minor ones at a fifth of a major
	// step, as Office's automatic minor unit.
	if valAx.MinorGridlines && len(ticks) > 1 {
		step := (ticks[1] - ticks[0]) / 5
		for v := tlo; v < thi-step/2; v += step {
			gridAt(val(v), true)
		}
	}
	// Tick labels in the axis' own format, else the first series'
	// (c:numFmt sourceLinked="1").
	tickFormat := valAx.NumberFormat
	if tickFormat == "" {
		tickFormat = ch.Series[0].FormatCode
		if percent {
			tickFormat = "0%"
		}
	}
	for _, t := range ticks {
		f := val(t)
		if valAx.MajorGridlines {
			gridAt(f, false)
		}
		if valAx.Hidden {
			continue
		}
		if horizontal {
			txt(px0+f*pw, py0+ph+fs*1.2, "middle", formatNumber(t, tickFormat), fs, "")
		} else {
			txt(px0-fs*0.4, py0+ph-f*ph+fs*0.35, "end", formatNumber(t, tickFormat), fs, "")
		}
	}
	band := pw / float64(ncat)
	if horizontal {
		band = ph / float64(ncat)
	}
	// slot is where category c sits, counted from the left (columns) or
	// the top (bars). The category axis runs from its origin: left to
	// right, and for horizontal bars bottom to top, so PowerPoint (and
	// LibreOffice) draw a bar chart's first category at the bottom;
	// c:scaling/c:orientation maxMin reverses it.
	slot := func(c int) int {
		if horizontal != catAx.Reversed {
			return ncat - 1 - c
		}
		return c
	}
	if catAx.MajorGridlines {
		for c := 0; c <= ncat; c++ {
			if horizontal {
				gy := py0 + band*float64(c)
				fmt.Fprintf(sb, `<line x1="%s" y1="%s" x2="%s" y2="%s" %s/>`, trimFloat(px0), trimFloat(gy), trimFloat(px0+pw), trimFloat(gy), grid)
			} else {
				gx := px0 + band*float64(c)
				fmt.Fprintf(sb, `<line x1="%s" y1="%s" x2="%s" y2="%s" %s/>`, trimFloat(gx), trimFloat(py0), trimFloat(gx), trimFloat(py0+ph), grid)
			}
		}
	}
	for c := 0; c < ncat; c++ {
		if c < len(ch.Categories) && !catAx.Hidden {
			at := band * (float64(slot(c)) + 0.5)
			if horizontal {
				txt(px0-fs*0.4, py0+at+fs*0.35, "end", ch.Categories[c], fs, "")
			} else {
				txt(px0+at, py0+ph+fs*1.2, "middle", ch.Categories[c], fs, "")
			}
		}
	}
	if ch.XAxisTitle != "" {
		txt(px0+pw/2, y+h-fs*0.2, "middle", ch.XAxisTitle, fs, "")
	}
	if ch.YAxisTitle != "" {
		txt(x+fs, py0+ph/2, "middle", ch.YAxisTitle, fs, fmt.Sprintf(` transform="rotate(-90 %s %s)"`, trimFloat(x+fs), trimFloat(py0+ph/2)))
	}
	ns := len(ch.Series)
	zero := val(math.Max(tlo, math.Min(0, thi)))
	switch ch.ChartType {
	case scenegraph.ChartLine, scenegraph.ChartArea, scenegraph.ChartScatter:
		base := make([]float64, ncat)
		for si, s := range ch.Series {
			col := b.seriesColor(si, s)
			var pts []string
			for c := 0; c < ncat && c < len(s.Values); c++ {
				v := s.Values[c]
				if math.IsNaN(v) {
					continue
				}
				if stacked {
					v += base[c]
					base[c] = v
				}
				px := px0 + band*(float64(slot(c))+0.5)
				py := py0 + ph - val(v)*ph
				pts = append(pts, trimFloat(px)+","+trimFloat(py))
				if ch.ChartType == scenegraph.ChartScatter || ch.ChartType == scenegraph.ChartLine {
					fmt.Fprintf(sb, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, trimFloat(px), trimFloat(py), trimFloat(fs*0.25), b.pointColor(ch, si, c))
				}
				if ch.DataLabels {
					txt(px, py-fs*0.5, "middle", formatNumber(orig.Series[si].Values[c], s.FormatCode), fs*0.9, "")
				}
			}
			if len(pts) == 0 {
				continue
			}
			switch ch.ChartType {
			case scenegraph.ChartArea:
				first := strings.Split(pts[0], ",")[0]
				last := strings.Split(pts[len(pts)-1], ",")[0]
				zy := trimFloat(py0 + ph - zero*ph)
				fmt.Fprintf(sb, `<polygon points="%s,%s %s %s,%s" fill="%s" fill-opacity="0.7"/>`, first, zy, strings.Join(pts, " "), last, zy, col)
			case scenegraph.ChartLine:
				fmt.Fprintf(sb, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%s"/>`, strings.Join(pts, " "), col, trimFloat(math.Max(1.5, fs/6)))
			}
		}
	default: // BAR, COLUMN
		groupW := band * 0.7
		barW := groupW / float64(ns)
		if stacked {
			barW = groupW
		}
		pos := make([]float64, ncat)
		neg := make([]float64, ncat)
		for si, s := range ch.Series {
			for c := 0; c < ncat && c < len(s.Values); c++ {
				v := s.Values[c]
				if math.IsNaN(v) {
					continue
				}
				v0, v1 := 0.0, v
				off := band*float64(slot(c)) + (band-groupW)/2
				if stacked {
					if v >= 0 {
						v0, v1 = pos[c], pos[c]+v
						pos[c] = v1
					} else {
						v0, v1 = neg[c], neg[c]+v
						neg[c] = v1
					}
				} else if horizontal != catAx.Reversed {
					off += barW * float64(ns-1-si) // the first series nearest the origin
				} else {
					off += barW * float64(si)
				}
				a, bb := val(v0), val(v1)
				if a > bb {
					a, bb = bb, a
				}
				var rx, ry, rw, rh float64
				if horizontal {
					rx, rw = px0+a*pw, (bb-a)*pw
					ry, rh = py0+off, barW
				} else {
					rx, rw = px0+off, barW
					ry, rh = py0+ph-bb*ph, (bb-a)*ph
				}
				fmt.Fprintf(sb, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, trimFloat(rx), trimFloat(ry), trimFloat(rw), trimFloat(rh), b.pointColor(ch, si, c))
				if ch.DataLabels {
					if horizontal {
						txt(rx+rw+fs*0.3, ry+rh/2+fs*0.35, "start", formatNumber(orig.Series[si].Values[c], s.FormatCode), fs*0.9, "")
					} else {
						txt(rx+rw/2, ry-fs*0.3, "middle", formatNumber(orig.Series[si].Values[c], s.FormatCode), fs*0.9, "")
					}
				}
			}
		}
	}
	// Axis lines.
	if horizontal {
		zx := px0 + zero*pw
		fmt.Fprintf(sb, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#808080" stroke-width="1"/>`, trimFloat(zx), trimFloat(py0), trimFloat(zx), trimFloat(py0+ph))
	} else {
		zy := py0 + ph - zero*ph
		fmt.Fprintf(sb, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#808080" stroke-width="1"/>`, trimFloat(px0), trimFloat(zy), trimFloat(px0+pw), trimFloat(zy))
	}
}
