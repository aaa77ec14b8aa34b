package tools

import (
	"fmt"
	"math"
	"slices"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// SmartArt is built from auto-layout frames (ACE issue 4): a root FRAME
// named "SmartArt/<KIND>" whose items are cards (rounded rectangles with
// text) laid out by auto-layout, so adding an item reflows the diagram.
// Kinds: LIST (a column of bulleted cards), PROCESS (a row of cards with
// arrows), CYCLE (cards on a circle joined by connectors) and HIERARCHY
// (a tree: each branch is a column of its card over a row of sub-branches).

const smartArtPrefix = "SmartArt/"

type saItem struct {
	Text     string   `json:"text" minLength:"1"`
	Children []saItem `json:"children,omitempty" desc:"Sub-items (HIERARCHY levels; LIST sub-bullets)."`
}

type createSmartArtArgs struct {
	place
	Kind  string   `json:"kind" enum:"LIST,PROCESS,CYCLE,HIERARCHY"`
	Items []saItem `json:"items" minItems:"1"`
	Color Hex      `json:"color,omitempty" desc:"Card colour; default the deck's accent1."`
}

type addItemArgs struct {
	SmartArtID string `json:"smartArtId"`
	Text       string `json:"text" minLength:"1"`
	Index      *int   `json:"index,omitempty" min:"0" desc:"Position among the top-level items (or among the parent's children); default last."`
	ParentPath []int  `json:"parentPath,omitempty" desc:"HIERARCHY: indices from the root to the item that gets the child, e.g. [0] for the root card, [0,1] for its second child."`
}

type textToSmartArtArgs struct {
	NodeID string `json:"nodeId" desc:"TEXT node whose paragraphs become the items (indent level 1+ become sub-items)."`
	Kind   string `json:"kind" enum:"LIST,PROCESS,CYCLE,HIERARCHY"`
	Color  Hex    `json:"color,omitempty"`
}

type saLayoutArgs struct {
	SmartArtID string `json:"smartArtId"`
	Kind       string `json:"kind" enum:"LIST,PROCESS,CYCLE,HIERARCHY"`
}

func smartArtKind(n *sg.Node) (string, bool) {
	k, ok := strings.CutPrefix(n.Name, smartArtPrefix)
	return k, ok && n.Type == sg.TypeFrame
}

func (e *Env) smartArt(id string) (*sg.Node, string, error) {
	n, err := e.node(id)
	if err != nil {
		return nil, "", err
	}
	k, ok := smartArtKind(n)
	if !ok {
		return nil, "", fmt.Errorf("node %q is not a SmartArt diagram (a FRAME named %s<KIND> made by create_smartart)", id, smartArtPrefix)
	}
	return n, k, nil
}

// readItems recovers the item tree from a diagram built by buildSmartArt.
func readItems(root *sg.Node, kind string) []saItem {
	var cardText func(n *sg.Node) string
	cardText = func(n *sg.Node) string {
		if n.Name == "Card" {
			return n.Characters
		}
		for _, c := range n.Children {
			if t := cardText(c); t != "" {
				return t
			}
		}
		return ""
	}
	var branch func(n *sg.Node) saItem
	branch = func(n *sg.Node) saItem {
		it := saItem{}
		for _, c := range n.Children {
			switch c.Name {
			case "Card":
				it.Text = c.Characters
			case "Children":
				for _, b := range c.Children {
					if b.Name == "Branch" {
						it.Children = append(it.Children, branch(b))
					}
				}
			}
		}
		return it
	}
	var items []saItem
	for _, c := range root.Children {
		switch {
		case c.Name == "Branch":
			items = append(items, branch(c))
		case c.Name == "Item":
			it := saItem{Text: cardText(c)}
			for _, s := range c.Children {
				if s.Name == "Sub" {
					for _, t := range s.Children {
						it.Children = append(it.Children, saItem{Text: strings.TrimPrefix(t.Characters, "• ")})
					}
				}
			}
			items = append(items, it)
		case c.Name == "Card":
			items = append(items, saItem{Text: c.Characters})
		}
	}
	return items
}

// buildSmartArt fills root (a FRAME with its size set) with the diagram.
func (e *Env) buildSmartArt(root *sg.Node, kind string, items []saItem, col sg.Color) []string {
	var created []string
	for _, c := range slices.Clone(root.Children) {
		e.detach(c)
	}
	root.Children = nil
	root.Name = smartArtPrefix + kind
	root.LayoutMode, root.ItemSpacing = "", 0
	root.PrimaryAxisAlignItems, root.CounterAxisAlignItems = "", ""
	root.PaddingLeft, root.PaddingRight, root.PaddingTop, root.PaddingBottom = 0, 0, 0, 0
	fg := sg.MustHex("#FFFFFF")
	if contrast(fg, col) < 3 {
		fg = sg.MustHex("#000000")
	}
	add := func(parent, n *sg.Node) { e.insert(parent, n, -1); created = append(created, n.ID) }
	card := func(text string, w, h float64) *sg.Node {
		c := e.newNode(sg.TypeRectangle, "Card")
		c.Preset = "roundRect"
		c.CornerRadius = 8
		c.Fills = []sg.Paint{sg.Solid(col)}
		c.Characters = text
		c.Style = &sg.TypeStyle{FontSize: 18, TextAlignHorizontal: sg.AlignCenter, TextAlignVertical: sg.AlignCenter, Fills: []sg.Paint{sg.Solid(fg)}}
		if f := e.Deck.Tokens.Fonts.Minor.Latin; f != "" {
			setFamily(c.Style, f, text, nil)
		}
		c.Size = sg.Vector{X: round2(w), Y: round2(h)}
		return c
	}
	W, H := root.Size.X, root.Size.Y
	k := float64(max(len(items), 1))
	switch kind {
	case "LIST":
		root.LayoutMode, root.ItemSpacing = sg.LayoutVertical, 12
		for _, it := range items {
			row := e.newNode(sg.TypeFrame, "Item")
			row.LayoutMode, row.ItemSpacing = sg.LayoutVertical, 4
			row.LayoutSizingHorizontal, row.LayoutSizingVertical = sg.SizingFill, sg.SizingHug
			add(root, row)
			c := card(it.Text, W, math.Max(40, (H-12*(k-1))/k))
			c.Style.TextAlignHorizontal = sg.AlignLeft
			c.TextBox = &sg.TextBox{Insets: &sg.Insets{Left: 16, Right: 16, Top: 8, Bottom: 8}}
			c.LayoutSizingHorizontal = sg.SizingFill
			if len(it.Children) > 0 {
				c.Size.Y = 40
			}
			add(row, c)
			if len(it.Children) > 0 {
				sub := e.newNode(sg.TypeFrame, "Sub")
				sub.LayoutMode, sub.ItemSpacing, sub.PaddingLeft = sg.LayoutVertical, 2, 24
				sub.LayoutSizingHorizontal, sub.LayoutSizingVertical = sg.SizingFill, sg.SizingHug
				add(row, sub)
				for _, ch := range it.Children {
					t := e.newNode(sg.TypeText, firstWords(ch.Text))
					t.Characters = "• " + ch.Text
					t.Style = &sg.TypeStyle{FontSize: 16}
					t.LayoutSizingHorizontal, t.LayoutSizingVertical = sg.SizingFill, sg.SizingHug
					t.Size.X = W - 24
					add(sub, t)
				}
			}
		}
	case "PROCESS":
		root.LayoutMode, root.ItemSpacing, root.CounterAxisAlignItems = sg.LayoutHorizontal, 8, sg.AlignCenter
		for i, it := range items {
			if i > 0 {
				a := e.newNode(sg.TypeVector, "Arrow")
				a.Size = sg.Vector{X: 24, Y: 24}
				a.Paths = []sg.VectorPath{{Path: "M0 6 L14 6 L14 0 L24 12 L14 24 L14 18 L0 18 Z"}}
				a.Fills = []sg.Paint{sg.Solid(sg.MustHex("#A6A6A6"))}
				add(root, a)
			}
			c := card(it.Text, (W-32*(k-1))/k, math.Min(H, 120))
			c.LayoutSizingHorizontal = sg.SizingFill
			add(root, c)
		}
	case "CYCLE":
		r := math.Min(W, H)/2 - 50
		cx, cy := W/2, H/2
		var cards []*sg.Node
		for i, it := range items {
			ang := -math.Pi/2 + 2*math.Pi*float64(i)/k
			c := card(it.Text, 120, 64)
			c.Preset, c.Type = "ellipse", sg.TypeEllipse
			c.Transform = sg.Translate(round2(cx+r*math.Cos(ang)-60), round2(cy+r*math.Sin(ang)-32))
			add(root, c)
			cards = append(cards, c)
		}
		for i := range cards {
			if len(cards) < 2 {
				break
			}
			a, b := cards[i], cards[(i+1)%len(cards)]
			ln := e.newNode(sg.TypeConnector, "Arrow")
			ln.Connector = &sg.Connector{Start: sg.Endpoint{NodeID: a.ID, Magnet: "AUTO"}, End: sg.Endpoint{NodeID: b.ID, Magnet: "AUTO"}, LineType: "CURVED", EndCap: "ARROW_LINES"}
			ba, bb := a.Transform.Bounds(a.Size), b.Transform.Bounds(b.Size)
			u := ba.Union(bb)
			ln.Transform, ln.Size = sg.Translate(u.X, u.Y), sg.Vector{X: u.Width, Y: u.Height}
			ln.Strokes, ln.StrokeWeight = []sg.Paint{sg.Solid(sg.MustHex("#A6A6A6"))}, 2
			add(root, ln)
		}
	case "HIERARCHY":
		root.LayoutMode, root.ItemSpacing, root.PrimaryAxisAlignItems = sg.LayoutHorizontal, 24, sg.AlignCenter
		depth := 1
		var measureDepth func(its []saItem, d int)
		measureDepth = func(its []saItem, d int) {
			for _, it := range its {
				depth = max(depth, d)
				measureDepth(it.Children, d+1)
			}
		}
		measureDepth(items, 1)
		ch := math.Min(64, (H-24*float64(depth-1))/float64(depth))
		var branch func(parent *sg.Node, it saItem)
		branch = func(parent *sg.Node, it saItem) {
			b := e.newNode(sg.TypeFrame, "Branch")
			b.LayoutMode, b.ItemSpacing, b.CounterAxisAlignItems = sg.LayoutVertical, 24, sg.AlignCenter
			b.LayoutSizingHorizontal, b.LayoutSizingVertical = sg.SizingHug, sg.SizingHug
			add(parent, b)
			add(b, card(it.Text, 140, ch))
			if len(it.Children) > 0 {
				row := e.newNode(sg.TypeFrame, "Children")
				row.LayoutMode, row.ItemSpacing = sg.LayoutHorizontal, 16
				row.LayoutSizingHorizontal, row.LayoutSizingVertical = sg.SizingHug, sg.SizingHug
				add(b, row)
				for _, c := range it.Children {
					branch(row, c)
				}
			}
		}
		for _, it := range items {
			branch(root, it)
		}
	}
	return created
}

func itemsFromText(n *sg.Node) []saItem {
	var items []saItem
	for i, line := range strings.Split(n.Characters, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(line, "•-*–·"))
		if line == "" {
			continue
		}
		lvl := 0
		if i < len(n.Paragraphs) {
			lvl = n.Paragraphs[i].Level
		}
		if lvl > 0 && len(items) > 0 {
			p := &items[len(items)-1]
			p.Children = append(p.Children, saItem{Text: line})
			continue
		}
		items = append(items, saItem{Text: line})
	}
	return items
}

