package pptx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// pythonPPTXFiles is how many files ../shared/decks/python-pptx holds
// (SOURCES.md there); a file added or lost there fails the suite, so the
// count in its summary stays true.
const pythonPPTXFiles = 55

// suiteEdit is the edit TestPythonPPTXFilesEditedWithoutLoss applies to
// one deck, built from the deck itself: the tool calls and what they
// touch.
type suiteEdit struct {
	calls []tools.Call
	// slides are the slide parts holding a node a call changes; charts the
	// chart parts of the charts recoloured and rewritten.
	slides, charts map[string]bool
	// counts of nodes touched, by kind, for the summary line; frames are
	// graphic frames ACE does not model (SmartArt), which no tool edits and
	// export writes back as they came.
	charts0, tables, texts, shapes, lines, pictures, frames int
}

// Colours of the suite's recolouring: distinct from anything in the files.
const (
	suiteFill   = "#2A9D8F"
	suiteText   = "#5B2A86"
	suiteStroke = "#F26430"
)

// newSuiteEdit recolours every shape's fill and every text, restyles every
// table cell (fill and text colour), recolours every chart and writes its
// data back with the same values, moves every picture by 1 px, recolours
// every connector and line, and duplicates each slide, the copies placed
// after the last original in slide order.
func newSuiteEdit(t *testing.T, d *sg.Deck) *suiteEdit {
	e := &suiteEdit{slides: map[string]bool{}, charts: map[string]bool{}}
	for _, s := range d.Slides {
		add := func(tool string, args map[string]any) {
			e.calls = append(e.calls, call(t, tool, "", args))
			e.slides[s.Source.Part] = true
		}
		// A chart without series (cht-category-access chart3) still gets
		// both calls, which have nothing to change: its part must come
		// back byte-identical.
		chart := func(n *sg.Node, tool string, args map[string]any) {
			e.calls = append(e.calls, call(t, tool, "", args))
			if len(n.Chart.Series) > 0 {
				e.charts[n.Chart.Part] = true
			}
		}
		s.Walk(func(n, _ *sg.Node, _ int) bool {
			switch n.Type {
			case sg.TypeSlide, sg.TypeGroup:
				return true
			case sg.TypeChart:
				if n.Chart == nil {
					t.Fatalf("chart %s has no chart data", n.ID)
				}
				e.charts0++
				chart(n, "set_series_color", map[string]any{"chartId": n.ID, "colors": []string{suiteText, suiteStroke, suiteFill}})
				ser := []map[string]any{}
				for _, se := range n.Chart.Series {
					ser = append(ser, map[string]any{"name": se.Name, "values": se.Values})
				}
				chart(n, "update_chart_data", map[string]any{"chartId": n.ID, "categories": n.Chart.Categories, "series": ser})
			case sg.TypeTable:
				e.tables++
				var cells []map[string]any
				for _, c := range n.Children {
					if c.Cell != nil {
						cells = append(cells, map[string]any{"row": c.Cell.Row, "column": c.Cell.Column, "fill": suiteFill, "textColor": suiteText})
					}
				}
				add("set_table_cells", map[string]any{"tableId": n.ID, "cells": cells})
				return false
			case sg.TypeImage:
				e.pictures++
				add("move_node", map[string]any{"nodeId": n.ID, "x": 1, "y": 0, "relative": true})
			case sg.TypeConnector, sg.TypeLine:
				e.lines++
				add("set_stroke", map[string]any{"nodeId": n.ID, "color": suiteStroke})
			case sg.TypeText:
				e.texts++
				add("set_text_color", map[string]any{"nodeId": n.ID, "color": suiteText})
			case sg.TypeRectangle, sg.TypeEllipse, sg.TypeVector:
				e.shapes++
				add("set_fill_color", map[string]any{"nodeId": n.ID, "color": suiteFill})
				if n.Characters != "" {
					e.texts++
					add("set_text_color", map[string]any{"nodeId": n.ID, "color": suiteText})
				}
			case sg.TypeFrame:
				e.frames++
			default:
				t.Fatalf("slide %s: node %s of type %s: the suite does not know how to touch it", s.Source.Part, n.ID, n.Type)
			}
			return false
		})
	}
	for i, s := range d.Slides {
		e.calls = append(e.calls, call(t, "duplicate_slide", "", map[string]any{"slideId": s.ID, "index": len(d.Slides) + i}))
	}
	return e
}

