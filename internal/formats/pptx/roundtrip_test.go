package pptx

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

func zipParts(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("output is not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = data
	}
	return out
}

// TestRoundTripLibreOffice: import then export of each real deck writes every
// slide part (indeed every part) byte-identical, and LibreOffice converts the
// original and the export to PDFs with the same page count; the edited career-tips converts too.
func TestRoundTripLibreOffice(t *testing.T) {
	files := map[string][]byte{}
	for _, rd := range realDecks {
		data := readDeck(t, rd.file)
		d, blobs, err := Import(data, rd.file)
		if err != nil {
			t.Fatalf("%s: import: %v", rd.file, err)
		}
		out, err := Export(d, blobs)
		if err != nil {
			t.Fatalf("%s: export: %v", rd.file, err)
		}
		orig, got := zipParts(t, data), zipParts(t, out)
		slides := 0
		for name, b := range orig {
			g, ok := got[name]
			if !ok {
				t.Errorf("%s: part %s missing from the export", rd.file, name)
				continue
			}
			if !bytes.Equal(b, g) {
				t.Errorf("%s: part %s differs after an unedited round trip", rd.file, name)
			}
			if strings.HasPrefix(name, "ppt/slides/slide") {
				slides++
			}
		}
		if len(got) != len(orig) {
			t.Errorf("%s: %d parts exported, original has %d", rd.file, len(got), len(orig))
		}
		if slides != rd.slides {
			t.Errorf("%s: compared %d slide parts, want %d", rd.file, slides, rd.slides)
		}
		t.Logf("%s: %d parts, %d slide parts byte-identical", rd.file, len(orig), slides)
		// LibreOffice takes tens of seconds per deck on a loaded machine:
		// by default table-report (original and export), career-tips
		// (original; its export's parts were just shown byte-identical)
		// and the edited decks and a generated one are converted;
		// ACE_LIBREOFFICE_ALL=1, and CI (CI=true), convert the original and
		// export of all six, as the issue's acceptance asks.
		all := os.Getenv("ACE_LIBREOFFICE_ALL") != "" || os.Getenv("CI") != ""
		if testing.Short() || (!all && rd.file != "career-tips.pptx" && rd.file != "table-report.pptx") {
			continue
		}
		base := strings.TrimSuffix(rd.file, ".pptx")
		files[base+".orig.pptx"] = data
		if all || rd.file != "career-tips.pptx" {
			files[base+".export.pptx"] = out
		}
	}
	if len(files) == 0 {
		return
	}
	// The edited career-tips (TestEditedRoundTrip's five edits) goes in the
	// same LibreOffice run: it must convert, with all 37 slides.
	data := readDeck(t, "career-tips.pptx")
	d, blobs, err := Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	editCareerTips(t, d)
	edited, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	files["career-tips.edited.pptx"] = edited
	// So does table-report with TestMoreEditsRoundTrip's edits (a deleted
	// slide, a new slide with picture, table and chart): 8 slides.
	tr := readDeck(t, "table-report.pptx")
	d, blobs, err = Import(tr, "table-report.pptx")
	if err != nil {
		t.Fatal(err)
	}
	editTableReport(t, d, blobs)
	if files["table-report.edited.pptx"], err = Export(d, blobs); err != nil {
		t.Fatal(err)
	}
	gen, genSlides := generatedExport(t)
	files["generated.pptx"] = gen
	pages := convertToPDF(t, files)
	if n := pages["generated.pptx"]; n != genSlides {
		t.Errorf("LibreOffice converted the generated deck to %d pages, want %d", n, genSlides)
	}
	if n := pages["table-report.edited.pptx"]; n != 8 {
		t.Errorf("LibreOffice converted the edited table-report to %d pages, want 8", n)
	}
	if n := pages["career-tips.edited.pptx"]; n != 37 {
		t.Errorf("LibreOffice converted the edited career-tips to %d pages, want 37", n)
	} else {
		t.Logf("LibreOffice: career-tips.edited.pptx %d pages", n)
	}
	for name, n := range pages {
		if !strings.HasSuffix(name, ".orig.pptx") {
			continue
		}
		exp := strings.TrimSuffix(name, ".orig.pptx") + ".export.pptx"
		if _, ok := pages[exp]; !ok {
			t.Logf("LibreOffice: %s %d pages (export not converted: its parts are byte-identical)", name, n)
			if want := map[string]int{"career-tips.orig.pptx": 37}[name]; want != 0 && n != want {
				t.Errorf("%s: %d pages, want %d", name, n, want)
			}
			continue
		}
		t.Logf("LibreOffice: %s %d pages, %s %d pages", name, n, exp, pages[exp])
		if n == 0 || pages[exp] != n {
			t.Errorf("page counts differ: %s %d, %s %d", name, n, exp, pages[exp])
		}
	}
}

// relUsers maps each part a package's relationships point at to the parts
// whose relationships do (the package itself is "").
func relUsers(parts map[string][]byte) map[string][]string {
	re := regexp.MustCompile(`<Relationship [^>]*?Target="([^"]+)"[^>]*?/?>`)
	out := map[string][]string{}
	for name, b := range parts {
		if !strings.HasSuffix(name, ".rels") {
			continue
		}
		dir, file := path.Split(name)
		source := strings.TrimSuffix(strings.TrimSuffix(dir, "_rels/")+strings.TrimSuffix(file, ".rels"), "/")
		for _, m := range re.FindAllSubmatch(b, -1) {
			if bytes.Contains(m[0], []byte(`TargetMode="External"`)) {
				continue
			}
			target := resolveTarget(source, string(m[1]))
			out[target] = append(out[target], source)
		}
	}
	return out
}
