package pptx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// fuzzLimits keep each fuzz input cheap.
var fuzzLimits = Limits{MaxParts: 200, MaxPartBytes: 1 << 20, MaxTotalBytes: 4 << 20, MaxXMLDepth: 64}

// minimalFrom derives a small seed from a real deck at test time: the
// package skeleton plus its first slide with that slide's layout, master
// and theme, media dropped. Nothing of the shared decks is committed.
func minimalFrom(t testing.TB, data []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	keep := func(n string) bool {
		switch {
		case n == "[Content_Types].xml", n == "_rels/.rels", strings.HasPrefix(n, "ppt/presentation.xml"), strings.HasPrefix(n, "ppt/_rels/"),
			strings.HasPrefix(n, "ppt/slides/slide1.xml"), strings.HasPrefix(n, "ppt/slides/_rels/slide1.xml"),
			strings.HasPrefix(n, "ppt/slideMasters/"), strings.HasPrefix(n, "ppt/theme/"):
			return true
		case strings.HasPrefix(n, "ppt/slideLayouts/"):
			return true
		}
		return false
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if !keep(f.Name) {
			continue
		}
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	zw.Close()
	return buf.Bytes()
}

// FuzzImport feeds arbitrary bytes to the reader (zip, OPC, XML and the
// PresentationML mapping). Import must never panic; what it accepts must
// validate as a scene graph, and export either succeeds or names the
// damaged part. Seeds: the
// committed corpus in testdata/fuzz/FuzzImport (packages our exporter wrote
// from generated decks) and small packages derived from the shared real
// decks at test time.
func FuzzImport(f *testing.F) {
	f.Add(smallPackage(f))
	for _, rd := range realDecks {
		if b, err := os.ReadFile(sharedDeck(f, rd.file)); err == nil {
			f.Add(minimalFrom(f, b))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, blobs, _, err := ImportDetailed(data, "fuzz.pptx", fuzzLimits)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if err := sg.Validate(d); err != nil {
			t.Fatalf("accepted input gives an invalid deck: %v", err)
		}
		// A part import never reads (a table style, a font) may still be
		// damaged; export then fails with an error naming that part.
		if _, err := Export(d, blobs); err != nil && !strings.Contains(err.Error(), "part ") {
			t.Fatalf("export error does not name the part: %v", err)
		}
	})
}

// TestWriteFuzzSeeds regenerates the committed seed corpus when
// ACE_WRITE_FUZZ_SEEDS=1 (packages from generated decks and broken
// variants of them).
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("ACE_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set ACE_WRITE_FUZZ_SEEDS=1 to rewrite testdata/fuzz/FuzzImport")
	}
	good := smallPackage(t)
	seeds := map[string][]byte{
		"generated-2-slides": good,
		"no-content-types":   rezip(t, good, func(n string, b []byte) ([]byte, bool) { return b, n != "[Content_Types].xml" }, nil),
		"slide-cut": rezip(t, good, func(n string, b []byte) ([]byte, bool) {
			if n == "ppt/slides/slide1.xml" {
				return b[:len(b)*2/3], true
			}
			return b, true
		}, nil),
		"truncated-zip": good[:len(good)*3/4],
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzImport")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range seeds {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