// mayChange reports whether the edit may rewrite part p of the original
// package, which is what "touched" means here: the slide parts holding a
// node a call changed, the chart parts recoloured and rewritten, and, when
// slides were added, the parts that list slides (ppt/presentation.xml,
// its relationships, [Content_Types].xml and docProps/app.xml with its
// slide count). No relationships part of a slide or chart may change (the
// edit adds no relationship to an existing part), and everything else,
// masters, layouts, theme, media, notes, workbooks (written back with the
// same values), chart styles and colours, core properties, must come back
// byte-identical. New parts (the copies' slides, notes, charts,
// workbooks, diagrams) are not the original's and may be anything the
// other checks accept.
func (e *suiteEdit) mayChange(p string, slides int) bool {
	if slides > 0 {
		switch p {
		case "[Content_Types].xml", "ppt/presentation.xml", "ppt/_rels/presentation.xml.rels", "docProps/app.xml":
			return true
		}
	}
	return e.slides[p] || e.charts[p]
}

var suiteFld = regexp.MustCompile(`<a:fld\b[^>]*\btype="([^"]*)"`)

// fieldTypes counts a part's a:fld elements by type ("slidenum": 1).
func fieldTypes(b []byte) map[string]int {
	out := map[string]int{}
	for _, m := range suiteFld.FindAllSubmatch(b, -1) {
		out[string(m[1])]++
	}
	return out
}

// seriesNames lists the cached series names of a chart part.
func seriesNames(t *testing.T, b []byte) []string {
	var out []string
	for _, s := range partSeries(t, b) {
		out = append(out, s.cachedName())
	}
	return out
}

