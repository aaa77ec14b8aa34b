package pptx

import (
	"regexp"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// langsOfShape returns the lang attributes of the run properties (a:rPr,
// a:endParaRPr) in the p:sp of slide XML x whose cNvPr is named name.
func langsOfShape(t *testing.T, x, name string) []string {
	t.Helper()
	i := strings.Index(x, `name="`+name+`"`)
	if i < 0 {
		t.Fatalf("no shape named %q in the slide", name)
	}
	end := strings.Index(x[i:], "</p:sp>")
	var out []string
	for _, m := range regexp.MustCompile(`<a:(?:rPr|endParaRPr)[^>]*?\blang="([^"]*)"`).FindAllStringSubmatch(x[i:i+end], -1) {
		out = append(out, m[1])
	}
	return out
}

func allEqual(got []string, want string) bool {
	if len(got) == 0 {
		return false
	}
	for _, g := range got {
		if g != want {
			return false
		}
	}
	return true
}

// The language of exported text follows its script: new Japanese text is
// ja-JP, new English text en-US; an edited run keeps the deck's own tag
// (en-IN) while its text stays in that script, and takes ja-JP when the
// edit types Japanese over it (issue 16 item 6).
func TestExportedTextLanguageFollowsTheScript(t *testing.T) {
	d, blobs, err := Import(readDeck(t, "default_template.pptx"), "default_template.pptx")
	if err != nil {
		t.Fatal(err)
	}
	s := d.Slides[0]
	ix := sg.NewIndex(d)
	var title, subtitle *sg.Node
	for _, c := range s.Children {
		switch c.Name {
		case "Title 1":
			title = c
		case "Subtitle 2":
			subtitle = c
		}
	}
	if title == nil || subtitle == nil {
		t.Fatal("slide 1 of default_template.pptx has no Title 1 and Subtitle 2")
	}
	title.Characters = "観光と文化"
	title.CharacterStyleOverrides = nil
	lines := strings.Split(subtitle.Characters, "\n")
	lines[1] = "By the ACE team"
	subtitle.Characters = strings.Join(lines, "\n")
	subtitle.CharacterStyleOverrides = nil
	add := func(name, chars string) {
		s.Children = append(s.Children, &sg.Node{ID: d.NewID(ix), Type: sg.TypeText, Name: name,
			Transform: sg.Translate(100, 600), Size: sg.Vector{X: 400, Y: 40},
			TextContent: sg.TextContent{Characters: chars, Style: &sg.TypeStyle{FontSize: 24}}})
	}
	add("ja box", "東京の新しいオフィスでは、チーム全員が集まります。")
	add("en box", "Quarterly results")
	add("ar box", "تقرير الأداء الفصلي")
	add("mixed box", "2026年\u2028売上レポート")

	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	x := string(zipParts(t, out)["ppt/slides/slide1.xml"])
	for _, c := range []struct{ shape, want string }{
		{"Title 1", "ja-JP"},
		{"ja box", "ja-JP"},
		{"en box", "en-US"},
		{"ar box", "ar-SA"},
		{"mixed box", "ja-JP"}, // "2026" and the line break have no letters: the paragraph decides
	} {
		if got := langsOfShape(t, x, c.shape); !allEqual(got, c.want) {
			t.Errorf("%s: run languages %v, want every one %s", c.shape, got, c.want)
		}
	}
	// The subtitle's second paragraph was retyped in English: its runs
	// keep the deck's en-IN; the untouched first paragraph too.
	if got := langsOfShape(t, x, "Subtitle 2"); !allEqual(got, "en-IN") {
		t.Errorf("Subtitle 2: run languages %v, want the deck's en-IN kept", got)
	}
}

// Text the tools made to hug its content is exported as growing with its
// text (a:spAutoFit), and one that hugs its width does not wrap, so an
// office suite with other font metrics grows the box instead of wrapping
// or overflowing it (issue 16 item 6).
func TestHuggingTextIsExportedAsAutoFit(t *testing.T) {
	d, blobs, err := Import(readDeck(t, "default_template.pptx"), "default_template.pptx")
	if err != nil {
		t.Fatal(err)
	}
	s := d.Slides[0]
	ix := sg.NewIndex(d)
	add := func(name, w, h string) {
		s.Children = append(s.Children, &sg.Node{ID: d.NewID(ix), Type: sg.TypeText, Name: name,
			Transform: sg.Translate(100, 600), Size: sg.Vector{X: 300, Y: 30},
			AutoLayout:  sg.AutoLayout{LayoutSizingHorizontal: w, LayoutSizingVertical: h},
			TextContent: sg.TextContent{Characters: "QUARTERLY MOMENTUM", Style: &sg.TypeStyle{FontSize: 20}}})
	}
	add("hug both", sg.SizingHug, sg.SizingHug)
	add("hug height", "", sg.SizingHug)
	add("fixed", "", "")
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	x := string(zipParts(t, out)["ppt/slides/slide1.xml"])
	bodyPr := func(name string) string {
		i := strings.Index(x, `name="`+name+`"`)
		if i < 0 {
			t.Fatalf("no shape %q", name)
		}
		return regexp.MustCompile(`<a:bodyPr[^>]*>.*?</a:bodyPr>`).FindString(x[i:])
	}
	for _, c := range []struct{ shape, wrap, fit string }{
		{"hug both", `wrap="none"`, "<a:spAutoFit/>"},
		{"hug height", `wrap="square"`, "<a:spAutoFit/>"},
		{"fixed", `wrap="square"`, "<a:noAutofit/>"},
	} {
		if b := bodyPr(c.shape); !strings.Contains(b, c.wrap) || !strings.Contains(b, c.fit) {
			t.Errorf("%s: %s, want %s and %s", c.shape, b, c.wrap, c.fit)
		}
	}
	back, _, err := Import(out, "out.pptx")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range back.Slides[0].Children {
		if n.Name == "hug both" && (n.TextBox == nil || !n.TextBox.NoWrap || n.TextBox.AutoResize != sg.AutoResizeHeight) {
			t.Errorf("hug both re-imports with text box %+v, want no wrap and auto height", n.TextBox)
		}
	}
}
