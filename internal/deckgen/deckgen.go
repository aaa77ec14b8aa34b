// Package deckgen builds realistic synthetic decks, deterministically from a
// seed, for tests, benchmarks and the demo: title slides, bullet slides,
// two-column slides, auto-layout card rows, tables, charts and pictures, in a
// fictional company's brand (Northwind Analytics), at any slide count.
//
// The same (slides, seed) always gives the same deck, byte for byte, so
// benchmarks and golden tests are repeatable.
package deckgen

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Brand is the fictional company the generated decks belong to; recipes in
// testdata/recipes rebrand it.
const Brand = "Northwind Analytics"

// Palette is the brand's theme colours (OOXML scheme slot -> colour).
var Palette = map[string]string{
	"dk1": "#1F2933", "lt1": "#FFFFFF", "dk2": "#243B53", "lt2": "#F0F4F8",
	"accent1": "#0B6E4F", "accent2": "#F2A541", "accent3": "#3E7CB1",
	"accent4": "#C94C4C", "accent5": "#6C5B7B", "accent6": "#8FB339",
}

// Options tune Generate.
type Options struct {
	Slides int    // number of slides (>= 1)
	Seed   uint64 // same seed, same deck
	// Width and Height in px; zero means 1280x720 (16:9 PPTX).
	Width, Height float64
}

// Generate returns a deck and the bytes of its pictures.
func Generate(o Options) (*sg.Deck, sg.Blobs) {
	if o.Slides < 1 {
		o.Slides = 1
	}
	if o.Width == 0 {
		o.Width, o.Height = 1280, 720
	}
	g := &gen{rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)), blobs: sg.Blobs{}, w: o.Width, h: o.Height}
	g.d = &sg.Deck{
		ID:     fmt.Sprintf("deck-%d-%d", o.Slides, o.Seed),
		Name:   fmt.Sprintf("%s quarterly review (%d slides)", Brand, o.Slides),
		Width:  o.Width,
		Height: o.Height,
		Tokens: tokens(),
	}
	g.logo = g.d.AddAsset(g.blobs, picture(160, 64, 0, true), "image/png", "northwind-logo.png", 160, 64)
	for k := 0; k < 4; k++ {
		g.photos = append(g.photos, g.d.AddAsset(g.blobs, picture(480, 320, k, false), "image/png", fmt.Sprintf("photo-%d.png", k+1), 480, 320))
	}
	kinds := []func(int) *sg.Node{g.bullets, g.twoColumn, g.cardRow, g.table, g.chart, g.picture}
	for i := 0; i < o.Slides; i++ {
		var s *sg.Node
		switch {
		case i == 0:
			s = g.title(i)
		case i%12 == 0:
			s = g.section(i)
		default:
			s = kinds[(i-1)%len(kinds)](i)
		}
		g.d.Slides = append(g.d.Slides, s)
	}
	return g.d, g.blobs
}

type gen struct {
	rng    *rand.Rand
	d      *sg.Deck
	blobs  sg.Blobs
	w, h   float64
	logo   string
	photos []string
	nodes  int
}

func tokens() sg.Tokens {
	t := sg.Tokens{Colors: map[string]sg.Color{}, Fonts: sg.FontTokens{
		Major: sg.ScriptFonts{Latin: "Liberation Sans", EastAsian: "Noto Sans CJK JP", Complex: "Noto Sans Arabic"},
		Minor: sg.ScriptFonts{Latin: "Liberation Sans", EastAsian: "Noto Sans CJK JP", Complex: "Noto Sans Arabic"},
	}}
	for k, v := range Palette {
		t.Colors[k] = sg.MustHex(v)
	}
	t.TextStyles = map[string]sg.TypeStyle{
		"title": {FontFamily: "Liberation Sans", FontSize: 40, FontWeight: 700},
		"body":  {FontFamily: "Liberation Sans", FontSize: 20, FontWeight: 400},
	}
	return t
}

func (g *gen) id(slide int, kind string) string {
	g.nodes++
	return fmt.Sprintf("s%d-%s%d", slide+1, kind, g.nodes)
}

func themePaint(name string) sg.Paint {
	c := sg.MustHex(Palette[name])
	return sg.Paint{Type: sg.PaintSolid, Color: &c, ThemeColor: &sg.ThemeColor{Name: name}}
}

