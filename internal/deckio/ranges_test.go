package deckio_test

// Issue 16 item 5: geometry is range-checked at import and after every
// tool. Numbers that are not finite or lie outside ECMA-376's
// ST_Coordinate range (±27273042316900 EMU, sg.MaxCoordinatePx) are refused
// with the node and the field named; FuzzScalePath's case, a 1e305 path
// coordinate that resize_node turned into "+Inf" and export into
// <a:pt x="-9223372036854775808">, cannot reach a file.

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// valueProblem asserts err is a *sg.ValidationError whose first problem is
// a value problem at a path ending in field, on node id.
func valueProblem(t *testing.T, what string, err error, id, field string) {
	t.Helper()
	var ve *sg.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%s: error %T %v, want a *scenegraph.ValidationError", what, err, err)
	}
	p := ve.Problems[0]
	if !p.Value || p.Node != id || !strings.HasSuffix(p.Path, field) {
		t.Fatalf("%s: problem %+v, want node %q field %q", what, p, id, field)
	}
	if !strings.Contains(err.Error(), id) {
		t.Fatalf("%s: message %q does not name node %s", what, err, id)
	}
}

// posAndSize is python-pptx's PowerPoint-made shp-pos-and-size.pptx and
// its "Rectangle 1".
func posAndSize(t *testing.T) (string, *sg.Deck, sg.Blobs, *sg.Node) {
	t.Helper()
	path := shareddecks.PythonPPTX(t, "shp-pos-and-size.pptx")[0]
	d, blobs, err := deckio.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	n := d.Slides[0].Find(func(n *sg.Node) bool { return n.Name == "Rectangle 1" })
	if n == nil {
		t.Fatal("no Rectangle 1")
	}
	return path, d, blobs, n
}

func TestToolsRefuseCoordinatesOutOfRange(t *testing.T) {
	_, d, _, rect := posAndSize(t)
	for _, c := range []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"move_node", map[string]any{"nodeId": rect.ID, "x": 1e305, "y": 0}, "relativeTransform[0][2]"},
		{"move_node", map[string]any{"nodeId": rect.ID, "x": 0, "y": -3e9}, "relativeTransform[1][2]"},
		{"resize_node", map[string]any{"nodeId": rect.ID, "width": 1e305}, "size.x"},
		{"resize_node", map[string]any{"nodeId": rect.ID, "height": 2.9e9}, "size.y"},
	} {
		args, _ := json.Marshal(c.args)
		_, _, err := tools.Apply(d, []tools.Call{{Tool: c.tool, Args: args}}, tools.Options{})
		if err == nil {
			t.Fatalf("%s %v accepted", c.tool, c.args)
		}
		valueProblem(t, c.tool, err, rect.ID, c.field)
		if !strings.Contains(err.Error(), "ST_Coordinate") {
			t.Fatalf("%s: message %q does not give the bound's source", c.tool, err)
		}
	}
	// The largest coordinate a slide file holds is still accepted.
	args, _ := json.Marshal(map[string]any{"nodeId": rect.ID, "x": 2.8e9, "y": 0})
	if _, _, err := tools.Apply(d, []tools.Call{{Tool: "move_node", Args: args}}, tools.Options{}); err != nil {
		t.Fatalf("move_node to 2.8e9 px (inside ST_Coordinate): %v", err)
	}
}

