package pptx

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

func countLine(m map[sg.NodeType]int) string {
	var parts []string
	for _, t := range sg.AllTypes {
		if m[t] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", t, m[t]))
		}
	}
	return strings.Join(parts, " ")
}

func TestImportRealDecks(t *testing.T) {
	for _, rd := range realDecks {
		t.Run(rd.file, func(t *testing.T) {
			data := readDeck(t, rd.file)
			d, blobs, warns, err := ImportDetailed(data, rd.file, DefaultLimits)
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			counts := d.CountByType()
			t.Logf("%s: %d slides, %d nodes: %s; %d warnings", rd.file, len(d.Slides), d.Count(), countLine(counts), len(warns))
			if len(d.Slides) != rd.slides {
				t.Errorf("slides = %d, SOURCES.md says %d", len(d.Slides), rd.slides)
			}
			if counts[sg.TypeTable] != rd.tables {
				t.Errorf("tables = %d, SOURCES.md says %d", counts[sg.TypeTable], rd.tables)
			}
			if err := sg.Validate(d); err != nil {
				t.Errorf("imported deck does not validate: %v", err)
			}
			if got, ok := blobs[d.Source.Ref]; !ok || len(got) != len(data) {
				t.Errorf("original package bytes not kept under Source.Ref")
			}
			for ref := range d.Assets {
				if _, ok := blobs[ref]; !ok {
					t.Errorf("asset %s has no bytes in blobs", ref[:12])
				}
			}
			if len(d.Tokens.Colors) < 12 || d.Tokens.Fonts.Minor.Latin == "" {
				t.Errorf("theme tokens incomplete: %d colours, fonts %+v", len(d.Tokens.Colors), d.Tokens.Fonts)
			}
			// Every slide names its layout; every shape has a stable id and source.
			d.Walk(func(n, _ *sg.Node, _ int) bool {
				if n.Type == sg.TypeSlide && (n.Slide == nil || n.Slide.Layout == "") {
					t.Errorf("slide %s has no layout name", n.ID)
				}
				if n.Source == nil || n.Source.Digest != sg.NodeDigest(n) {
					t.Errorf("node %s: missing source or digest", n.ID)
				}
				return true
			})
			// Table styles resolve: styled tables give their cells fills or
			// borders even where the cell XML has none.
			styled := 0
			d.Walk(func(n, _ *sg.Node, _ int) bool {
				if n.Type == sg.TypeTableCell && (len(n.Fills) > 0 || n.Cell.Borders != nil) {
					styled++
				}
				return true
			})
			if rd.tables > 0 && styled == 0 {
				t.Errorf("no table cell has a fill or border")
			}
			// Re-import gives the same deck (stable ids, deterministic).
			d2, _, err := Import(data, rd.file)
			if err != nil {
				t.Fatal(err)
			}
			h1, _ := sg.Hash(d)
			h2, _ := sg.Hash(d2)
			if h1 != h2 {
				t.Errorf("two imports of the same bytes differ")
			}
			var ws []string
			for _, w := range warns {
				ws = append(ws, w.String())
			}
			sort.Strings(ws)
			if len(ws) > 8 {
				ws = ws[:8]
			}
			for _, w := range ws {
				t.Logf("  warning: %s", w)
			}
		})
	}
}
