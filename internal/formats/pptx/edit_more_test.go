package pptx

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

func tinyPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 8, 6))
	for x := 0; x < 8; x++ {
		for y := 0; y < 6; y++ {
			img.Set(x, y, color.RGBA{uint8(30 * x), uint8(40 * y), 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestMoreEditsRoundTrip covers edits the career-tips test does not: table
// cell text and fill, moves inside and of groups, a rotation, a deleted
// slide, and a new slide with a picture (new media part), a table and a
// chart (new chart part).
func TestMoreEditsRoundTrip(t *testing.T) {
	data := readDeck(t, "table-report.pptx")
	d, blobs, err := Import(data, "table-report.pptx")
	if err != nil {
		t.Fatal(err)
	}
	ns, deleted, ref, rotated := editTableReport(t, d, blobs)
	d.Slides[0].Slide.Notes = "Speaker notes\nwritten by ACE"
	d.Slides[0].Slide.Transition = &sg.Transition{Type: "push", DurationMs: 500, Direction: "u"}

	_ = rotated
	if err := sg.Validate(d); err != nil {
		t.Fatalf("edited deck invalid: %v", err)
	}
	out, warns, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Logf("export warning: %s", w)
	}
	checkPackage(t, out)
	d2, _, err := Import(out, "table-report.edited.pptx")
	if err != nil {
		t.Fatalf("re-import: %v", err)
	}
	if err := sg.Validate(d2); err != nil {
		t.Fatalf("re-import invalid: %v", err)
	}
	if len(d2.Slides) != len(d.Slides) {
		t.Fatalf("%d slides after re-import, want %d", len(d2.Slides), len(d.Slides))
	}
	ix2 := sg.NewIndex(d2)
	if ix2.Has(deleted.ID) {
		t.Errorf("deleted slide %s is back", deleted.ID)
	}
	diff := 0
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n == ns {
			return false
		}
		m := ix2.Node(n.ID)
		if m == nil {
			t.Errorf("node %s missing after re-import", n.ID)
			return true
		}
		// Moved and rotated geometry is quantized to whole EMU (1/9525 px,
		// more inside scaled groups): compare transforms to 1e-3 px.
		for r := 0; r < 2; r++ {
			for c := 0; c < 3; c++ {
				if math.Abs(n.Transform[r][c]-m.Transform[r][c]) > 1e-3 {
					t.Errorf("node %s: transform %v, want %v", n.ID, m.Transform, n.Transform)
				}
			}
		}
		nc, mc := *n, *m
		nc.Transform, mc.Transform = sg.Identity, sg.Identity
		if a, b := stripSource(&nc), stripSource(&mc); a != b {
			diff++
			if diff < 4 {
				t.Errorf("node %s differs:\n edited   %.600s\n reimport %.600s", n.ID, a, b)
			}
		}
		return true
	})
	// The new slide's content.
	s2 := d2.Slides[len(d2.Slides)-1]
	counts := map[sg.NodeType]int{}
	s2.Walk(func(n, _ *sg.Node, _ int) bool { counts[n.Type]++; return true })
	if counts[sg.TypeRectangle] != 1 || counts[sg.TypeImage] != 1 || counts[sg.TypeTable] != 1 || counts[sg.TypeTableCell] != 4 || counts[sg.TypeChart] != 1 {
		t.Errorf("new slide came back with %v", counts)
	}
	if s2.Slide.Layout != d.Slides[0].Slide.Layout {
		t.Errorf("new slide layout %q, want %q", s2.Slide.Layout, d.Slides[0].Slide.Layout)
	}
	img := s2.Find(func(n *sg.Node) bool { return n.Type == sg.TypeImage })
	if img.Fills[0].ImageRef != ref {
		t.Errorf("new picture's asset ref changed: %s", img.Fills[0].ImageRef)
	}
	ch := s2.Find(func(n *sg.Node) bool { return n.Type == sg.TypeChart })
	if jsonOf(ch.Chart.Series) != jsonOf(ns.Children[3].Chart.Series) {
		t.Errorf("chart data came back as %s", jsonOf(ch.Chart))
	}
	if tr := d2.Slides[0].Slide.Transition; tr == nil || tr.Type != "push" || tr.DurationMs != 500 || tr.Direction != "u" {
		t.Errorf("transition after re-import: %+v", tr)
	}
	if got := d2.Slides[0].Slide.Notes; got != "Speaker notes\nwritten by ACE" {
		t.Errorf("notes after re-import: %q", got)
	}
	parts := zipParts(t, out)
	if _, ok := parts[deleted.Source.Part]; ok {
		t.Errorf("deleted slide part %s still in the package", deleted.Source.Part)
	}
}

// editTableReport edits a table cell's text and fill, moves a group and a
// child inside it, rotates a rectangle, deletes slide 2 and appends a new
// slide with a rectangle, a picture (new media), a 2x2 table and a chart.
func editTableReport(t *testing.T, d *sg.Deck, blobs sg.Blobs) (ns, deleted *sg.Node, ref string, rotated *sg.Node) {
	t.Helper()
	ix := sg.NewIndex(d)
	var table, group *sg.Node
	d.Walk(func(n, p *sg.Node, _ int) bool {
		switch {
		case table == nil && n.Type == sg.TypeTable:
			table = n
		case group == nil && n.Type == sg.TypeGroup && len(n.Children) > 1:
			group = n
		case rotated == nil && n.Type == sg.TypeRectangle && n.Transform.Rotation() == 0 && p != group:
			rotated = n
		}
		return true
	})
	if table == nil || group == nil || rotated == nil {
		t.Fatal("table-report lacks a table, a group or a rectangle")
	}
	cell := table.Children[0]
	cell.Characters, cell.CharacterStyleOverrides, cell.StyleOverrideTable = "Cell edited by ACE", nil, nil
	cell.Paragraphs = cell.Paragraphs[:1]
	cell.Fills = []sg.Paint{sg.Solid(sg.MustHex("#FFEB3B"))}
	inner := group.Children[0]
	inner.Transform[0][2] += 10
	group.Transform[1][2] += 20
	rotated.Transform = rotated.Transform.Rotated(30)
	deleted = d.Slides[1]
	d.Slides = append(d.Slides[:1], d.Slides[2:]...)
	pic := tinyPNG(t)
	ref = d.AddAsset(blobs, pic, "image/png", "tiny.png", 8, 6)
	f := false
	ns = &sg.Node{ID: d.NewID(ix), Type: sg.TypeSlide, Transform: sg.Identity, Size: sg.Vector{X: d.Width, Y: d.Height},
		Slide: &sg.SlideProps{Layout: d.Slides[0].Slide.Layout}, Fills: []sg.Paint{sg.Solid(sg.MustHex("#FAFAFA"))}}
	tbl := &sg.Node{ID: d.NewID(ix), Type: sg.TypeTable, Name: "New table", Transform: sg.Translate(40, 300), Size: sg.Vector{X: 400, Y: 80},
		Table: &sg.Table{Columns: []float64{200, 200}, Rows: []float64{40, 40}}}
	for r := 0; r < 2; r++ {
		for c := 0; c < 2; c++ {
			tbl.Children = append(tbl.Children, &sg.Node{ID: d.NewID(ix), Type: sg.TypeTableCell, Transform: sg.Translate(float64(200*c), float64(40*r)),
				Size: sg.Vector{X: 200, Y: 40}, Cell: &sg.Cell{Row: r, Column: c},
				TextContent: sg.TextContent{Characters: string(rune('A' + 2*r + c)), Style: &sg.TypeStyle{FontFamily: "Arial", FontSize: 16, FontWeight: 400, Italic: &f}}})
		}
	}
	ns.Children = []*sg.Node{
		{ID: d.NewID(ix), Type: sg.TypeRectangle, Name: "Band", Transform: sg.Translate(0, 0), Size: sg.Vector{X: d.Width, Y: 60}, Fills: []sg.Paint{sg.Solid(sg.MustHex("#3949AB"))}},
		{ID: d.NewID(ix), Type: sg.TypeImage, Name: "Tiny", Transform: sg.Translate(40, 80), Size: sg.Vector{X: 160, Y: 120}, Fills: []sg.Paint{{Type: sg.PaintImage, ImageRef: ref, ScaleMode: "CROP"}}},
		tbl,
		{ID: d.NewID(ix), Type: sg.TypeChart, Name: "Chart", Transform: sg.Translate(480, 80), Size: sg.Vector{X: 400, Y: 300},
			Chart: &sg.Chart{ChartType: sg.ChartColumn, Categories: []string{"Q1", "Q2", "Q3"}, Series: []sg.Series{{Name: "Revenue", Values: []float64{3, 5, 4}}}}},
	}
	d.Slides = append(d.Slides, ns)
	return ns, deleted, ref, rotated
}

// TestEmptyCellKeepsItsTextColour: python-pptx's tbl-cell.pptx
// (PowerPoint-made) has empty table cells, a paragraph holding only
// a:endParaRPr. set_table_cells gives every cell of its first table a text
// colour; export and import again: the empty cells read back with that
// colour (in a:endParaRPr, where PowerPoint keeps the style of text typed
// there), as the cells with text do.
func TestEmptyCellKeepsItsTextColour(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PythonPPTX(t, "tbl-cell.pptx")[0])
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := Import(data, "tbl-cell.pptx")
	if err != nil {
		t.Fatal(err)
	}
	table := d.Slides[0].Find(func(n *sg.Node) bool { return n.Type == sg.TypeTable })
	if table == nil {
		t.Fatal("no table on slide 1")
	}
	var cells []map[string]any
	empty := 0
	for _, c := range table.Children {
		cells = append(cells, map[string]any{"row": c.Cell.Row, "column": c.Cell.Column, "textColor": "#5B2A86"})
		if c.Characters == "" {
			empty++
		}
	}
	if empty == 0 || empty == len(cells) {
		t.Fatalf("%d of %d cells empty; the test needs both kinds", empty, len(cells))
	}
	ed, _, err := tools.Apply(d, []tools.Call{call(t, "set_table_cells", "", map[string]any{"tableId": table.ID, "cells": cells})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Export(ed, blobs)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := Import(out, "out.pptx")
	if err != nil {
		t.Fatal(err)
	}
	got := back.Slides[0].Find(func(n *sg.Node) bool { return n.Type == sg.TypeTable })
	want := sg.MustHex("#5B2A86")
	for _, c := range got.Children {
		st := c.StyleAt(0)
		if len(st.Fills) != 1 || st.Fills[0].Color == nil || !st.Fills[0].Color.Near(want, 0.002) {
			t.Errorf("cell %d,%d (%q) reads back with text fills %+v, want #5B2A86", c.Cell.Row, c.Cell.Column, c.Characters, st.Fills)
		}
	}
}