func (g *gen) slide(i int, layout string) *sg.Node {
	return &sg.Node{
		ID: fmt.Sprintf("slide-%d", i+1), Type: sg.TypeSlide, Name: fmt.Sprintf("Slide %d", i+1),
		Transform: sg.Identity, Size: sg.Vector{X: g.w, Y: g.h},
		Fills: []sg.Paint{themePaint("lt1")},
		Slide: &sg.SlideProps{Layout: layout},
	}
}

func (g *gen) text(slide int, name, chars string, x, y, w, h, size float64, weight int, color string) *sg.Node {
	return &sg.Node{
		ID: g.id(slide, "t"), Type: sg.TypeText, Name: name,
		Transform: sg.Translate(x, y), Size: sg.Vector{X: w, Y: h},
		TextContent: sg.TextContent{
			Characters: chars,
			Style:      &sg.TypeStyle{FontFamily: "Liberation Sans", FontSize: size, FontWeight: weight, Fills: []sg.Paint{themePaint(color)}},
		},
	}
}

func (g *gen) titleText(slide int, chars string) *sg.Node {
	t := g.text(slide, "Title", chars, 64, 40, g.w-128, 72, 40, 700, "dk2")
	t.Placeholder = &sg.Placeholder{Role: "title"}
	return t
}

func (g *gen) title(i int) *sg.Node {
	s := g.slide(i, "Title Slide")
	s.Fills = []sg.Paint{themePaint("dk2")}
	t := g.text(i, "Title", g.pick(deckTitles), 96, 240, g.w-192, 110, 54, 700, "lt1")
	t.Placeholder = &sg.Placeholder{Role: "ctrTitle"}
	sub := g.text(i, "Subtitle", fmt.Sprintf("%s · %s", Brand, g.pick(quarters)), 96, 360, g.w-192, 48, 24, 400, "lt2")
	sub.Placeholder = &sg.Placeholder{Role: "subTitle"}
	logo := g.image(i, "Logo", g.logo, g.w-96-160, 64, 160, 64)
	logo.AltText = Brand + " logo"
	s.Children = []*sg.Node{t, sub, logo}
	return s
}

func (g *gen) section(i int) *sg.Node {
	s := g.slide(i, "Section Header")
	s.Fills = []sg.Paint{themePaint("accent1")}
	t := g.text(i, "Title", g.pick(sections), 96, 280, g.w-192, 90, 48, 700, "lt1")
	t.Placeholder = &sg.Placeholder{Role: "title"}
	s.Children = []*sg.Node{t}
	return s
}

func (g *gen) bullets(i int) *sg.Node {
	s := g.slide(i, "Title and Content")
	n := 3 + g.rng.IntN(3)
	lines := make([]string, n)
	paras := make([]sg.Paragraph, n)
	for k := range lines {
		lines[k] = g.pick(bulletLines)
		paras[k] = sg.Paragraph{ListType: sg.ListUnordered, Bullet: "•", SpaceAfter: 8}
		if k > 0 && g.rng.IntN(4) == 0 {
			paras[k].Level = 1
			paras[k].MarginLeft = 32
		}
	}
	body := g.text(i, "Content", strings.Join(lines, "\n"), 64, 140, g.w-128, g.h-220, 22, 400, "dk1")
	body.Placeholder = &sg.Placeholder{Role: "body", Index: 1}
	body.Paragraphs = paras
	// Highlight one key word in the first line: a style override, as a
	// designer would do.
	if w := strings.Index(lines[0], " "); w > 0 {
		body.CharacterStyleOverrides = make([]int, w)
		for k := range body.CharacterStyleOverrides {
			body.CharacterStyleOverrides[k] = 1
		}
		body.StyleOverrideTable = map[string]sg.TypeStyle{"1": {FontWeight: 700, Fills: []sg.Paint{themePaint("accent1")}}}
	}
	s.Children = []*sg.Node{g.titleText(i, g.pick(slideTitles)), body}
	return s
}