// TestPythonPPTXFilesEditedWithoutLoss runs one edit over each of the 55
// PowerPoint-made files of python-pptx (../shared/decks/python-pptx, MIT;
// issue 16's first acceptance item): import; through the tools, recolour
// every shape fill and text, restyle every table cell, recolour every chart
// and write its data back unchanged, move every picture 1 px, duplicate
// each slide; export. The export must re-import with twice the slides,
// convert to PDF in LibreOffice with one page per slide, keep every
// chart's number formats, cached series names and a workbook that opens
// as an .xlsx holding the chart's values (originals and copies), keep
// every a:fld by type on each slide and its copy, leave every part the
// edit did not touch (suiteEdit.mayChange) byte-identical, and read back
// as the deck exported, node for node (sameDeck). A summary line per file
// (go test -v) counts what the edit touched and the parts kept, changed
// and added.
//
// The nine files without a slide (default, lyt-shapes, minimal,
// mst-placeholders, mst-shapes, mst-slide-layouts, no-slides,
// prs-properties, prs-slide-masters: templates and masters, their
// p:sldIdLst empty) are not skipped: the edit has nothing to touch, so
// every part must come back byte-identical and LibreOffice must still
// open the file. Graphic frames ACE does not model (the SmartArt of
// ph-populated-placeholders and shp-shapes) are left alone by the edit,
// as no tool can change them, and counted in the summary.
func TestPythonPPTXFilesEditedWithoutLoss(t *testing.T) {
	files := shareddecks.PythonPPTX(t, "*.pptx")
	if len(files) != pythonPPTXFiles {
		t.Fatalf("%d python-pptx files, want %d (see ../shared/decks/SOURCES.md)", len(files), pythonPPTXFiles)
	}
	exported := map[string][]byte{}
	wantPages := map[string]int{}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".pptx"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, blobs, err := Import(data, name)
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			e := newSuiteEdit(t, d)
			ed, _, err := tools.Apply(d, e.calls, tools.Options{})
			if err != nil {
				t.Fatalf("edit: %v", err)
			}
			out, warns, err := ExportDetailed(ed, blobs)
			if err != nil {
				t.Fatalf("export: %v", err)
			}
			for _, w := range warns {
				t.Errorf("export warned: %s", w)
			}
			back, _, err := Import(out, name)
			if err != nil {
				t.Fatalf("the export does not import: %v", err)
			}
			n := len(d.Slides)
			if len(back.Slides) != 2*n {
				t.Fatalf("%d slides after duplicating %d", len(back.Slides), n)
			}
			sameDeck(t, ed, back)
			orig, got := zipParts(t, data), zipParts(t, out)
			changed, kept := 0, 0
			for _, p := range slices.Sorted(maps.Keys(orig)) {
				g, ok := got[p]
				switch {
				case !ok:
					t.Errorf("part %s lost", p)
				case bytes.Equal(orig[p], g):
					kept++
				case e.mayChange(p, n):
					changed++
				default:
					t.Errorf("part %s changed though the edit did not touch it", p)
				}
			}
			for _, p := range slices.Sorted(maps.Keys(e.slides)) {
				if bytes.Equal(orig[p], got[p]) {
					t.Errorf("%s: the edit did not reach the file", p)
				}
			}
			for _, p := range slices.Sorted(maps.Keys(e.charts)) {
				if bytes.Equal(orig[p], got[p]) {
					t.Errorf("%s: the recolour did not reach the file", p)
				}
			}
			fields := 0
			checked := map[string]bool{}
			for i, s := range d.Slides {
				op := s.Source.Part
				want := fieldTypes(orig[op])
				for _, k := range want {
					fields += k
				}
				for _, bs := range []*sg.Node{back.Slides[i], back.Slides[n+i]} {
					if g := fieldTypes(got[bs.Source.Part]); !maps.Equal(g, want) {
						t.Errorf("%s (from %s): fields %v, the original has %v", bs.Source.Part, op, g, want)
					}
				}
				suiteCharts(t, orig, got, chartParts(s), chartParts(back.Slides[i]), chartParts(back.Slides[n+i]))
				for _, p := range chartParts(s) {
					checked[p] = true
				}
			}
			for p := range orig {
				if strings.HasPrefix(p, "ppt/charts/chart") && strings.HasSuffix(p, ".xml") && !checked[p] {
					t.Errorf("chart part %s is on no slide as a chart: not checked", p)
				}
			}
			t.Logf("%s: %d slides -> %d; %d calls: %d charts, %d tables, %d texts, %d shapes, %d lines, %d pictures (%d unmodelled frames left alone); %d fields; parts %d kept, %d changed, %d new",
				name, n, len(back.Slides), len(e.calls), e.charts0, e.tables, e.texts, e.shapes, e.lines, e.pictures, e.frames, fields, kept, changed, len(got)-len(orig))
			exported[name] = out
			// LibreOffice opens a presentation without slides with one
			// empty slide, so its PDF has one page.
			wantPages[name] = max(2*n, 1)
		})
	}
	if testing.Short() {
		return
	}
	// Two LibreOffice processes at a time (convertToPDF), one page per
	// slide.
	pages := convertToPDF(t, exported)
	for _, name := range slices.Sorted(maps.Keys(exported)) {
		if pages[name] != wantPages[name] {
			t.Errorf("%s: LibreOffice made %d pages of the export, want %d", name, pages[name], wantPages[name])
		}
	}
}

