// Package libreoffice converts decks to PDF with a headless LibreOffice, the
// independent check that an exported .pptx opens in an office suite (a file
// that needs repair, or that LibreOffice cannot read, gives no PDF or the
// wrong page count).
package libreoffice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// ErrNotInstalled is returned when neither libreoffice nor soffice is on PATH.
var ErrNotInstalled = errors.New("LibreOffice is not installed (apt-get install libreoffice-impress)")

var pdfPage = regexp.MustCompile(`/Type\s*/Page[^s]`)

// Binary returns the LibreOffice executable, or ErrNotInstalled.
func Binary() (string, error) {
	for _, name := range []string{"libreoffice", "soffice"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotInstalled
}

// PDFPages converts every file (name -> bytes; names must be unique base
// names such as "deck.pptx") to PDF in one LibreOffice run with a private
// profile (so concurrent runs do not contend for a lock) and returns each
// PDF's page count by input name. A file LibreOffice could not convert is
// an error naming it.
func PDFPages(ctx context.Context, files map[string][]byte) (map[string]int, error) {
	pdfs, err := ToPDF(ctx, files)
	if err != nil {
		return nil, err
	}
	pages := make(map[string]int, len(pdfs))
	for name, b := range pdfs {
		pages[name] = len(pdfPage.FindAll(b, -1))
	}
	return pages, nil
}

// ToPDF converts the files and returns the PDF bytes by input name.
func ToPDF(ctx context.Context, files map[string][]byte) (map[string][]byte, error) {
	lo, err := Binary()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "ace-lo-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	args := []string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"), "--headless", "--convert-to", "pdf", "--outdir", dir}
	for name, b := range files {
		if filepath.Base(name) != name {
			return nil, fmt.Errorf("libreoffice: %q: give base names only", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return nil, err
		}
		args = append(args, filepath.Join(dir, name))
	}
	out, err := exec.CommandContext(ctx, lo, args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("libreoffice: %v\n%s", err, out)
	}
	pdfs := make(map[string][]byte, len(files))
	for name := range files {
		p := filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".pdf")
		b, err := os.ReadFile(p)
		if err != nil || !bytes.HasPrefix(b, []byte("%PDF")) {
			return nil, fmt.Errorf("libreoffice could not convert %s to PDF (%v): %s", name, err, bytes.TrimSpace(out))
		}
		pdfs[name] = b
	}
	return pdfs, nil
}
