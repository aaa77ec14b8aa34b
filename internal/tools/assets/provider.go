// Package assets finds images for ACE's image tools: a local asset library
// directory (an organization's logos and stock photos, searchable by file
// name and tags) and, when an access key is configured, the Unsplash API.
// No other network access is made (ACE issue 4, "Images").
package assets

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// Hit is one search result.
type Hit struct {
	ID          string   `json:"id"` // pass to Fetch; "local:<path>" or "unsplash:<id>"
	Name        string   `json:"name"`
	Tags        []string `json:"tags,omitempty"`
	Width       int      `json:"width,omitempty"`  // px, when known
	Height      int      `json:"height,omitempty"` // px, when known
	Source      string   `json:"source"`           // "local" | "unsplash"
	Attribution string   `json:"attribution,omitempty"`
}

// Image is fetched bytes with what the deck's asset table records.
type Image struct {
	ID       string
	Name     string
	MimeType string
	Data     []byte
	Width    int // px, 0 when unknown
	Height   int
	// Attribution is the credit line the source asks for (Unsplash).
	Attribution string
}

// Provider searches and fetches images.
type Provider interface {
	// Search returns at most limit hits, best first.
	Search(ctx context.Context, query string, limit int) ([]Hit, error)
	// Fetch returns the image bytes for a hit's ID.
	Fetch(ctx context.Context, id string) (Image, error)
}

// ErrNoLibrary is returned when no provider is configured.
var ErrNoLibrary = errors.New("no image library configured: set ACE_ASSET_DIR to a directory of images (and optionally UNSPLASH_ACCESS_KEY)")

// FromEnv builds the default provider: the directory in ACE_ASSET_DIR, then
// Unsplash when UNSPLASH_ACCESS_KEY is set. With neither it returns a
// provider whose calls fail with ErrNoLibrary.
func FromEnv() Provider {
	var ps []Provider
	if dir := os.Getenv("ACE_ASSET_DIR"); dir != "" {
		ps = append(ps, NewLocal(dir))
	}
	if key := os.Getenv("UNSPLASH_ACCESS_KEY"); key != "" {
		ps = append(ps, NewUnsplash(key))
	}
	switch len(ps) {
	case 0:
		return none{}
	case 1:
		return ps[0]
	}
	return Chain(ps)
}

type none struct{}

func (none) Search(context.Context, string, int) ([]Hit, error) { return nil, ErrNoLibrary }
func (none) Fetch(context.Context, string) (Image, error)       { return Image{}, ErrNoLibrary }

// Chain searches every provider in order and concatenates the hits; Fetch
// asks each until one knows the id.
type Chain []Provider

// Search implements Provider.
func (c Chain) Search(ctx context.Context, q string, limit int) ([]Hit, error) {
	var out []Hit
	var errs []error
	for _, p := range c {
		if len(out) >= limit {
			break
		}
		hits, err := p.Search(ctx, q, limit-len(out))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, hits...)
	}
	if len(out) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// Fetch implements Provider.
func (c Chain) Fetch(ctx context.Context, id string) (Image, error) {
	var errs []error
	for _, p := range c {
		img, err := p.Fetch(ctx, id)
		if err == nil {
			return img, nil
		}
		errs = append(errs, err)
	}
	return Image{}, fmt.Errorf("image %q: %w", id, errors.Join(errs...))
}
