package pptx

import (
	"os"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Re-exporting edited charts must not leave the old chart parts (and their
// embedded workbooks) in the file: unreferenced, yet readable by anyone who
// unzips the deck, with the old numbers and the old brand colour.
func TestEditedChartsLeaveNoOldPartsBehind(t *testing.T) {
	data, err := os.ReadFile("../../../testdata/decks/northwind-qbr.pptx")
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := Import(data, "northwind-qbr.pptx")
	if err != nil {
		t.Fatal(err)
	}
	charts := 0
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Chart != nil {
			charts++
			for i := range n.Chart.Series {
				for j := range n.Chart.Series[i].Values {
					n.Chart.Series[i].Values[j] = 0
				}
				n.Chart.Series[i].Color = &sg.Color{R: 0.2, G: 0.3, B: 0.8, A: 1}
			}
		}
		return true
	})
	if charts == 0 {
		t.Fatal("northwind-qbr.pptx has no chart; the demo deck changed?")
	}
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	before, after := zipParts(t, data), zipParts(t, out)
	users := relUsers(after)
	for name, b := range after {
		if strings.HasSuffix(name, ".rels") || name == "[Content_Types].xml" {
			continue
		}
		if len(users[name]) == 0 {
			t.Errorf("part %s is in the exported file but nothing refers to it", name)
		}
		if strings.Contains(name, "chart") && strings.Contains(string(b), "0B6E4F") {
			t.Errorf("part %s still carries the old series colour 0B6E4F", name)
		}
	}
	if ct := string(after["[Content_Types].xml"]); strings.Count(ct, "PartName=") > len(after) {
		t.Errorf("[Content_Types].xml lists parts the file does not hold")
	}
	for name := range before {
		if _, ok := after[name]; !ok && !strings.Contains(name, "chart") && !strings.Contains(name, "embeddings") {
			t.Errorf("part %s was dropped though it is not a replaced chart", name)
		}
	}
}
