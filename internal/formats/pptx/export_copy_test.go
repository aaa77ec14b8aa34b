package pptx

import (
	"bytes"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// TestDuplicatedSlideIsTheOriginalsXML: python-pptx's shp-shapes.pptx
// (PowerPoint-made) has a slide with a SmartArt diagram, a chart, a
// table, a picture, a connector and a group. duplicate_slide alone, then
// export: the copy's XML is the original's byte for byte but for the
// chart's relationship id; it relates to the same layout and picture, to
// copies of the diagram parts and of the chart (with its workbook), never
// to the original's; the original's parts are untouched.
func TestDuplicatedSlideIsTheOriginalsXML(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PythonPPTX(t, "shp-shapes.pptx")[0])
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := Import(data, "shp-shapes.pptx")
	if err != nil {
		t.Fatal(err)
	}
	orig := d.Slides[0]
	ed, _, err := tools.Apply(d, []tools.Call{call(t, "duplicate_slide", "", map[string]any{"slideId": orig.ID})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, warns, err := ExportDetailed(ed, blobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Errorf("export warned: %s", w)
	}
	back, _, err := Import(out, "out.pptx")
	if err != nil {
		t.Fatal(err)
	}
	op, cp := back.Slides[0].Source.Part, back.Slides[1].Source.Part
	if op != orig.Source.Part || cp == op {
		t.Fatalf("original at %s, copy at %s", op, cp)
	}
	before, after := zipParts(t, data), zipParts(t, out)
	for p, b := range before {
		if !bytes.Equal(after[p], b) && p != "[Content_Types].xml" && p != "ppt/presentation.xml" && p != "ppt/_rels/presentation.xml.rels" && p != "docProps/app.xml" {
			t.Errorf("part %s changed", p)
		}
	}
	pk, err := openPackage(out, "out.pptx", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	orels, _ := pk.relsOf(op)
	crels, _ := pk.relsOf(cp)
	diagrams := 0
	for _, r := range orels {
		if r.Type == relChart {
			continue // under a new id, checked below
		}
		c, ok := relByID(crels, r.ID)
		if !ok || c.Type != r.Type {
			t.Errorf("the copy has no relationship %s of type %s", r.ID, r.Type)
			continue
		}
		switch path.Dir(r.Target) {
		case "ppt/slideLayouts", "ppt/media":
			if c.Target != r.Target {
				t.Errorf("the copy relates to %s instead of %s", c.Target, r.Target)
			}
		case "ppt/diagrams":
			diagrams++
			if c.Target == r.Target || !bytes.Equal(after[c.Target], after[r.Target]) {
				t.Errorf("%s: the copy's part %s is not a copy of it", r.Target, c.Target)
			}
		}
	}
	if diagrams != 5 {
		t.Errorf("%d diagram parts related from both slides, want 5 (data, layout, quick style, colours, drawing)", diagrams)
	}
	// The same XML but the chart's r:id, and a chart part of its own.
	chart := func(part string, rels []rel) rel {
		for _, r := range rels {
			if r.Type == relChart {
				return r
			}
		}
		t.Fatalf("%s relates to no chart", part)
		return rel{}
	}
	oc, cc := chart(op, orels), chart(cp, crels)
	if cc.Target == oc.Target || !bytes.Equal(after[cc.Target], after[oc.Target]) {
		t.Errorf("chart %s: the copy shows %s, not a copy of it", oc.Target, cc.Target)
	}
	want := strings.Replace(string(after[op]), `r:id="`+oc.ID+`"/></a:graphicData>`, `r:id="`+cc.ID+`"/></a:graphicData>`, 1)
	if string(after[cp]) != want {
		t.Errorf("the copy's XML is not the original's with chart %s as %s", oc.ID, cc.ID)
	}
	types := func(s *sg.Node) []sg.NodeType {
		var out []sg.NodeType
		s.Walk(func(n, _ *sg.Node, _ int) bool { out = append(out, n.Type); return true })
		return out
	}
	if a, b := types(back.Slides[0]), types(back.Slides[1]); !slices.Equal(a, b) {
		t.Errorf("copy reads back as %v, the original as %v", b, a)
	}
}
