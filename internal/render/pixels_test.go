package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	if len(b) == 0 {
		t.Fatal("no PNG")
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decoding PNG: %v", err)
	}
	return img
}

func pixel(img image.Image, x, y int) color.RGBA {
	r, g, b, a := img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// isColor allows ±12 per channel (anti-aliasing, colour management).
func isColor(c color.RGBA, r, g, b uint8) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= 12 && int(y)-int(x) <= 12 }
	return d(c.R, r) && d(c.G, g) && d(c.B, b)
}

// twoTonePNG makes a w x h PNG whose left half is red and right half blue.
func twoTonePNG(t testing.TB, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{255, 0, 0, 255}
			if x >= w/2 {
				c = color.RGBA{0, 0, 255, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
