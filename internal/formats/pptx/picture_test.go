package pptx

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// withPicture returns the small package with the slide-1 logo
// (ppt/media/image1.png) streamed by write.
func withPicture(t testing.TB, write func(io.Writer) error) []byte {
	t.Helper()
	b, err := deckgen.Rewrite(smallPackage(t), func(name string, _ []byte) func(io.Writer) error {
		if name == "ppt/media/image1.png" {
			return write
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Issue 16 item 13: a picture over the bounds (500 MiB of zeros in a
// package of well under 1 MB; a PNG header declaring 100000 x 100000
// pixels) fails the import before anything is decoded, naming the file
// and the part.
func TestOversizedPictureFailsNamingThePart(t *testing.T) {
	zeros := withPicture(t, deckgen.Zeros(500<<20))
	if len(zeros) > 2<<20 {
		t.Fatalf("the hostile package is %d bytes; the case needs a small file", len(zeros))
	}
	header := withPicture(t, func(w io.Writer) error { _, err := w.Write(deckgen.PNGHeader(100000, 100000)); return err })
	for _, c := range []struct {
		name string
		data []byte
		want []string
	}{
		{"zeros", zeros, []string{"zeros.pptx: picture ppt/media/image1.png is 500.0 MiB", "over the limit of 64.0 MiB"}},
		{"header", header, []string{"header.pptx: picture ppt/media/image1.png declares 100000 x 100000 pixels", "over the limit of 8192 x 8192"}},
	} {
		_, _, _, err := ImportDetailed(c.data, c.name+".pptx", DefaultLimits)
		var big *sg.PictureTooLargeError
		if !errors.As(err, &big) || big.Name != "ppt/media/image1.png" {
			t.Fatalf("%s: want a PictureTooLargeError for ppt/media/image1.png, got %v", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
	// A picture within the bounds still imports with its size.
	ok := withPicture(t, func(w io.Writer) error { _, err := w.Write(deckgen.PNGHeader(8192, 8192)); return err })
	d, _, _, err := ImportDetailed(ok, "ok.pptx", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range d.Assets {
		found = found || a.Width == 8192 && a.Height == 8192
	}
	if !found {
		t.Errorf("the 8192 x 8192 picture is not in the assets: %+v", d.Assets)
	}
}
