package assets

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // register decoders for DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

// MaxImageBytes bounds one image read from the library or the network.
const MaxImageBytes = 32 << 20

// imageExts are the file types the library lists.
var imageExts = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".svg": "image/svg+xml",
}

// Local is an asset library directory. Files are matched by the words of
// their path and by tags, read from an optional tags.json at the root
// ({"logos/acme.png": ["logo", "brand"]}) or a "<file>.tags" sidecar with
// comma- or space-separated words.
type Local struct {
	Dir string
}

// NewLocal returns the library at dir.
func NewLocal(dir string) *Local { return &Local{Dir: dir} }

type entry struct {
	rel  string
	tags []string
}

func (l *Local) list() ([]entry, error) {
	info, err := os.Stat(l.Dir)
	if err != nil {
		return nil, fmt.Errorf("asset library %s: %w (set ACE_ASSET_DIR to an existing directory)", l.Dir, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("asset library %s is not a directory", l.Dir)
	}
	tagFile := map[string][]string{}
	if b, err := os.ReadFile(filepath.Join(l.Dir, "tags.json")); err == nil {
		if err := json.Unmarshal(b, &tagFile); err != nil {
			return nil, fmt.Errorf("asset library %s: tags.json: %v (want {\"file.png\": [\"tag\", ...]})", l.Dir, err)
		}
	}
	var out []entry
	err = filepath.WalkDir(l.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if _, ok := imageExts[strings.ToLower(filepath.Ext(p))]; !ok {
			return nil
		}
		rel, _ := filepath.Rel(l.Dir, p)
		rel = filepath.ToSlash(rel)
		tags := slices.Clone(tagFile[rel])
		if b, err := os.ReadFile(p + ".tags"); err == nil {
			tags = append(tags, words(string(b))...)
		}
		out = append(out, entry{rel: rel, tags: tags})
		return nil
	})
	return out, err
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Search scores files by how many query words their path or tags contain
// (a tag match counts double); ties go to the shorter path. An empty query
// lists the library.
func (l *Local) Search(_ context.Context, query string, limit int) ([]Hit, error) {
	ents, err := l.list()
	if err != nil {
		return nil, err
	}
	q := words(query)
	type scored struct {
		e     entry
		score int
	}
	var hits []scored
	for _, e := range ents {
		score := 0
		pathWords := words(strings.TrimSuffix(e.rel, filepath.Ext(e.rel)))
		for _, w := range q {
			for _, t := range e.tags {
				if strings.EqualFold(t, w) {
					score += 2
				}
			}
			for _, pw := range pathWords {
				if strings.Contains(pw, w) {
					score++
					break
				}
			}
		}
		if len(q) == 0 || score > 0 {
			hits = append(hits, scored{e, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		if len(a.e.rel) != len(b.e.rel) {
			return len(a.e.rel) - len(b.e.rel)
		}
		return strings.Compare(a.e.rel, b.e.rel)
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Hit, 0, len(hits))
	for _, h := range hits {
		hit := Hit{ID: "local:" + h.e.rel, Name: filepath.Base(h.e.rel), Tags: h.e.tags, Source: "local"}
		if f, err := os.Open(filepath.Join(l.Dir, filepath.FromSlash(h.e.rel))); err == nil {
			if cfg, _, err := image.DecodeConfig(f); err == nil {
				hit.Width, hit.Height = cfg.Width, cfg.Height
			}
			f.Close()
		}
		out = append(out, hit)
	}
	return out, nil
}

// Fetch reads "local:<path>" (or a bare relative path) from the library.
// Paths may not leave the library directory.
func (l *Local) Fetch(_ context.Context, id string) (Image, error) {
	rel := strings.TrimPrefix(id, "local:")
	if strings.HasPrefix(id, "unsplash:") {
		return Image{}, fmt.Errorf("image %q is not in the local library", id)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return Image{}, fmt.Errorf("image %q: path leaves the asset library; use an id from search", id)
	}
	p := filepath.Join(l.Dir, clean)
	info, err := os.Stat(p)
	if err != nil {
		return Image{}, fmt.Errorf("image %q: %w; search the library for ids", id, err)
	}
	if info.Size() > MaxImageBytes {
		return Image{}, fmt.Errorf("image %q is %d bytes, over the %d-byte limit", id, info.Size(), MaxImageBytes)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return Image{}, fmt.Errorf("image %q: %w", id, err)
	}
	return Decode(id, filepath.Base(p), data)
}

// Decode fills an Image from bytes: MIME type from the extension or the
// content, intrinsic size for PNG, JPEG and GIF.
func Decode(id, name string, data []byte) (Image, error) {
	mime := imageExts[strings.ToLower(filepath.Ext(name))]
	if mime == "" {
		mime = http.DetectContentType(data)
	}
	if !strings.HasPrefix(mime, "image/") {
		return Image{}, fmt.Errorf("image %q: content is %s, not an image", id, mime)
	}
	img := Image{ID: id, Name: name, MimeType: mime, Data: data}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		img.Width, img.Height = cfg.Width, cfg.Height
	}
	return img, nil
}