// sameDeck checks that the re-imported deck is the deck exported, node
// for node in tree order: every field the scene graph holds, copies and
// originals alike, apart from what names parts and nodes (ids, sources,
// chart part names; the ids a connector or a slide jump refers to are
// compared through the pairing), and geometry within 0.001 px (EMU are
// integers: 1 EMU is 1/9525 px).
func sameDeck(t *testing.T, want, got *sg.Deck) {
	t.Helper()
	var a, b []*sg.Node
	for _, s := range want.Slides {
		s.Walk(func(n, _ *sg.Node, _ int) bool { a = append(a, n); return true })
	}
	for _, s := range got.Slides {
		s.Walk(func(n, _ *sg.Node, _ int) bool { b = append(b, n); return true })
	}
	if len(a) != len(b) {
		t.Errorf("%d nodes exported, %d read back", len(a), len(b))
		return
	}
	ids := map[string]string{}
	for i := range a {
		ids[a[i].ID] = b[i].ID
	}
	for i := range a {
		var diffs []string
		diffJSON(&diffs, "", nodeView(a[i], ids), nodeView(b[i], nil))
		if len(diffs) > 0 {
			t.Errorf("%s %s %q read back as %s: %s", a[i].Type, a[i].ID, a[i].Name, b[i].ID, strings.Join(diffs, "; "))
		}
	}
}

// nodeView is a node's own fields (no children) as generic JSON, without
// id, source and chart part name, with the ids it refers to mapped
// through ids (nil: as they are).
func nodeView(n *sg.Node, ids map[string]string) any {
	c := *n
	c.ID, c.Source, c.Children = "", nil, nil
	id := func(s string) string {
		if v, ok := ids[s]; ok {
			return v
		}
		return s
	}
	if c.Chart != nil {
		ch := *c.Chart
		ch.Part = ""
		c.Chart = &ch
	}
	if c.Connector != nil {
		cn := *c.Connector
		cn.Start.NodeID, cn.End.NodeID = id(cn.Start.NodeID), id(cn.End.NodeID)
		c.Connector = &cn
	}
	if c.Link != nil {
		l := *c.Link
		l.NodeID = id(l.NodeID)
		c.Link = &l
	}
	b, err := json.Marshal(&c)
	if err != nil {
		return err.Error()
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err.Error()
	}
	return v
}

// diffJSON lists the paths where two generic JSON values differ, numbers
// within 0.001.
func diffJSON(out *[]string, at string, a, b any) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := maps.Clone(x)
		maps.Copy(keys, y)
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			diffJSON(out, at+"."+k, x[k], y[k])
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			break
		}
		for i := range x {
			diffJSON(out, fmt.Sprintf("%s[%d]", at, i), x[i], y[i])
		}
		return
	case float64:
		if y, ok := b.(float64); ok && math.Abs(x-y) <= 1e-3 {
			return
		}
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		*out = append(*out, fmt.Sprintf("%s %s -> %s", at, ja, jb))
	}
}

// suiteCharts checks an original slide's charts (parts in tree order)
// against the same slide's and its copy's charts in the export: number
// formats and cached series names as the original part has them, and a
// workbook that opens with excelize and holds the chart's cached values
// wherever the original chart had one.
func suiteCharts(t *testing.T, orig, got map[string][]byte, was, now, copies []string) {
	t.Helper()
	if len(now) != len(was) || len(copies) != len(was) {
		t.Errorf("charts %v became %v, the copy shows %v", was, now, copies)
		return
	}
	for k, op := range was {
		wantFmt, wantNames := formatCodes(orig[op]), seriesNames(t, orig[op])
		hasBook := chartWorkbook(t, orig, op) != ""
		for _, p := range []string{now[k], copies[k]} {
			if g := formatCodes(got[p]); !slices.Equal(g, wantFmt) {
				t.Errorf("%s (from %s): number formats %v, want %v", p, op, g, wantFmt)
			}
			if g := seriesNames(t, got[p]); !slices.Equal(g, wantNames) {
				t.Errorf("%s (from %s): series names %q, want %q", p, op, g, wantNames)
			}
			if !hasBook {
				continue
			}
			wb := chartWorkbook(t, got, p)
			if wb == "" || got[wb] == nil {
				t.Errorf("%s (from %s): workbook %q missing", p, op, wb)
				continue
			}
			f, err := excelize.OpenReader(bytes.NewReader(got[wb]))
			if err != nil {
				t.Errorf("%s: workbook %s is not an .xlsx: %v", p, wb, err)
				continue
			}
			f.Close()
			checkWorkbookMatches(t, p, got[wb], got[p])
		}
	}
}
