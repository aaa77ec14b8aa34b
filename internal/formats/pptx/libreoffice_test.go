package pptx

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
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
	var args []string
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	profile := "file://" + filepath.Join(dir, "profile")
	cmd := exec.Command(lo, append([]string{"-env:UserInstallation=" + profile, "--headless", "--convert-to", "pdf", "--outdir", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("libreoffice: %v\n%s", err, out)
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
