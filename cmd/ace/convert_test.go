package main

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
)

func zipContents(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		out[f.Name] = string(data)
	}
	return out
}

// TestConvertRoundTrip: .pptx -> .json (+ assets) -> .pptx keeps every part;
// the report lists counts by type and timings; Figma JSON is refused as
// output.
func TestConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := genPPTX(t, dir, 4, 2)
	js := filepath.Join(dir, "deck.json")
	var rep bytes.Buffer
	if err := runConvert(context.Background(), &rep, in, js, convertFlags{report: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"slides: 4", "SLIDE", "TEXT", "time: read", "fonts: "} {
		if !strings.Contains(rep.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, rep.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "deck.assets")); err != nil {
		t.Fatalf("assets not written next to the JSON: %v", err)
	}
	back := filepath.Join(dir, "back.pptx")
	if err := runConvert(context.Background(), io.Discard, js, back, convertFlags{}); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(in)
	got, _ := os.ReadFile(back)
	a, b := zipContents(t, src), zipContents(t, got)
	for name, data := range a {
		if b[name] != data {
			t.Errorf("part %s differs after pptx -> json -> pptx", name)
		}
	}
	if err := runConvert(context.Background(), io.Discard, js, filepath.Join(dir, "x.figma.json"), convertFlags{}); err == nil || !strings.Contains(err.Error(), "import only") {
		t.Errorf("Figma output not refused: %v", err)
	}
	if err := runConvert(context.Background(), io.Discard, filepath.Join(dir, "missing.pptx"), filepath.Join(dir, "new.json"), convertFlags{}); err == nil {
		t.Error("missing input not reported")
	}
}

// A Figma response converts to .pptx and to a scene graph.
func TestConvertFigma(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "file.json")
	const resp = `{"name":"F","nodes":{"1:1":{"document":{"id":"1:1","type":"FRAME","name":"Hero","absoluteBoundingBox":{"x":0,"y":0,"width":1920,"height":1080},
"fills":[{"type":"SOLID","color":{"r":1,"g":1,"b":1,"a":1}}],"children":[{"id":"1:2","type":"TEXT","characters":"Hello","absoluteBoundingBox":{"x":100,"y":100,"width":400,"height":80},
"style":{"fontFamily":"Inter","fontSize":48,"fontWeight":700},"fills":[{"type":"SOLID","color":{"r":0,"g":0,"b":0,"a":1}}]}]}}}}`
	if err := os.WriteFile(in, []byte(resp), 0o644); err != nil {
		t.Fatal(err)
	}
	var rep bytes.Buffer
	out := filepath.Join(dir, "file.pptx")
	if err := runConvert(context.Background(), &rep, in, out, convertFlags{report: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.String(), "(figma)") {
		t.Errorf("input not recognised as Figma:\n%s", rep.String())
	}
	b, _ := os.ReadFile(out)
	d, _, err := pptx.Import(b, "file.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Slides) != 1 || d.Width != 1920 || len(d.Slides[0].Children) != 1 || d.Slides[0].Children[0].Characters != "Hello" {
		t.Errorf("Figma -> pptx gave %d slides %gx%g", len(d.Slides), d.Width, d.Height)
	}
}