func (e *Env) smartArtColor(h Hex, root *sg.Node) (sg.Color, error) {
	if h != "" {
		return color(h, nil)
	}
	if root != nil {
		var found *sg.Color
		root.Walk(func(n, _ *sg.Node, _ int) bool {
			if found == nil && n.Name == "Card" {
				if c, ok := firstSolid(n.Fills); ok {
					found = &c
				}
			}
			return found == nil
		})
		if found != nil {
			return *found, nil
		}
	}
	return defaultPalette(e.Deck)[0], nil
}

func smartArtTools() []Tool {
	return []Tool{
		def(ModuleSmartArt, "create_smartart", false,
			"Create a SmartArt-style diagram from a list of items in one call: LIST (stacked cards, sub-items as bullets), PROCESS (a row of steps with arrows), CYCLE (steps on a circle joined by arrows) or HIERARCHY (an org-chart tree from nested children). It is built from auto-layout frames, so items reflow when added (add_smartart_item) and the kind can be switched (set_smartart_layout).",
			func(e *Env, a *createSmartArtArgs) (Result, error) {
				col, err := e.smartArtColor(a.Color, nil)
				if err != nil {
					return Result{}, err
				}
				root := e.newNode(sg.TypeFrame, smartArtPrefix+a.Kind)
				if _, err := e.put(a.place, root, 800, 360); err != nil {
					return Result{}, err
				}
				ids := e.buildSmartArt(root, a.Kind, a.Items, col)
				return Result{Created: append([]string{root.ID}, ids...)}, nil
			}),
		def(ModuleSmartArt, "add_smartart_item", false,
			"Add an item to a SmartArt diagram at a position (or under an item of a HIERARCHY via parentPath); the diagram is rebuilt with the same kind and colour and reflows to fit.",
			func(e *Env, a *addItemArgs) (Result, error) {
				root, kind, err := e.smartArt(a.SmartArtID)
				if err != nil {
					return Result{}, err
				}
				items := readItems(root, kind)
				list := &items
				for depth, i := range a.ParentPath {
					if i < 0 || i >= len(*list) {
						return Result{}, fmt.Errorf("parentPath[%d] = %d: that level has %d items", depth, i, len(*list))
					}
					list = &(*list)[i].Children
				}
				at := len(*list)
				if a.Index != nil {
					at = min(*a.Index, len(*list))
				}
				*list = append((*list)[:at], append([]saItem{{Text: a.Text}}, (*list)[at:]...)...)
				col, _ := e.smartArtColor("", root)
				ids := e.buildSmartArt(root, kind, items, col)
				return Result{Created: ids, Changed: []string{root.ID}}, nil
			}),
		def(ModuleSmartArt, "text_to_smartart", false,
			"Convert a text box's paragraphs (bullets) into a SmartArt diagram of the chosen kind at the same place; indented paragraphs become sub-items. The text box is removed.",
			func(e *Env, a *textToSmartArtArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				items := itemsFromText(n)
				if len(items) == 0 {
					return Result{}, fmt.Errorf("node %q has no text to turn into items", a.NodeID)
				}
				col, err := e.smartArtColor(a.Color, nil)
				if err != nil {
					return Result{}, err
				}
				parent := e.parent(n)
				root := e.newNode(sg.TypeFrame, smartArtPrefix+a.Kind)
				root.Transform, root.Size = n.Transform, n.Size
				if root.Size.Y < 200 {
					root.Size.Y = 200
				}
				at := indexOf(parent.Children, n)
				deleted := e.deleteWithConnectors(n)
				e.insert(parent, root, at)
				ids := e.buildSmartArt(root, a.Kind, items, col)
				return Result{Created: append([]string{root.ID}, ids...), Deleted: deleted, Changed: []string{parent.ID}}, nil
			}),
		def(ModuleSmartArt, "set_smartart_layout", false,
			"Switch a SmartArt diagram to another kind (LIST, PROCESS, CYCLE, HIERARCHY) keeping its items and colour.",
			func(e *Env, a *saLayoutArgs) (Result, error) {
				root, kind, err := e.smartArt(a.SmartArtID)
				if err != nil {
					return Result{}, err
				}
				items := readItems(root, kind)
				col, _ := e.smartArtColor("", root)
				ids := e.buildSmartArt(root, a.Kind, items, col)
				return Result{Created: ids, Changed: []string{root.ID}}, nil
			}),
	}
}

func indexOf(ns []*sg.Node, n *sg.Node) int {
	for i, c := range ns {
		if c == n {
			return i
		}
	}
	return -1
}
