package render

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"testing"

	"github.com/acecanvas/ace/internal/tools"
)

// export_slide_image through SlidePNG returns the renderer's PNG of the
// slide, at the asked scale, instead of the SVG wireframe.
func TestExportSlideImageUsesTheRenderer(t *testing.T) {
	d := deck(rect("r1", 100, 100, 300, 200, "#C00000"))
	opts := tools.Options{Renderer: SlidePNG{Renderer: sharedPool(t)}}
	_, res, err := tools.Apply(d, []tools.Call{{Tool: "export_slide_image", Args: json.RawMessage(`{"slideId":"` + d.Slides[0].ID + `","scale":0.5}`)}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		MimeType string `json:"mimeType"`
		Base64   string `json:"base64"`
	}
	if err := json.Unmarshal(res[0].Data, &out); err != nil || out.MimeType != "image/png" {
		t.Fatalf("result %s (%v)", res[0].Data, err)
	}
	raw, _ := base64.StdEncoding.DecodeString(out.Base64)
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	w := int(d.Width * 0.5)
	if b := img.Bounds(); b.Dx() != w {
		t.Fatalf("PNG is %dx%d, want width %d (scale 0.5)", b.Dx(), b.Dy(), w)
	}
	// The red rectangle is painted at (100,100)-(400,300) slide px.
	r, g, b, _ := img.At(125, 100).RGBA()
	if r>>8 < 180 || g>>8 > 40 || b>>8 > 40 {
		t.Fatalf("pixel inside the rectangle is %d,%d,%d, want red", r>>8, g>>8, b>>8)
	}
	if _, err := (SlidePNG{Renderer: sharedPool(t)}).RenderSlidePNG(d, "nope", 1); err == nil {
		t.Fatal("an unknown slide id rendered")
	}
}
