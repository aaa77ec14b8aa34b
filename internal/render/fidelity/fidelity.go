// Package fidelity measures how closely the renderer's slides match an
// independent renderer of the same PPTX: LibreOffice Impress converting to
// PDF, rasterised by pdftoppm. The score is the mean structural similarity
// (SSIM; Wang et al. 2004) of the two slide images in luminance, computed
// on 8x8 windows after both are scaled to a common size.
//
// It is a measuring tool for tests and reports, not part of the render
// path, so it may shell out to LibreOffice and poppler.
package fidelity

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// LibreOfficePNGs converts the PPTX at path to one PNG per slide of
// width x height px in outDir, with a private LibreOffice profile (so runs
// do not fight over ~/.config), and returns the PNG paths in slide order.
// Errors name the tool that failed and its output.
func LibreOfficePNGs(ctx context.Context, path, outDir string, width, height int) ([]string, error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	profile := filepath.Join(outDir, "lo-profile")
	cmd := exec.CommandContext(ctx, "libreoffice", "-env:UserInstallation=file://"+profile,
		"--headless", "--convert-to", "pdf", "--outdir", outDir, path)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("fidelity: libreoffice --convert-to pdf %s: %w: %s", path, err, out)
	}
	pdf := filepath.Join(outDir, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".pdf")
	if _, err := os.Stat(pdf); err != nil {
		return nil, fmt.Errorf("fidelity: libreoffice wrote no PDF for %s", path)
	}
	return PDFPNGs(ctx, pdf, outDir, width, height)
}

// PDFPNGs rasterises every page of a PDF with pdftoppm to a PNG of
// width x height px in outDir (lo-<page>.png) and returns their paths in
// page order. Errors name the PDF and pdftoppm's output.
func PDFPNGs(ctx context.Context, pdf, outDir string, width, height int) ([]string, error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	prefix := filepath.Join(outDir, "lo")
	cmd := exec.CommandContext(ctx, "pdftoppm", "-png", "-scale-to-x", fmt.Sprint(width), "-scale-to-y", fmt.Sprint(height), pdf, prefix)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("fidelity: pdftoppm %s: %w: %s", pdf, err, out)
	}
	pngs, err := filepath.Glob(prefix + "-*.png")
	if err != nil {
		return nil, err
	}
	sortPages(pngs)
	return pngs, nil
}

// sortPages orders pdftoppm's page files (it pads the page number to the
// width of the last one, so equal-length names sort as text).
func sortPages(pngs []string) {
	sort.Slice(pngs, func(i, j int) bool {
		if len(pngs[i]) != len(pngs[j]) {
			return len(pngs[i]) < len(pngs[j])
		}
		return pngs[i] < pngs[j]
	})
}

// ReadPNG decodes a PNG file.
func ReadPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("fidelity: %s: %w", path, err)
	}
	return img, nil
}

// CompareWidth is the width both images are scaled to before comparing;
// small enough that anti-aliasing and hinting differences wash out, large
// enough that a misplaced text line or a missing shape shows.
const CompareWidth = 480

// SSIM returns the mean structural similarity of a and b in luminance,
// over 8x8 windows, after scaling both to CompareWidth (height from a's
// aspect). 1 means identical; unrelated slides score around 0.1-0.3.
func SSIM(a, b image.Image) float64 {
	w := CompareWidth
	h := max(8, a.Bounds().Dy()*w/max(1, a.Bounds().Dx()))
	la, lb := luma(a, w, h), luma(b, w, h)
	const (
		c1  = (0.01 * 255) * (0.01 * 255)
		c2  = (0.03 * 255) * (0.03 * 255)
		win = 8
	)
	var sum float64
	n := 0
	for y := 0; y+win <= h; y += win / 2 {
		for x := 0; x+win <= w; x += win / 2 {
			var ma, mb float64
			for yy := y; yy < y+win; yy++ {
				for xx := x; xx < x+win; xx++ {
					ma += la[yy*w+xx]
					mb += lb[yy*w+xx]
				}
			}
			k := float64(win * win)
			ma, mb = ma/k, mb/k
			var va, vb, cov float64
			for yy := y; yy < y+win; yy++ {
				for xx := x; xx < x+win; xx++ {
					da, db := la[yy*w+xx]-ma, lb[yy*w+xx]-mb
					va += da * da
					vb += db * db
					cov += da * db
				}
			}
			va, vb, cov = va/(k-1), vb/(k-1), cov/(k-1)
			sum += ((2*ma*mb + c1) * (2*cov + c2)) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// luma scales img to w x h by box averaging and returns BT.601 luminance
// 0..255 per pixel, row-major.
func luma(img image.Image, w, h int) []float64 {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	out := make([]float64, w*h)
	for y := 0; y < h; y++ {
		y0, y1 := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		for x := 0; x < w; x++ {
			x0, x1 := x*sw/w, max((x+1)*sw/w, x*sw/w+1)
			var s float64
			n := 0
			for yy := y0; yy < y1; yy++ {
				for xx := x0; xx < x1; xx++ {
					r, g, bl, _ := img.At(b.Min.X+xx, b.Min.Y+yy).RGBA()
					s += 0.299*float64(r>>8) + 0.587*float64(g>>8) + 0.114*float64(bl>>8)
					n++
				}
			}
			out[y*w+x] = s / float64(n)
		}
	}
	return out
}
