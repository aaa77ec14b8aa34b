package pptx

import (
	"bytes"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// bodyOf returns the first node on slide s (1-based) holding a bulleted
// paragraph.
func bodyOf(t *testing.T, d *sg.Deck, s int) *sg.Node {
	t.Helper()
	var body *sg.Node
	d.Slides[s-1].Walk(func(n, _ *sg.Node, _ int) bool {
		for _, p := range n.Paragraphs {
			if body == nil && p.ListType == sg.ListUnordered {
				body = n
			}
		}
		return body == nil
	})
	if body == nil {
		t.Fatalf("slide %d has no bulleted paragraph", s)
	}
	return body
}

// default_template's master body style gives every level a:buClr accent1
// (#90C226 in its theme) and a:buSzPct 80000 with a Wingdings 3 bullet;
// slide 4's body inherits them (its own a:pPr only turns one paragraph's
// bullet off, and that paragraph keeps no bullet look).
func TestBulletSizeAndColorInherited(t *testing.T) {
	d := importShared(t, "default_template.pptx")
	body := bodyOf(t, d, 4)
	accent1 := sg.MustHex("#90C226")
	lists, plain := 0, 0
	for i, p := range body.Paragraphs {
		switch p.ListType {
		case sg.ListUnordered:
			lists++
			if p.Bullet != "▶" || p.BulletSize != 0.8 || p.BulletColor == nil || !p.BulletColor.Near(accent1, 0.002) {
				t.Errorf("paragraph %d: bullet %q size %g colour %v, want ▶ 0.8 #90C226", i, p.Bullet, p.BulletSize, p.BulletColor)
			}
		case sg.ListNone:
			plain++
			if p.BulletSize != 0 || p.BulletColor != nil {
				t.Errorf("paragraph %d has no bullet but size %g colour %v", i, p.BulletSize, p.BulletColor)
			}
		}
	}
	if lists < 4 || plain != 1 {
		t.Errorf("slide 4 body: %d bulleted and %d plain paragraphs, want >= 4 and 1", lists, plain)
	}
}

// An edited bullet colour and size are written back (a:buClr, a:buSzPct)
// and re-import equal; a paragraph whose text changed keeps its inherited
// bullet look; the paragraphs and slides not edited stay byte-identical.
func TestBulletLookExportRoundTrip(t *testing.T) {
	data := readDeck(t, "default_template.pptx")
	d, blobs, _, err := ImportWithOptions(data, "default_template.pptx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	body := bodyOf(t, d, 4)
	red := sg.MustHex("#C00000")
	body.Paragraphs[0].BulletColor, body.Paragraphs[0].BulletThemeColor = &red, nil
	body.Paragraphs[0].BulletSize = 0.6
	lines := strings.Split(body.Characters, "\n")
	last := len(lines) - 1
	if body.Paragraphs[last].ListType != sg.ListUnordered {
		t.Fatalf("last paragraph is %s", body.Paragraphs[last].ListType)
	}
	// Append to the last paragraph's text (the overrides beyond it are
	// the base style, so the new characters take it).
	body.Characters += " More."
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	checkPackage(t, out)
	op, np := zipParts(t, data), zipParts(t, out)
	slide := string(np["ppt/slides/slide4.xml"])
	if !strings.Contains(slide, `<a:buClr><a:srgbClr val="C00000"></a:srgbClr></a:buClr><a:buSzPct val="60000"/><a:buFontTx/><a:buChar char="▶"/>`) {
		t.Errorf("edited paragraph's bullet look not written:\n%s", slide)
	}
	// The paragraph whose text changed keeps its bullet's theme reference.
	if !strings.Contains(slide, `<a:buClr><a:schemeClr val="accent1"></a:schemeClr></a:buClr><a:buSzPct val="80000"/>`) {
		t.Errorf("rewritten paragraph lost its bullet's theme colour:\n%s", slide)
	}
	// Paragraphs 2..last-1 are untouched: their a:p bytes are the original's.
	orig := string(op["ppt/slides/slide4.xml"])
	for _, want := range []string{"Every race has something essential", "All that India has to offer"} {
		i := strings.Index(orig, want)
		s := strings.LastIndex(orig[:i], "<a:p>")
		e := i + strings.Index(orig[i:], "</a:p>") + len("</a:p>")
		if !strings.Contains(slide, orig[s:e]) {
			t.Errorf("untouched paragraph %q was rewritten", want)
		}
	}
	for name, b := range op {
		if name != "ppt/slides/slide4.xml" && strings.HasPrefix(name, "ppt/slides/slide") && !bytes.Equal(b, np[name]) {
			t.Errorf("untouched part %s changed", name)
		}
	}
	d2, _, _, err := ImportWithOptions(out, "out.pptx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	b2 := bodyOf(t, d2, 4)
	p0 := b2.Paragraphs[0]
	if p0.BulletSize != 0.6 || p0.BulletColor == nil || !p0.BulletColor.Near(red, 0.002) || p0.Bullet != "▶" {
		t.Errorf("re-imported first paragraph: bullet %q size %g colour %v, want ▶ 0.6 #C00000", p0.Bullet, p0.BulletSize, p0.BulletColor)
	}
	pl := b2.Paragraphs[last]
	if pl.BulletSize != 0.8 || pl.BulletColor == nil || !pl.BulletColor.Near(sg.MustHex("#90C226"), 0.002) || pl.Bullet != "▶" ||
		pl.BulletThemeColor == nil || pl.BulletThemeColor.Name != "accent1" {
		t.Errorf("re-imported edited-text paragraph: bullet %q size %g colour %v, want the inherited ▶ 0.8 #90C226", pl.Bullet, pl.BulletSize, pl.BulletColor)
	}
	if !strings.HasSuffix(b2.Characters, " More.") {
		t.Errorf("edited text lost: %q", b2.Characters[len(b2.Characters)-40:])
	}
}
