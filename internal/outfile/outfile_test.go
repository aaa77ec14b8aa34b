package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	os.WriteFile(target, []byte("target"), 0o600)
	link := filepath.Join(dir, "out.pptx")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	var le *LinkError
	if err := Write(link, []byte("new"), false); !errors.As(err, &le) || le.Path != link || le.Target != target {
		t.Fatalf("want a LinkError naming the link and its target, got %v", err)
	}
	if err := Write(link, []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "target" {
		t.Fatalf("target written: %q", b)
	}
	fi, _ := os.Lstat(link)
	if b, _ := os.ReadFile(link); !fi.Mode().IsRegular() || string(b) != "new" || fi.Mode().Perm() != 0o644 {
		t.Fatalf("link not replaced by a 0644 file: %v %q", fi.Mode(), b)
	}
	// A replaced regular file keeps its mode; a dangling link is refused too.
	os.Chmod(link, 0o600)
	Write(link, []byte("again"), false)
	if fi, _ := os.Lstat(link); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after replacing", fi.Mode())
	}
	dangling := filepath.Join(dir, "d.json")
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	if err := Write(dangling, []byte("x"), false); !errors.As(err, &le) {
		t.Fatalf("dangling link: %v", err)
	}
	if err := Write(filepath.Join(dir, "new", "deep", "x.json"), []byte("x"), false); err != nil {
		t.Fatalf("missing parents: %v", err)
	}
}
