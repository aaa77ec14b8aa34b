package scenegraph

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	_ "image/gif" // register header readers for PictureSize
	_ "image/jpeg"
	_ "image/png"
)

// Bounds on one picture, checked before its pixels are decoded (by the
// renderer's browser or anyone else) so that a small file cannot demand
// gigabytes: a 550 KB .pptx can hold a 500 MiB part of zeros (deflate packs
// zeros about 1000:1), and a 1 KB PNG can declare 100000 x 100000 pixels.
//
//   - MaxPictureBytes, 64 MiB, bounds the encoded bytes. PowerPoint's
//     "Compress Pictures" keeps photos at 220 ppi (a few MB); an uncompressed
//     48-megapixel phone photo as PNG is about 40 MiB. Rendering holds a
//     picture about four times over (the bytes, their base64 data: URI, the
//     HTML page and the DevTools message carrying it), so 64 MiB keeps a
//     render under 1 GB.
//   - MaxPicturePixels, 8192 x 8192 (67.1 megapixels, 256 MiB as 8-bit
//     RGBA), bounds the decoded size. It admits a 61-megapixel camera
//     photo and an 8K (7680 x 4320) frame.
//
// Sizes are read from the header only (image.DecodeConfig for PNG, JPEG
// and GIF; the BMP and WebP headers directly); formats without a pixel
// header (SVG, EMF, WMF, TIFF) are bounded by bytes alone.
const (
	MaxPictureBytes  = 64 << 20
	MaxPicturePixels = 8192 * 8192
)

// PictureTooLargeError is a picture over MaxPictureBytes or
// MaxPicturePixels. Name is the picture as its deck knows it: a package
// part (ppt/media/image1.png) or an asset's name. Bytes is its size when
// that is over the bound (a zip entry's declared uncompressed size counts);
// Width and Height are its header's pixel size when that is over.
type PictureTooLargeError struct {
	Name          string
	Bytes         int64
	Width, Height int
}

func (e *PictureTooLargeError) Error() string {
	if e.Bytes > 0 {
		return fmt.Sprintf("picture %s is %s, over the limit of %s per picture; compress or downscale it (PowerPoint: Picture Format > Compress Pictures) and save again",
			e.Name, mib(e.Bytes), mib(MaxPictureBytes))
	}
	return fmt.Sprintf("picture %s declares %d x %d pixels (%.1f megapixels), over the limit of %d x %d (%.1f megapixels); downscale it and save again",
		e.Name, e.Width, e.Height, float64(e.Width)*float64(e.Height)/1e6, 8192, 8192, float64(MaxPicturePixels)/1e6)
}

func mib(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
	}
	return fmt.Sprintf("%d bytes", n)
}

// CheckPictureBytes returns a *PictureTooLargeError when n (a picture's
// size in bytes, declared or read) is over MaxPictureBytes.
func CheckPictureBytes(name string, n int64) error {
	if n > MaxPictureBytes {
		return &PictureTooLargeError{Name: name, Bytes: n}
	}
	return nil
}

// PictureSize reads the pixel size from a picture's header without
// decoding its pixels. It returns 0, 0 and no error for a format it does
// not read (or a damaged header: callers that need the picture decoded
// find that out then), and a *PictureTooLargeError when the size is over
// MaxPicturePixels or the bytes over MaxPictureBytes.
func PictureSize(name string, data []byte) (w, h int, err error) {
	if err := CheckPictureBytes(name, int64(len(data))); err != nil {
		return 0, 0, err
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		w, h = cfg.Width, cfg.Height
	} else {
		w, h = otherHeaderSize(data)
	}
	if w < 0 || h < 0 || int64(w)*int64(h) > MaxPicturePixels {
		return 0, 0, &PictureTooLargeError{Name: name, Width: w, Height: h}
	}
	return w, h, nil
}

// otherHeaderSize reads the pixel size of a BMP (BITMAPINFOHEADER, height
// negative for top-down rows) or a WebP (VP8, VP8L, VP8X chunks; RIFF
// container per RFC 9649), which the standard library does not; 0, 0 for
// anything else.
func otherHeaderSize(b []byte) (int, int) {
	le32 := func(p []byte) int64 { return int64(int32(binary.LittleEndian.Uint32(p))) }
	le24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
	switch {
	case len(b) >= 26 && b[0] == 'B' && b[1] == 'M':
		w, h := le32(b[18:]), le32(b[22:])
		if h < 0 {
			h = -h
		}
		if w > 1<<30 || h > 1<<30 {
			return 1 << 30, 1 << 30
		}
		return int(w), int(h)
	case len(b) >= 30 && string(b[0:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		switch string(b[12:16]) {
		case "VP8X":
			return 1 + le24(b[24:]), 1 + le24(b[27:])
		case "VP8L":
			bits := binary.LittleEndian.Uint32(b[21:])
			return 1 + int(bits&0x3fff), 1 + int(bits>>14&0x3fff)
		case "VP8 ":
			return int(binary.LittleEndian.Uint16(b[26:]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:]) & 0x3fff)
		}
	}
	return 0, 0
}

// UnreadablePicture is a picture of the imported file that ACE could not
// read and so draws as an empty frame: its bytes have no readable pixel
// header (a PNG, JPEG, GIF, BMP or WebP whose size cannot be read), its
// relationship points outside the package (no host file is ever read for
// it), it is linked rather than embedded (never fetched), or its part is
// missing. The file keeps the picture's element as it was.
//
// Slide is the 1-based slide number, 0 for a layout or master; NodeID and
// Name the node and its shape name (p:cNvPr/@name); Part the part holding
// the picture (ppt/slides/slide3.xml); Target the relationship target (a
// part name, a path outside the package, or an external URL), empty when
// there is none; Reason why it could not be read.
type UnreadablePicture struct {
	Slide  int    `json:"slide,omitempty"`
	NodeID string `json:"nodeId"`
	Name   string `json:"name,omitempty"`
	Part   string `json:"part"`
	Target string `json:"target,omitempty"`
	Reason string `json:"reason"`
}

// String is the warning as ace edit, the run record, the HTML report and
// the batch summary show it: "slide 2, node 5:7 "Picture 3"
// (ppt/slides/slide2.xml), picture ppt/media/image2.png: REASON; drawn as
// an empty frame".
func (u UnreadablePicture) String() string {
	where := "layout or master"
	if u.Slide > 0 {
		where = fmt.Sprintf("slide %d", u.Slide)
	}
	s := fmt.Sprintf("%s, node %s %q (%s), picture", where, u.NodeID, u.Name, u.Part)
	if u.Target != "" {
		s += " " + u.Target
	}
	return s + ": " + u.Reason + "; drawn as an empty frame"
}

// PictureWarnings lists the deck's unreadable pictures (Source
// .UnreadablePictures) as warnings, in import order; nil when there are
// none.
func (d *Deck) PictureWarnings() []string {
	if d == nil || d.Source == nil {
		return nil
	}
	var out []string
	for _, u := range d.Source.UnreadablePictures {
		out = append(out, "unreadable picture: "+u.String())
	}
	return out
}
