package scenegraph

import "maps"

// Clone returns a deep copy of the deck sharing no memory with d.
// A test walks both with reflection to prove no pointer, slice or map is shared.
func (d *Deck) Clone() *Deck {
	if d == nil {
		return nil
	}
	c := *d
	c.Tokens = d.Tokens.clone()
	c.Slides = cloneNodes(d.Slides)
	c.Assets = maps.Clone(d.Assets)
	if d.Sections != nil {
		c.Sections = make([]Section, len(d.Sections))
		for i, s := range d.Sections {
			c.Sections[i] = Section{Name: s.Name, SlideIDs: cloneSlice(s.SlideIDs)}
		}
	}
	c.Source = clonePtr(d.Source)
	if c.Source != nil {
		c.Source.UnreadablePictures = cloneSlice(d.Source.UnreadablePictures)
	}
	return &c
}

func (t Tokens) clone() Tokens {
	c := t
	c.Colors = maps.Clone(t.Colors)
	if t.TextStyles != nil {
		c.TextStyles = make(map[string]TypeStyle, len(t.TextStyles))
		for k, v := range t.TextStyles {
			c.TextStyles[k] = v.clone()
		}
	}
	c.Variables = maps.Clone(t.Variables)
	return c
}

func cloneNodes(ns []*Node) []*Node {
	if ns == nil {
		return nil
	}
	out := make([]*Node, len(ns))
	for i, n := range ns {
		out[i] = n.Clone()
	}
	return out
}

// Clone returns a deep copy of the subtree rooted at n, ids included.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Visible = clonePtr(n.Visible)
	c.Opacity = clonePtr(n.Opacity)
	if n.Source != nil {
		s := *n.Source
		s.EMU = clonePtr(n.Source.EMU)
		c.Source = &s
	}
	c.Children = cloneNodes(n.Children)
	c.Link = clonePtr(n.Link)
	c.AbsoluteBoundingBox = clonePtr(n.AbsoluteBoundingBox)
	c.Fills = clonePaints(n.Fills)
	c.Strokes = clonePaints(n.Strokes)
	c.StrokeDashes = cloneSlice(n.StrokeDashes)
	if n.Effects != nil {
		c.Effects = make([]Effect, len(n.Effects))
		for i, e := range n.Effects {
			e.Visible = clonePtr(e.Visible)
			e.Color = clonePtr(e.Color)
			e.Offset = clonePtr(e.Offset)
			c.Effects[i] = e
		}
	}
	c.CornerRadii = clonePtr(n.CornerRadii)
	c.Constraints = clonePtr(n.Constraints)
	c.CounterAxisSpacing = clonePtr(n.CounterAxisSpacing)
	c.TextContent = n.TextContent.clone()
	c.Paths = cloneSlice(n.Paths)
	if n.Table != nil {
		t := *n.Table
		t.Columns = cloneSlice(n.Table.Columns)
		t.Rows = cloneSlice(n.Table.Rows)
		c.Table = &t
	}
	if n.Cell != nil {
		cell := *n.Cell
		if n.Cell.Borders != nil {
			b := *n.Cell.Borders
			b.Left, b.Top, b.Right, b.Bottom = clonePtr(b.Left), clonePtr(b.Top), clonePtr(b.Right), clonePtr(b.Bottom)
			cell.Borders = &b
		}
		c.Cell = &cell
	}
	if n.Chart != nil {
		ch := *n.Chart
		ch.Categories = cloneSlice(n.Chart.Categories)
		if n.Chart.Series != nil {
			ch.Series = make([]Series, len(n.Chart.Series))
			for i, s := range n.Chart.Series {
				s.Values = cloneSlice(s.Values)
				s.Color = clonePtr(s.Color)
				ch.Series[i] = s
			}
		}
		ch.Legend = clonePtr(n.Chart.Legend)
		ch.VaryColors = clonePtr(n.Chart.VaryColors)
		ch.CategoryAxis = clonePtr(n.Chart.CategoryAxis)
		ch.ValueAxis = clonePtr(n.Chart.ValueAxis)
		c.Chart = &ch
	}
	if n.Math != nil {
		m := *n.Math
		m.Color = clonePtr(n.Math.Color)
		c.Math = &m
	}
	if n.Connector != nil {
		cn := *n.Connector
		cn.Start.Position = clonePtr(n.Connector.Start.Position)
		cn.End.Position = clonePtr(n.Connector.End.Position)
		c.Connector = &cn
	}
	if n.Slide != nil {
		sp := *n.Slide
		sp.Transition = clonePtr(n.Slide.Transition)
		c.Slide = &sp
	}
	c.Placeholder = clonePtr(n.Placeholder)
	return &c
}

func (t TextContent) clone() TextContent {
	c := t
	if t.Style != nil {
		s := t.Style.clone()
		c.Style = &s
	}
	c.CharacterStyleOverrides = cloneSlice(t.CharacterStyleOverrides)
	if t.StyleOverrideTable != nil {
		c.StyleOverrideTable = make(map[string]TypeStyle, len(t.StyleOverrideTable))
		for k, v := range t.StyleOverrideTable {
			c.StyleOverrideTable[k] = v.clone()
		}
	}
	c.Paragraphs = cloneSlice(t.Paragraphs)
	c.Fields = cloneSlice(t.Fields)
	for i := range c.Paragraphs {
		c.Paragraphs[i].BulletColor = clonePtr(t.Paragraphs[i].BulletColor)
		if tc := t.Paragraphs[i].BulletThemeColor; tc != nil {
			cp := *tc
			cp.Mods = cloneSlice(tc.Mods)
			c.Paragraphs[i].BulletThemeColor = &cp
		}
	}
	if t.TextBox != nil {
		b := *t.TextBox
		b.Insets = clonePtr(t.TextBox.Insets)
		c.TextBox = &b
	}
	return c
}

func (s TypeStyle) clone() TypeStyle {
	c := s
	c.Italic = clonePtr(s.Italic)
	c.LetterSpacing = clonePtr(s.LetterSpacing)
	c.Fills = clonePaints(s.Fills)
	c.Link = clonePtr(s.Link)
	return c
}

func clonePaints(ps []Paint) []Paint {
	if ps == nil {
		return nil
	}
	out := make([]Paint, len(ps))
	for i, p := range ps {
		p.Visible = clonePtr(p.Visible)
		p.Opacity = clonePtr(p.Opacity)
		p.Color = clonePtr(p.Color)
		if p.ThemeColor != nil {
			tc := *p.ThemeColor
			tc.Mods = cloneSlice(tc.Mods)
			p.ThemeColor = &tc
		}
		p.GradientStops = cloneSlice(p.GradientStops)
		p.Crop = clonePtr(p.Crop)
		out[i] = p
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneSlice[S ~[]E, E any](s S) S {
	if s == nil {
		return nil
	}
	return append(S(make([]E, 0, len(s))), s...)
}
