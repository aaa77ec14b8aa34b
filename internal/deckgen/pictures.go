package deckgen

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// Rewrite copies the zip package pkg (a .pptx), letting edit supply a
// part's new content: edit gets the part's name and bytes and returns a
// function streaming the replacement, or nil to keep the part. Parts in
// extra are appended. Streaming lets a test build a package holding a
// 500 MiB part without holding the part in memory (zeros deflate about
// 1000:1). It is how the tests build damaged and hostile pictures.
func Rewrite(pkg []byte, edit func(name string, data []byte) func(io.Writer) error, extra map[string][]byte) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
		if err != nil {
			return nil, err
		}
		if write := edit(f.Name, data); write != nil {
			if err := write(w); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
		} else if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	for name, data := range extra {
		w, err := zw.Create(name)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Zeros streams n zero bytes: a picture part far over any size bound that
// compresses to almost nothing.
func Zeros(n int64) func(io.Writer) error {
	return func(w io.Writer) error {
		chunk := make([]byte, 1<<20)
		for n > 0 {
			k := min(n, int64(len(chunk)))
			if _, err := w.Write(chunk[:k]); err != nil {
				return err
			}
			n -= k
		}
		return nil
	}
}

// PNGHeader returns a PNG that is only a signature and an IHDR chunk
// declaring width x height 8-bit RGBA pixels (no pixel data): a picture a
// few dozen bytes long whose header asks for any amount of memory.
func PNGHeader(width, height uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], width)
	binary.BigEndian.PutUint32(ihdr[4:], height)
	ihdr[8], ihdr[9] = 8, 6 // bit depth 8, colour type RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}
