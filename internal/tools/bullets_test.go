package tools

import (
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// set_paragraph_style sets a list's bullet size and colour, and TEXT / 1
// make them follow the text again.
func TestParagraphBulletSizeAndColour(t *testing.T) {
	d := fixture(t)
	id := named(t, d, 1, "Content").ID
	out, _ := apply(t, d, Options{}, call("set_paragraph_style", map[string]any{
		"nodeId": id, "listType": "UNORDERED", "bulletSize": 0.6, "bulletColor": "#C00000"}))
	for i, p := range sg.NewIndex(out).Node(id).Paragraphs {
		if p.BulletSize != 0.6 || p.BulletColor == nil || p.BulletColor.Hex() != "#C00000" {
			t.Errorf("paragraph %d: size %v colour %v", i, p.BulletSize, p.BulletColor)
		}
	}
	out, _ = apply(t, out, Options{}, call("set_paragraph_style", map[string]any{
		"nodeId": id, "paragraphs": []int{0}, "bulletSize": 1, "bulletColor": "TEXT"}))
	if p := sg.NewIndex(out).Node(id).Paragraphs[0]; p.BulletSize != 0 || p.BulletColor != nil {
		t.Errorf("paragraph 0 after TEXT and 1: size %v colour %v", p.BulletSize, p.BulletColor)
	}
	if _, _, err := Apply(out, []Call{call("set_paragraph_style", map[string]any{"nodeId": id, "bulletColor": "red"})}, Options{}); err == nil {
		t.Error("bulletColor \"red\" was accepted")
	}
}

// replace_color recolours list bullets with the text (a rebrand must not
// leave bullets in the old brand colour).
func TestReplaceColorRecoloursBullets(t *testing.T) {
	d := fixture(t)
	id := named(t, d, 1, "Content").ID
	d, _ = apply(t, d, Options{}, call("set_paragraph_style", map[string]any{"nodeId": id, "listType": "UNORDERED", "bulletColor": "#0B6E4F"}))
	out, _ := apply(t, d, Options{}, call("replace_color", map[string]any{"from": "#0B6E4F", "to": "#5B2A86"}))
	for i, p := range sg.NewIndex(out).Node(id).Paragraphs {
		if p.BulletColor == nil || p.BulletColor.Hex() != "#5B2A86" {
			t.Errorf("paragraph %d bullet %v, want #5B2A86", i, p.BulletColor)
		}
	}
}

// On a real deck whose bullets are the theme's accent1 (default_template),
// set_theme_colors recolours them with the accent, as PowerPoint would.
func TestThemeColoursRecolourThemeBullets(t *testing.T) {
	d := realDeck(t, "default_template.pptx")
	var bound []string
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		for _, p := range n.Paragraphs {
			if p.BulletThemeColor != nil && p.BulletThemeColor.Name == "accent1" && len(p.BulletThemeColor.Mods) == 0 {
				bound = append(bound, n.ID)
				break
			}
		}
		return true
	})
	if len(bound) == 0 {
		t.Fatal("default_template.pptx has no bullets bound to accent1; the importer changed?")
	}
	out, _ := apply(t, d, Options{}, call("set_theme_colors", map[string]any{"colors": map[string]any{"accent1": "#5B2A86"}}))
	ix := sg.NewIndex(out)
	for _, id := range bound {
		for i, p := range ix.Node(id).Paragraphs {
			if p.BulletThemeColor != nil && p.BulletThemeColor.Name == "accent1" && len(p.BulletThemeColor.Mods) == 0 && p.BulletColor.Hex() != "#5B2A86" {
				t.Errorf("%s paragraph %d: bullet %s after the accent changed to #5B2A86", id, i, p.BulletColor.Hex())
			}
		}
	}
}
