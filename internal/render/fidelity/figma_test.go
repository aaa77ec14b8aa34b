package fidelity

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/formats/figma"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// The Figma auto-layout sample carries Figma's own absoluteBoundingBox for
// every node: our flexbox layout must put each node where Figma did.
// Tolerance 1 px. Text widths depend on the face (the file's Suisse Int'l
// is not installed), so x and width are compared only where no hugging
// text decides them; text heights are compared where the line height is
// fixed in px and Figma did not trim the leading (leadingTrim shows as a
// box shorter than one line).
func TestFigmaAutoLayoutMatchesFigmaGeometry(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(decksDir(t), "..", "figma", "nodes-response-autolayout.json"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := figma.Import(data)
	if err != nil {
		t.Fatal(err)
	}
	pool := newPool(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := pool.Render(ctx, d, nil, render.Request{})
	if err != nil {
		t.Fatal(err)
	}
	s := d.Slides[0]
	root := s.AbsoluteBoundingBox
	if root == nil {
		t.Fatal("the Figma import lost absoluteBoundingBox")
	}
	// widthFromText: the node's width follows hugging text somewhere below.
	var widthFromText func(n *scenegraph.Node) bool
	widthFromText = func(n *scenegraph.Node) bool {
		if n.Type == scenegraph.TypeText {
			return n.LayoutSizingHorizontal == scenegraph.SizingHug || n.TextBox != nil && n.TextBox.AutoResize == scenegraph.AutoResizeBoth
		}
		if n.LayoutSizingHorizontal != scenegraph.SizingHug {
			return false
		}
		for _, c := range n.Children {
			if widthFromText(c) {
				return true
			}
		}
		return false
	}
	// laterSiblingOfText: x depends on a hugging text before it in a row.
	parent := map[string]*scenegraph.Node{}
	s.Walk(func(n, p *scenegraph.Node, _ int) bool {
		if p != nil {
			parent[n.ID] = p
		}
		return true
	})
	xFromText := func(n *scenegraph.Node) bool {
		for c := n; parent[c.ID] != nil; c = parent[c.ID] {
			p := parent[c.ID]
			if p.LayoutMode != scenegraph.LayoutHorizontal {
				continue
			}
			for _, sib := range p.Children {
				if sib == c {
					break
				}
				if widthFromText(sib) {
					return true
				}
			}
			if p.PrimaryAxisAlignItems == scenegraph.AlignCenter || p.PrimaryAxisAlignItems == scenegraph.AlignMax {
				if widthFromText(c) {
					return true
				}
			}
		}
		return false
	}
	checked := 0
	s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
		a := n.AbsoluteBoundingBox
		m, ok := res.Slides[0].Nodes[n.ID]
		if a == nil || !ok {
			return true
		}
		want := scenegraph.Rect{X: a.X - root.X, Y: a.Y - root.Y, Width: a.Width, Height: a.Height}
		got := m.Bounds
		trimmed := n.Type == scenegraph.TypeText && n.Style != nil && n.Style.LineHeightPx > 0 && want.Height < n.Style.LineHeightPx-0.5
		if !trimmed {
			if math.Abs(got.Y-want.Y) > 1 || math.Abs(got.Height-want.Height) > 1 {
				t.Errorf("%s %s: y/height %g/%g, Figma %g/%g", n.Type, n.ID, got.Y, got.Height, want.Y, want.Height)
			}
		}
		if !widthFromText(n) && !xFromText(n) {
			if math.Abs(got.X-want.X) > 1 || math.Abs(got.Width-want.Width) > 1 {
				t.Errorf("%s %s: x/width %g/%g, Figma %g/%g", n.Type, n.ID, got.X, got.Width, want.X, want.Width)
			}
		}
		checked++
		return true
	})
	if checked < 10 {
		t.Fatalf("compared only %d nodes", checked)
	}
}
