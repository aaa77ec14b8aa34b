package tools

import (
	"fmt"
	"math"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// thousandCommands builds 1,000 realistic edits spread over a deck: text,
// fonts, fills, moves, auto-layout changes, clones into card rows, new
// text boxes, table cells and chart data.
func thousandCommands(d *sg.Deck) []Call {
	var calls []Call
	k := 0
	for len(calls) < 1000 {
		s := d.Slides[k%len(d.Slides)]
		k++
		for _, n := range s.Children {
			if len(calls) >= 1000 {
				break
			}
			switch {
			case n.Type == sg.TypeText && n.Name == "Title":
				calls = append(calls,
					call("set_text_font", map[string]any{"nodeId": n.ID, "fontFamily": "Inter", "fontSize": 36}),
					call("set_text_color", map[string]any{"nodeId": n.ID, "themeColor": "accent1"}))
			case n.Type == sg.TypeText:
				calls = append(calls,
					call("set_text_range_style", map[string]any{"nodeId": n.ID, "start": 0, "end": 3, "fontWeight": 700}),
					call("move_node", map[string]any{"nodeId": n.ID, "x": 2, "y": 0, "relative": true}))
			case n.Name == "Card Row":
				calls = append(calls,
					call("clone_node", map[string]any{"nodeId": n.Children[0].ID}),
					call("set_item_spacing", map[string]any{"nodeId": n.ID, "itemSpacing": 16}),
					call("set_fill_color", map[string]any{"nodeId": n.Children[0].ID, "color": "#EEF2F7"}))
			case n.Type == sg.TypeTable:
				calls = append(calls,
					call("set_table_cells", map[string]any{"tableId": n.ID, "cells": []any{map[string]any{"row": 1, "column": 1, "text": "42", "bold": true}}}),
					call("sort_table_rows", map[string]any{"tableId": n.ID, "column": 1}))
			case n.Type == sg.TypeChart:
				calls = append(calls, call("set_chart_legend", map[string]any{"chartId": n.ID, "position": "TOP"}))
			case n.Type == sg.TypeImage:
				calls = append(calls, call("set_corner_radius", map[string]any{"nodeId": n.ID, "radius": 8}))
			}
		}
		calls = append(calls, call("create_text", map[string]any{"parentId": s.ID, "x": 64, "y": 660, "width": 600, "text": fmt.Sprintf("Note %d", k), "fontSize": 14}))
	}
	return calls[:1000]
}

// BenchmarkApply1000CommandBatchOn100SlideDeck measures one atomic batch of
// 1,000 commands on a generated 100-slide deck (ACE issue 4, make bench).
// Reports commands/s.
func BenchmarkApply1000CommandBatchOn100SlideDeck(b *testing.B) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 100, Seed: 1})
	calls := thousandCommands(d)
	o := Options{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Apply(d, calls, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(calls)*b.N)/b.Elapsed().Seconds(), "commands/s")
}

// BenchmarkBatchExecute1000Commands is the same batch sent as one
// batch_execute tool call, the way the agent sends it.
func BenchmarkBatchExecute1000Commands(b *testing.B) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 100, Seed: 1})
	calls := []Call{call("batch_execute", map[string]any{"operations": toOps(thousandCommands(d))})}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Apply(d, calls, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "commands/s")
}

// tableToChartSemantic is the semantic path: one command.
func tableToChartSemantic(tb *sg.Node) []Call {
	return []Call{call("create_data_chart", map[string]any{"tableId": tb.ID, "chartType": "COLUMN", "legend": "BOTTOM", "replaceTable": true, "title": "Results"})}
}

