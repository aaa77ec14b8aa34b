package tools

import (
	"encoding/json"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// A deck whose heading and body fonts are the same face (common in real
// templates) must still get different faces for titles and body text.
func TestSetThemeFontsSplitsASharedFaceByRole(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 4, Seed: 1})
	args, _ := json.Marshal(map[string]any{"heading": "Liberation Serif", "body": "DejaVu Sans"})
	out, _, err := Apply(d, []Call{{Tool: "set_theme_fonts", Args: args}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	titles, bodies := 0, 0
	out.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Style == nil || n.Characters == "" {
			return true
		}
		isTitle := n.Placeholder != nil && (n.Placeholder.Role == "title" || n.Placeholder.Role == "ctrTitle")
		switch {
		case isTitle && n.Style.FontFamily != "Liberation Serif":
			t.Errorf("title %s in %q", n.ID, n.Style.FontFamily)
		case !isTitle && n.Style.FontFamily != "DejaVu Sans":
			t.Errorf("body text %s in %q", n.ID, n.Style.FontFamily)
		case isTitle:
			titles++
		default:
			bodies++
		}
		return true
	})
	if titles == 0 || bodies == 0 || out.Tokens.Fonts.Major.Latin != "Liberation Serif" || out.Tokens.Fonts.Minor.Latin != "DejaVu Sans" {
		t.Fatalf("titles %d, bodies %d, tokens %+v", titles, bodies, out.Tokens.Fonts)
	}
}
