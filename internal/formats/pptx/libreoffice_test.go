package pptx

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var pdfPage = regexp.MustCompile(`/Type\s*/Page[^s]`)

// convertToPDF converts .pptx files with LibreOffice in one headless run
// (a private profile, so concurrent runs do not share a lock) and returns
// the page count of each PDF, keyed by the input's base name. It skips the
// test when LibreOffice is not installed.
func convertToPDF(t *testing.T, files map[string][]byte) map[string]int {
	t.Helper()
	lo, err := exec.LookPath("libreoffice")
	if err != nil {
		lo, err = exec.LookPath("soffice")
	}
	if err != nil {
		t.Skip("LibreOffice not installed")
	}
	dir := t.TempDir()
	var names []string
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	// Two LibreOffice processes (each with its own profile) share the files,
	// so a two-core machine converts in about half the time.
	var wg sync.WaitGroup
	outs := make([][]byte, 2)
	errs := make([]error, 2)
	for k := 0; k < 2; k++ {
		var args []string
		for i := k; i < len(names); i += 2 {
			args = append(args, filepath.Join(dir, names[i]))
		}
		if len(args) == 0 {
			continue
		}
		wg.Add(1)
		go func(k int, args []string) {
			defer wg.Done()
			profile := "file://" + filepath.Join(dir, "profile"+strconv.Itoa(k))
			cmd := exec.Command(lo, append([]string{"-env:UserInstallation=" + profile, "--headless", "--convert-to", "pdf", "--outdir", dir}, args...)...)
			outs[k], errs[k] = cmd.CombinedOutput()
		}(k, args)
	}
	wg.Wait()
	out := append(outs[0], outs[1]...)
	for _, err := range errs {
		if err != nil {
			t.Fatalf("libreoffice: %v\n%s", err, out)
		}
	}
	pages := map[string]int{}
	for name := range files {
		pdf := filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".pdf")
		b, err := os.ReadFile(pdf)
		if err != nil {
			t.Fatalf("LibreOffice did not convert %s: %v\n%s", name, err, out)
		}
		if !bytes.HasPrefix(b, []byte("%PDF")) {
			t.Fatalf("%s: output is not a PDF", name)
		}
		pages[name] = len(pdfPage.FindAll(b, -1))
	}
	return pages
}

// libreOfficeFirstSlide converts the .pptx data with LibreOffice and
// rasterises its first page with pdftoppm at dpi (96 makes one pixel one
// px: a PDF point is 1/72 in). It skips the test when LibreOffice is not
// installed.
func libreOfficeFirstSlide(t *testing.T, data []byte, dpi int) image.Image {
	t.Helper()
	lo, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("LibreOffice not installed")
	}
	dir := t.TempDir()
	deck := filepath.Join(dir, "deck.pptx")
	if err := os.WriteFile(deck, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lo, "-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--headless", "--convert-to", "pdf", "--outdir", dir, deck)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("libreoffice: %v\n%s", err, out)
	}
	if out, err := exec.Command("pdftoppm", "-r", strconv.Itoa(dpi), "-png", "-singlefile", filepath.Join(dir, "deck.pdf"), filepath.Join(dir, "deck")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "deck.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