// tableToChartPrimitives draws the same chart with primitive tools only
// (frame, rectangles, texts), the way an agent without semantic tools must:
// read the table, delete it, and place every bar, label and legend entry
// with computed coordinates.
func tableToChartPrimitives(d *sg.Deck, tb *sg.Node) []Call {
	cats, series, _, _ := tableData(tb, false)
	parent := sg.NewIndex(d).Parent(tb.ID)
	W, H := tb.Size.X, math.Max(tb.Size.Y, 240)
	calls := []Call{
		call("delete_node", map[string]any{"nodeId": tb.ID}),
		{Tool: "create_frame", Args: js(map[string]any{"parentId": parent.ID, "x": tb.Transform.X(), "y": tb.Transform.Y(), "width": W, "height": H, "name": "Chart"}), As: "chart"},
		call("create_text", map[string]any{"parentId": "$chart", "x": 0, "y": 0, "width": W, "text": "Results", "fontSize": 20}),
	}
	maxV := 0.0
	for _, s := range series {
		for _, v := range s.Values {
			maxV = math.Max(maxV, v)
		}
	}
	palette := defaultPalette(d)
	plotTop, plotH := 32.0, H-32-24-28
	slot := W / float64(len(cats))
	bw := slot * 0.7 / float64(len(series))
	for ci, c := range cats {
		for si, s := range series {
			h := math.Max(0, s.Values[ci]) / math.Max(maxV, 1) * plotH
			calls = append(calls, call("create_rectangle", map[string]any{"parentId": "$chart",
				"x": float64(ci)*slot + slot*0.15 + float64(si)*bw, "y": plotTop + plotH - h, "width": bw, "height": h,
				"fill": map[string]any{"color": palette[si%len(palette)].Hex()}, "name": c + " " + s.Name}))
		}
		calls = append(calls, call("create_text", map[string]any{"parentId": "$chart", "x": float64(ci) * slot, "y": plotTop + plotH + 4, "width": slot, "text": c, "fontSize": 12, "textAlignHorizontal": "CENTER"}))
	}
	for si, s := range series {
		x := float64(si) * 140
		calls = append(calls,
			call("create_rectangle", map[string]any{"parentId": "$chart", "x": x, "y": H - 20, "width": 12, "height": 12, "fill": map[string]any{"color": palette[si%len(palette)].Hex()}}),
			call("create_text", map[string]any{"parentId": "$chart", "x": x + 18, "y": H - 24, "width": 110, "text": s.Name, "fontSize": 12}))
	}
	return calls
}

// TestTableToChartSemanticVersusPrimitives runs both paths on a generated
// deck's table and checks each yields the chart's content; the semantic
// tool needs one command where primitives need dozens (ACE §3.1: 22 vs 66
// operations).
func TestTableToChartSemanticVersusPrimitives(t *testing.T) {
	d := fixture(t)
	tb := named(t, d, 4, "Results Table")
	cats, series, _, _ := tableData(tb, false)
	sem := tableToChartSemantic(tb)
	out, res := apply(t, d, Options{}, sem...)
	ch := nodeIn(t, out, res[0].Created[0]).Chart
	if len(ch.Categories) != len(cats) || len(ch.Series) != len(series) || ch.Legend == nil {
		t.Fatalf("semantic chart %+v", ch)
	}
	prim := tableToChartPrimitives(d, tb)
	out2, _ := apply(t, d, Options{}, prim...)
	frame := out2.Slides[4].Find(func(n *sg.Node) bool { return n.Name == "Chart" && n.Type == sg.TypeFrame })
	bars := 0
	for _, c := range frame.Children {
		if c.Type == sg.TypeRectangle && c.Size.X > 12 {
			bars++
		}
	}
	if bars != len(cats)*len(series) {
		t.Errorf("primitive chart has %d bars, want %d", bars, len(cats)*len(series))
	}
	t.Logf("table to chart: %d command(s) with create_data_chart, %d with primitives (%.1fx)", len(sem), len(prim), float64(len(prim))/float64(len(sem)))
	if len(prim) < 10*len(sem) {
		t.Errorf("primitives took only %d commands", len(prim))
	}
}

// BenchmarkTableToChart reports the command counts of both paths (metric
// "commands") and their apply time.
func BenchmarkTableToChart(b *testing.B) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 13, Seed: 7})
	tb := named(b, d, 4, "Results Table")
	for _, path := range []struct {
		name  string
		calls []Call
	}{{"semantic", tableToChartSemantic(tb)}, {"primitives", tableToChartPrimitives(d, tb)}} {
		b.Run(path.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := Apply(d, path.calls, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(path.calls)), "commands")
		})
	}
}
