package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The store's directories and objects are the owner's only (0700 and
// 0600): they hold an organization's confidential decks (issue 23).
func TestFSObjectsAreTheOwnersOnly(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	s, err := NewFS(root)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.Put(context.Background(), []byte("a confidential slide"))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		root:                       0o700,
		filepath.Join(root, "tmp"): 0o700,
		filepath.Dir(s.path(ref)):  0o700,
		s.path(ref):                0o600,
	} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", path, got, want)
		}
	}
}