func (g *gen) twoColumn(i int) *sg.Node {
	s := g.slide(i, "Two Content")
	colW := (g.w - 128 - 48) / 2
	left := g.text(i, "Left Column", g.pick(paragraphs), 64, 150, colW, 380, 20, 400, "dk1")
	right := g.text(i, "Right Column", g.pick(paragraphs), 64+colW+48, 150, colW, 380, 20, 400, "dk1")
	left.Placeholder = &sg.Placeholder{Role: "body", Index: 1}
	right.Placeholder = &sg.Placeholder{Role: "body", Index: 2}
	s.Children = []*sg.Node{g.titleText(i, g.pick(slideTitles)), left, right}
	return s
}

// cardRow is an auto-layout row of cards, the case the ACE paper uses to
// show reflow (Case 112: five cards become seven).
func (g *gen) cardRow(i int) *sg.Node {
	s := g.slide(i, "Title Only")
	n := 3 + g.rng.IntN(3)
	row := &sg.Node{
		ID: g.id(i, "row"), Type: sg.TypeFrame, Name: "Card Row",
		Transform: sg.Translate(64, 170), Size: sg.Vector{X: g.w - 128, Y: 300},
		AutoLayout: sg.AutoLayout{
			LayoutMode: sg.LayoutHorizontal, ItemSpacing: 24,
			PaddingLeft: 0, PaddingRight: 0, PaddingTop: 0, PaddingBottom: 0,
			PrimaryAxisAlignItems: sg.AlignMin, CounterAxisAlignItems: sg.AlignMin,
			LayoutSizingHorizontal: sg.SizingFixed, LayoutSizingVertical: sg.SizingFixed,
		},
	}
	cardW := (g.w - 128 - 24*float64(n-1)) / float64(n)
	for k := 0; k < n; k++ {
		card := &sg.Node{
			ID: g.id(i, "card"), Type: sg.TypeFrame, Name: "Card",
			Transform: sg.Translate(float64(k)*(cardW+24), 0), Size: sg.Vector{X: cardW, Y: 300},
			Fills: []sg.Paint{themePaint("lt2")}, CornerRadius: 12,
			AutoLayout: sg.AutoLayout{
				LayoutMode: sg.LayoutVertical, ItemSpacing: 12,
				PaddingLeft: 20, PaddingRight: 20, PaddingTop: 24, PaddingBottom: 24,
				LayoutSizingHorizontal: sg.SizingFill, LayoutSizingVertical: sg.SizingFill,
			},
		}
		metric := g.text(i, "Metric", fmt.Sprintf("%d%%", 5+g.rng.IntN(90)), 20, 24, cardW-40, 56, 40, 700, "accent1")
		metric.LayoutSizingHorizontal = sg.SizingFill
		label := g.text(i, "Label", g.pick(cardLabels), 20, 92, cardW-40, 60, 18, 400, "dk1")
		label.LayoutSizingHorizontal = sg.SizingFill
		card.Children = []*sg.Node{metric, label}
		row.Children = append(row.Children, card)
	}
	s.Children = []*sg.Node{g.titleText(i, g.pick(slideTitles)), row}
	return s
}

func (g *gen) table(i int) *sg.Node {
	s := g.slide(i, "Title Only")
	cols, rows := 4, 5
	colW, rowH := (g.w-128)/float64(cols), 56.0
	tbl := &sg.Node{
		ID: g.id(i, "tbl"), Type: sg.TypeTable, Name: "Results Table",
		Transform: sg.Translate(64, 160), Size: sg.Vector{X: g.w - 128, Y: rowH * float64(rows)},
		Table: &sg.Table{HeaderRow: true, BandedRows: true},
	}
	for c := 0; c < cols; c++ {
		tbl.Table.Columns = append(tbl.Table.Columns, colW)
	}
	header := []string{"Region", "Revenue ($k)", "Growth (%)", "Customers"}
	for r := 0; r < rows; r++ {
		tbl.Table.Rows = append(tbl.Table.Rows, rowH)
		for c := 0; c < cols; c++ {
			var txt string
			switch {
			case r == 0:
				txt = header[c]
			case c == 0:
				txt = regions[(r-1+i)%len(regions)]
			case c == 1:
				txt = fmt.Sprintf("%d", 200+g.rng.IntN(900))
			case c == 2:
				txt = fmt.Sprintf("%.1f", float64(g.rng.IntN(400)-100)/10)
			default:
				txt = fmt.Sprintf("%d", 10+g.rng.IntN(500))
			}
			fill, color, weight := "lt1", "dk1", 400
			if r == 0 {
				fill, color, weight = "accent1", "lt1", 700
			} else if r%2 == 0 {
				fill = "lt2"
			}
			cell := &sg.Node{
				ID: g.id(i, "cell"), Type: sg.TypeTableCell, Name: fmt.Sprintf("Cell %d,%d", r+1, c+1),
				Transform: sg.Translate(float64(c)*colW, float64(r)*rowH), Size: sg.Vector{X: colW, Y: rowH},
				Fills: []sg.Paint{themePaint(fill)},
				Cell:  &sg.Cell{Row: r, Column: c},
				TextContent: sg.TextContent{
					Characters: txt,
					Style:      &sg.TypeStyle{FontFamily: "Liberation Sans", FontSize: 18, FontWeight: weight, Fills: []sg.Paint{themePaint(color)}},
				},
			}
			tbl.Children = append(tbl.Children, cell)
		}
	}
	s.Children = []*sg.Node{g.titleText(i, g.pick(tableTitles)), tbl}
	return s
}