// FuzzScalePath's finding end to end: a vector whose path holds 1e305 is
// refused where it enters (scene-graph JSON), and a path in range that a
// resize would scale past the range is left unscaled with a warning rather
// than written as +Inf.
func TestPathCoordinatesOutOfRange(t *testing.T) {
	_, d, blobs, rect := posAndSize(t)
	vec := &sg.Node{ID: "v1", Type: sg.TypeVector, Transform: sg.Translate(10, 10), Size: sg.Vector{X: 100, Y: 100},
		Paths:   []sg.VectorPath{{Path: "M0 0 L1e305 0 L0 10 Z"}},
		Strokes: rect.Strokes, StrokeWeight: 1}
	d.Slides[0].Children = append(d.Slides[0].Children, vec)
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = deckio.Decode("deck.json", data)
	valueProblem(t, "scene-graph JSON with a 1e305 path point", err, "v1", "vectorPaths[0].path")
	if _, err := pptx.Export(d, blobs); err == nil {
		t.Fatal("export of a 1e305 path point succeeded")
	}

	vec.Paths[0].Path = "M0 0 L2000000000 0 L0 10 Z" // 2e9 px: inside the range
	if err := sg.Validate(d); err != nil {
		t.Fatalf("a path at 2e9 px is a valid deck: %v", err)
	}
	args, _ := json.Marshal(map[string]any{"nodeId": "v1", "width": 300})
	out, res, err := tools.Apply(d, []tools.Call{{Tool: "resize_node", Args: args}}, tools.Options{})
	if err != nil {
		t.Fatalf("resize_node: %v", err)
	}
	if p := sg.NewIndex(out).Node("v1").Paths[0].Path; strings.Contains(p, "Inf") || p != "M0 0 L2000000000 0 L0 10 Z" {
		t.Fatalf("path after a 3x resize: %q", p)
	}
	if len(res[0].Warnings) == 0 || !strings.Contains(strings.Join(res[0].Warnings, " "), "coordinate range") {
		t.Fatalf("warnings %q, want one saying the path was not rescaled (out of range)", res[0].Warnings)
	}
	pkg, err := pptx.Export(out, blobs)
	if err != nil {
		t.Fatal(err)
	}
	xml := slideXML(t, pkg, "ppt/slides/slide1.xml")
	if strings.Contains(xml, "-9223372036854775808") {
		t.Fatalf("export wrote an overflowed coordinate:\n%s", xml)
	}
}

// A PowerPoint-made file edited to hold an offset beyond ST_Coordinate is
// refused at import, naming the shape and the field.
func TestPPTXImportRefusesOffsetOutOfRange(t *testing.T) {
	path, _, _, rect := posAndSize(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := rewritePart(t, data, "ppt/slides/slide1.xml", func(s string) string {
		return strings.Replace(s, `<a:off x="914400" y="1828800"/>`, `<a:off x="9000000000000000000" y="1828800"/>`, 1)
	})
	_, _, err = deckio.Decode("big.pptx", bad)
	valueProblem(t, "a:off x=9e18", err, rect.ID, "relativeTransform[0][2]")
}

func TestFigmaImportRefusesTransformOutOfRange(t *testing.T) {
	data, err := os.ReadFile(shareddecks.Figma(t))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var victim map[string]any
	var find func(n map[string]any, depth int)
	find = func(n map[string]any, depth int) {
		if victim != nil {
			return
		}
		if _, ok := n["absoluteBoundingBox"].(map[string]any); ok && depth >= 2 {
			victim = n
			return
		}
		kids, _ := n["children"].([]any)
		for _, k := range kids {
			if m, ok := k.(map[string]any); ok {
				find(m, depth+1)
			}
		}
	}
	for _, v := range doc["nodes"].(map[string]any) {
		find(v.(map[string]any)["document"].(map[string]any), 0)
	}
	if victim == nil {
		t.Fatal("no node with an absoluteBoundingBox in the Figma sample")
	}
	victim["absoluteBoundingBox"].(map[string]any)["x"] = 1e305
	b, _ := json.Marshal(doc)
	_, _, err = deckio.Decode("figma.json", b)
	var ve *sg.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "1e+305") || !strings.Contains(err.Error(), "ST_Coordinate") {
		t.Fatalf("Figma node at x=1e305: %v", err)
	}
}

func rewritePart(t *testing.T, pkg []byte, part string, edit func(string) string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == part {
			nb := []byte(edit(string(b)))
			if bytes.Equal(nb, b) {
				t.Fatalf("%s: the edit changed nothing", part)
			}
			b = nb
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
