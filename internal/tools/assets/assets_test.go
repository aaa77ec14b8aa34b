package assets

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func pngOf(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func library(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range []struct {
		path string
		w, h int
	}{{"logos/acme-logo.png", 200, 80}, {"photos/team-meeting.png", 300, 200}, {"photos/city.png", 400, 100}} {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, pngOf(f.w, f.h), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "tags.json"), []byte(`{"photos/city.png": ["skyline", "urban"]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "photos", "team-meeting.png.tags"), []byte("people, office"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not an image"), 0o644)
	return dir
}

func TestLocalSearchesFileNamesAndTags(t *testing.T) {
	l := NewLocal(library(t))
	ctx := context.Background()
	for q, want := range map[string]string{"acme": "local:logos/acme-logo.png", "skyline": "local:photos/city.png", "office people": "local:photos/team-meeting.png"} {
		hits, err := l.Search(ctx, q, 5)
		if err != nil || len(hits) == 0 || hits[0].ID != want {
			t.Errorf("search %q: %v %+v", q, err, hits)
		}
	}
	all, _ := l.Search(ctx, "", 10)
	if len(all) != 3 {
		t.Errorf("listing has %d images, want 3 (notes.txt is not one)", len(all))
	}
	img, err := l.Fetch(ctx, "local:photos/city.png")
	if err != nil || img.Width != 400 || img.Height != 100 || img.MimeType != "image/png" {
		t.Errorf("fetch: %v %+v", err, img.Width)
	}
	for _, bad := range []string{"local:../../etc/passwd", "local:/etc/passwd", "local:missing.png"} {
		if _, err := l.Fetch(ctx, bad); err == nil {
			t.Errorf("fetch %q succeeded", bad)
		}
	}
}

func TestNoLibraryGivesAClearError(t *testing.T) {
	t.Setenv("ACE_ASSET_DIR", "")
	t.Setenv("UNSPLASH_ACCESS_KEY", "")
	_, err := FromEnv().Search(context.Background(), "x", 1)
	if err == nil || !strings.Contains(err.Error(), "ACE_ASSET_DIR") {
		t.Errorf("%v", err)
	}
}

func TestUnsplashSearchAndFetchOverHTTP(t *testing.T) {
	photo := pngOf(64, 32)
	var srv *httptest.Server
	var downloads int
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/img/abc.png" { // the CDN needs no key
			w.Write(photo)
			return
		}
		if r.Header.Get("Authorization") != "Client-ID key123" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		p := map[string]any{"id": "abc", "width": 64, "height": 32, "alt_description": "a red square",
			"urls": map[string]string{"regular": srv.URL + "/img/abc.png"}, "links": map[string]string{"download_location": srv.URL + "/photos/abc/download"},
			"user": map[string]string{"name": "Ann"}}
		switch {
		case r.URL.Path == "/search/photos" && r.URL.Query().Get("query") == "red":
			json.NewEncoder(w).Encode(map[string]any{"results": []any{p}})
		case r.URL.Path == "/photos/abc":
			json.NewEncoder(w).Encode(p)
		case r.URL.Path == "/photos/abc/download":
			downloads++
			w.Write([]byte(`{}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	u := NewUnsplash("key123")
	u.BaseURL = srv.URL
	ctx := context.Background()
	hits, err := u.Search(ctx, "red", 5)
	if err != nil || len(hits) != 1 || hits[0].ID != "unsplash:abc" || hits[0].Attribution != "Photo by Ann on Unsplash" {
		t.Fatalf("search: %v %+v", err, hits)
	}
	img, err := u.Fetch(ctx, hits[0].ID)
	if err != nil || !bytes.Equal(img.Data, photo) || img.Width != 64 || downloads != 1 {
		t.Fatalf("fetch: %v (downloads %d)", err, downloads)
	}
	bad := NewUnsplash("wrong")
	bad.BaseURL = srv.URL
	if _, err := bad.Search(ctx, "red", 1); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("bad key: %v", err)
	}
	// a chain of library then Unsplash finds both kinds of id
	c := Chain{NewLocal(library(t)), u}
	if _, err := c.Fetch(ctx, "unsplash:abc"); err != nil {
		t.Errorf("chain fetch: %v", err)
	}
	if hits, _ := c.Search(ctx, "red", 5); len(hits) != 1 {
		t.Errorf("chain search %+v", hits)
	}
}