func (g *gen) chart(i int) *sg.Node {
	s := g.slide(i, "Title Only")
	cats := []string{"Q1", "Q2", "Q3", "Q4"}
	ch := &sg.Chart{ChartType: []string{sg.ChartColumn, sg.ChartBar, sg.ChartLine, sg.ChartPie}[i%4], Categories: cats, Legend: &sg.Legend{Position: "BOTTOM"}}
	nSeries := 2
	if ch.ChartType == sg.ChartPie {
		nSeries = 1
	}
	for k := 0; k < nSeries; k++ {
		vals := make([]float64, len(cats))
		for j := range vals {
			vals[j] = float64(50 + g.rng.IntN(150))
		}
		c := sg.MustHex(Palette[[]string{"accent1", "accent2"}[k]])
		ch.Series = append(ch.Series, sg.Series{Name: []string{"Revenue", "Costs"}[k], Values: vals, Color: &c})
	}
	node := &sg.Node{ID: g.id(i, "chart"), Type: sg.TypeChart, Name: "Chart", Transform: sg.Translate(64, 150), Size: sg.Vector{X: g.w - 128, Y: g.h - 210}, Chart: ch}
	s.Children = []*sg.Node{g.titleText(i, g.pick(chartTitles)), node}
	return s
}

func (g *gen) image(slide int, name, ref string, x, y, w, h float64) *sg.Node {
	return &sg.Node{
		ID: g.id(slide, "img"), Type: sg.TypeImage, Name: name,
		Transform: sg.Translate(x, y), Size: sg.Vector{X: w, Y: h},
		Fills: []sg.Paint{{Type: sg.PaintImage, ImageRef: ref, ScaleMode: "FILL"}},
	}
}

func (g *gen) picture(i int) *sg.Node {
	s := g.slide(i, "Picture with Caption")
	img := g.image(i, "Picture", g.photos[i%len(g.photos)], 64, 150, 600, 400)
	img.AltText = "Team workshop photo"
	caption := g.text(i, "Caption", g.pick(paragraphs), 700, 150, g.w-764, 400, 20, 400, "dk1")
	caption.Placeholder = &sg.Placeholder{Role: "body", Index: 1}
	s.Children = []*sg.Node{g.titleText(i, g.pick(slideTitles)), img, caption}
	return s
}

func (g *gen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

// picture draws a deterministic PNG: a diagonal gradient with bands, or a
// two-tone wordmark block for the logo.
func picture(w, h, variant int, logo bool) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	base := []color.NRGBA{{11, 110, 79, 255}, {62, 124, 177, 255}, {242, 165, 65, 255}, {108, 91, 123, 255}}[variant%4]
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			t := float64(x+y) / float64(w+h)
			c := color.NRGBA{uint8(float64(base.R) * (0.6 + 0.4*t)), uint8(float64(base.G) * (0.6 + 0.4*t)), uint8(float64(base.B) * (0.6 + 0.4*t)), 255}
			if logo {
				c = color.NRGBA{36, 59, 83, 255}
				if x < h {
					c = base
				}
			} else if (x/40+y/40)%5 == 0 {
				c = color.NRGBA{240, 244, 248, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}
