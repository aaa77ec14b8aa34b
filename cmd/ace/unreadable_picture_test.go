package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/formats/pptx"
)

// picDeck is a generated deck whose slide-1 logo (ppt/media/image1.png)
// is made unreadable by one of three damages (issue 16 item 4).
type picDeck struct {
	name   string
	damage func(name string, data []byte) []byte // nil keeps a part
	// want are the pieces the warning must name besides the slide, node
	// and part: the target and the reason.
	want []string
}

// logoRel matches the slide relationship of the logo picture.
var logoRel = regexp.MustCompile(`<Relationship [^>]*Target="../media/image1.png"[^>]*/>`)

// relID is the Id attribute of a relationship element.
var relID = regexp.MustCompile(`Id="([^"]+)"`)

// unreadablePictureDecks writes the three decks into dir and returns
// their paths. secret is a readable PNG on the host that the "outside"
// deck's relationship points at: reading it would import the picture
// and no warning would be given.
func unreadablePictureDecks(t *testing.T, dir, secret string) map[string]picDeck {
	t.Helper()
	outside := strings.Repeat("../", 12) + strings.TrimPrefix(secret, "/")
	var logoID string
	cases := map[string]picDeck{
		"bad-header.pptx": {damage: func(name string, data []byte) []byte {
			if name == "ppt/media/image1.png" {
				// The PNG signature, then an IHDR chunk cut short.
				return append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), bytes.Repeat([]byte{0xff}, 3)...)
			}
			return nil
		}, want: []string{"ppt/media/image1.png", "pixel header cannot be read"}},
		"outside.pptx": {damage: func(name string, data []byte) []byte {
			if strings.HasSuffix(name, "slide1.xml.rels") {
				return []byte(strings.Replace(string(data), `Target="../media/image1.png"`, `Target="`+outside+`"`, 1))
			}
			return nil
		}, want: []string{"points outside the package", filepath.Base(secret)}},
		"linked.pptx": {damage: func(name string, data []byte) []byte {
			switch {
			case strings.HasSuffix(name, "slide1.xml.rels"):
				return []byte(strings.Replace(string(data), `Target="../media/image1.png"`, `Target="https://example.invalid/logo.png" TargetMode="External"`, 1))
			case name == "ppt/slides/slide1.xml":
				return []byte(strings.Replace(string(data), `r:embed="`+logoID+`"`, `r:link="`+logoID+`"`, 1))
			}
			return nil
		}, want: []string{"https://example.invalid/logo.png", "linked (external) picture"}},
	}
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 3})
	src, err := pptx.Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	// Find the logo's relationship id on slide 1.
	if _, err := deckgen.Rewrite(src, func(name string, data []byte) func(io.Writer) error {
		if strings.HasSuffix(name, "slides/_rels/slide1.xml.rels") {
			if m := relID.FindStringSubmatch(logoRel.FindString(string(data))); m != nil {
				logoID = m[1]
			}
		}
		return nil
	}, nil); err != nil || logoID == "" {
		t.Fatalf("no logo relationship on slide 1 of the generated deck (%v)", err)
	}
	for name, c := range cases {
		b, err := deckgen.Rewrite(src, func(part string, data []byte) func(io.Writer) error {
			if nb := c.damage(part, data); nb != nil {
				if bytes.Equal(nb, data) {
					t.Fatalf("%s: damage to %s changed nothing", name, part)
				}
				return func(w io.Writer) error { _, err := w.Write(nb); return err }
			}
			return nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.name = filepath.Join(dir, name)
		if err := os.WriteFile(c.name, b, 0o644); err != nil {
			t.Fatal(err)
		}
		cases[name] = c
	}
	return cases
}

// runCLIOut is runCLI keeping stdout too.
func runCLIOut(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := execute(args, &stdout, &stderr)
	rootCmd.SetArgs(nil)
	rootCmd.SetOut(nil)
	rootCmd.SetErr(nil)
	resetFlags(rootCmd)
	return code, stdout.String(), stderr.String()
}

// Issue 16 item 4: a picture with a damaged pixel header, one whose
// relationship points outside the package (at a real PNG on the host),
// and a linked picture each become a warning naming the slide, the node,
// the part and the target: on ace edit's output, in its run record and
// HTML report, and in the batch summary ("ok, 1 warning" and the warning
// listed), never a silent "ok". The host PNG is never read.
func TestUnreadablePicturesAreWarnings(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "host-secret.png")
	if err := os.WriteFile(secret, pngOf(t), 0o600); err != nil {
		t.Fatal(err)
	}
	decks := unreadablePictureDecks(t, dir, secret)
	recipe := titlesRecipe(t, dir)
	warnings := map[string]string{}
	var paths []string
	for name, c := range decks {
		paths = append(paths, c.name)
		t.Run(name, func(t *testing.T) {
			// The importer's own account: one unreadable picture on slide 1.
			data, err := os.ReadFile(c.name)
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := pptx.Import(data, name)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Source.UnreadablePictures) != 1 {
				t.Fatalf("unreadable pictures %+v, want the logo", d.Source.UnreadablePictures)
			}
			u := d.Source.UnreadablePictures[0]
			if u.Slide != 1 || u.Part != "ppt/slides/slide1.xml" || u.NodeID == "" || u.Name == "" {
				t.Errorf("picture %+v, want slide 1, ppt/slides/slide1.xml, a node id and name", u)
			}
			want := "unreadable picture: " + u.String()
			for _, s := range append([]string{"slide 1", u.NodeID, u.Name, "ppt/slides/slide1.xml"}, c.want...) {
				if !strings.Contains(want, s) {
					t.Errorf("warning %q does not name %q", want, s)
				}
			}
			warnings[filepath.Base(c.name)] = want

			record := filepath.Join(dir, name+".record.json")
			report := filepath.Join(dir, name+".html")
			code, stdout, stderr := runCLIOut(t, "edit", c.name, "--recipe", recipe, "--no-render", "-o", filepath.Join(dir, "edited-"+name),
				"--record", record, "--report", report)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "warning: "+want+"\n") {
				t.Errorf("ace edit output does not list %q:\n%s", want, stdout)
			}
			var rec editloop.Record
			if b, err := os.ReadFile(record); err != nil || json.Unmarshal(b, &rec) != nil {
				t.Fatalf("record: %v", err)
			}
			if len(rec.Warnings) != 1 || rec.Warnings[0] != want {
				t.Errorf("record warnings %q, want [%q]", rec.Warnings, want)
			}
			page, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), html.EscapeString(want)) {
				t.Errorf("HTML report does not show %q", want)
			}
		})
	}

	t.Setenv("ACE_DATA_DIR", t.TempDir())
	t.Setenv("ACE_TEMPORAL_ADDRESS", "")
	t.Setenv("ACE_NATS_URL", "")
	out := filepath.Join(dir, "out")
	code, stderr := runCLI(t, append([]string{"batch", "-o", out, "--recipe", recipe, "--batch", "pictures-" + time.Now().Format("150405")}, paths...)...)
	if code != 0 {
		t.Fatalf("batch exit %d: %s", code, stderr)
	}
	sum := readBatchSummary(t, out)
	txt, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Rows) != len(decks) {
		t.Fatalf("batch rows %+v", sum.Rows)
	}
	for _, row := range sum.Rows {
		want := warnings[filepath.Base(row.Source)]
		if want == "" {
			t.Fatalf("row %+v is none of the decks", row)
		}
		if row.Status != "ok" || len(row.Warnings) != 1 || row.Warnings[0] != want {
			t.Errorf("%s: status %s, warnings %q; want ok with [%q]", row.Deck, row.Status, row.Warnings, want)
		}
		if !strings.Contains(string(txt), fmt.Sprintf("%s: warning: %s\n", row.Deck, want)) {
			t.Errorf("summary.txt does not list %s's warning:\n%s", row.Deck, txt)
		}
	}
	if n := strings.Count(string(txt), "ok, 1 warning"); n != len(decks) {
		t.Errorf("summary.txt shows %d decks as \"ok, 1 warning\", want %d:\n%s", n, len(decks), txt)
	}
}

// pngOf is a readable PNG: a generated deck's picture.
func pngOf(t *testing.T) []byte {
	t.Helper()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 1, Seed: 3})
	for ref := range d.Assets {
		if b, ok := blobs[ref]; ok {
			return b
		}
	}
	t.Fatal("generated deck has no picture")
	return nil
}
