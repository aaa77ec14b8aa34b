package pptx

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// smallPackage is a valid two-slide .pptx written by our exporter from a
// generated deck (no shared deck is copied into tests or seeds).
func smallPackage(t testing.TB) []byte {
	t.Helper()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 3})
	b, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rezip rewrites a package: edit returns the new bytes of a part and
// whether to keep it; extra parts are appended.
func rezip(t testing.TB, src []byte, edit func(name string, data []byte) ([]byte, bool), extra map[string][]byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		if edit != nil {
			var keep bool
			if data, keep = edit(f.Name, data); !keep {
				continue
			}
		}
		w, _ := zw.Create(f.Name)
		w.Write(data)
	}
	for name, data := range extra {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
	return buf.Bytes()
}

func TestBadPackagesGiveClearErrors(t *testing.T) {
	good := smallPackage(t)
	if _, _, err := Import(good, "good.pptx"); err != nil {
		t.Fatalf("the generated package itself fails: %v", err)
	}
	deep := "<p:sld xmlns:p=\"" + nsP + "\">" + strings.Repeat("<x>", 1000) + strings.Repeat("</x>", 1000) + "</p:sld>"
	cases := []struct {
		name string
		data []byte
		lim  Limits
		want []string
	}{
		{"not a zip", []byte("%PDF-1.7 this is a pdf"), DefaultLimits, []string{"not a .pptx", "zip signature"}},
		{"empty", nil, DefaultLimits, []string{"not a .pptx"}},
		{"truncated", good[:len(good)/2], DefaultLimits, []string{"truncated or damaged"}},
		{"missing content types", rezip(t, good, func(n string, b []byte) ([]byte, bool) { return b, n != "[Content_Types].xml" }, nil), DefaultLimits, []string{"[Content_Types].xml"}},
		{"missing presentation", rezip(t, good, func(n string, b []byte) ([]byte, bool) { return b, n != "ppt/presentation.xml" }, nil), DefaultLimits, []string{"missing part ppt/presentation.xml"}},
		{"missing slide", rezip(t, good, func(n string, b []byte) ([]byte, bool) { return b, n != "ppt/slides/slide2.xml" }, nil), DefaultLimits, []string{"missing part ppt/slides/slide2.xml"}},
		{"missing layout", rezip(t, good, func(n string, b []byte) ([]byte, bool) { return b, n != "ppt/slideLayouts/slideLayout1.xml" }, nil), DefaultLimits, []string{"ppt/slideLayouts/slideLayout1.xml"}},
		{"invalid XML", rezip(t, good, func(n string, b []byte) ([]byte, bool) {
			if n == "ppt/slides/slide1.xml" {
				return bytes.Replace(b, []byte("</p:spTree>"), []byte("</p:spTre>"), 1), true
			}
			return b, true
		}, nil), DefaultLimits, []string{"ppt/slides/slide1.xml", "invalid XML"}},
		{"cut XML", rezip(t, good, func(n string, b []byte) ([]byte, bool) {
			if n == "ppt/slides/slide2.xml" {
				return b[:len(b)/2], true
			}
			return b, true
		}, nil), DefaultLimits, []string{"ppt/slides/slide2.xml"}},
		{"word file", rezip(t, good, func(n string, b []byte) ([]byte, bool) {
			if n == "ppt/presentation.xml" {
				return []byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>`), true
			}
			return b, true
		}, nil), DefaultLimits, []string{"want p:presentation"}},
		{"strict OOXML", rezip(t, good, func(n string, b []byte) ([]byte, bool) {
			if n == "ppt/presentation.xml" {
				return bytes.ReplaceAll(b, []byte(nsP), []byte("http://purl.oclc.org/ooxml/presentationml/main")), true
			}
			return b, true
		}, nil), DefaultLimits, []string{"Strict Open XML"}},
		{"deep XML", rezip(t, good, func(n string, b []byte) ([]byte, bool) {
			if n == "ppt/slides/slide1.xml" {
				return []byte(deep), true
			}
			return b, true
		}, nil), DefaultLimits, []string{"ppt/slides/slide1.xml", "nested deeper than 256"}},
		{"zip bomb part", rezip(t, good, nil, map[string][]byte{"ppt/media/bomb.bin": make([]byte, 4<<20)}),
			Limits{MaxParts: 100, MaxPartBytes: 1 << 20, MaxTotalBytes: 64 << 20, MaxXMLDepth: 64}, []string{"over the limit"}},
		{"too many parts", good, Limits{MaxParts: 5, MaxPartBytes: 1 << 20, MaxTotalBytes: 1 << 30, MaxXMLDepth: 64}, []string{"over the limit of 5 parts"}},
		{"total size", good, Limits{MaxParts: 100, MaxPartBytes: 1 << 20, MaxTotalBytes: 1000, MaxXMLDepth: 64}, []string{"zip bomb"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, err := ImportDetailed(c.data, c.name+".pptx", c.lim)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	// The bomb part is only read when a slide uses it; a limit on a part
	// that is read is enforced on its real decompressed size.
	bomb := rezip(t, good, func(n string, b []byte) ([]byte, bool) {
		if strings.HasPrefix(n, "ppt/media/") {
			return make([]byte, 3<<20), true
		}
		return b, true
	}, nil)
	if _, _, _, err := ImportDetailed(bomb, "bomb.pptx", Limits{MaxParts: 100, MaxPartBytes: 1 << 20, MaxTotalBytes: 1 << 30, MaxXMLDepth: 64}); err == nil || !strings.Contains(err.Error(), "zip bomb") {
		t.Errorf("oversized media part not refused: %v", err)
	}
}

// External hyperlinks are recorded as URLs (never fetched) and slide jumps
// resolve to slide ids.
func TestHyperlinksRecorded(t *testing.T) {
	d, _, err := Import(readDeck(t, "career-tips.pptx"), "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	urls, jumps := 0, 0
	check := func(l *sg.Link) {
		if l == nil {
			return
		}
		if l.URL != "" {
			urls++
		}
		if l.NodeID != "" {
			if s, _ := d.SlideByID(l.NodeID); s == nil {
				t.Errorf("slide jump to %q, which is not a slide", l.NodeID)
			}
			jumps++
		}
	}
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		check(n.Link)
		if n.Style != nil {
			check(n.Style.Link)
		}
		for _, s := range n.StyleOverrideTable {
			check(s.Link)
		}
		return true
	})
	t.Logf("career-tips: %d external links, %d slide jumps", urls, jumps)
	if urls == 0 || jumps == 0 {
		t.Errorf("want external links and slide jumps, got %d and %d", urls, jumps)
	}
}

func TestExportRefusesInvalidDeck(t *testing.T) {
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 1})
	d.Slides[0].Children[0].Size.X = -5
	if _, err := Export(d, blobs); err == nil || !strings.Contains(err.Error(), "size.x") {
		t.Errorf("invalid deck exported: %v", err)
	}
}
