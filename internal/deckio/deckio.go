// Package deckio reads and writes decks by file name: .pptx through the
// PresentationML importer/exporter, .json as an ACE scene graph or a Figma
// REST response (told apart by their keys). Every CLI command and the
// workflow's import and export steps use it, so a format is handled the
// same way everywhere.
package deckio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acecanvas/ace/internal/formats/figma"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/outfile"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
)

// Format names a deck file format.
type Format string

const (
	PPTX      Format = "pptx"
	SceneJSON Format = "json"  // ACE scene graph
	FigmaJSON Format = "figma" // Figma REST GET /v1/files/:key[/nodes]
)

// Detect tells the format of a file from its name and first bytes.
func Detect(name string, data []byte) (Format, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pptx":
		return PPTX, nil
	case ".json":
		return sniffJSON(data)
	}
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		return PPTX, nil
	}
	return "", fmt.Errorf("%s: unknown deck format; want .pptx, an ACE scene-graph .json or a Figma REST .json", name)
}

func sniffJSON(data []byte) (Format, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		// Let the scene-graph decoder give the precise syntax error.
		return SceneJSON, nil
	}
	if _, ok := probe["document"]; ok {
		return FigmaJSON, nil
	}
	if _, ok := probe["nodes"]; ok {
		return FigmaJSON, nil
	}
	return SceneJSON, nil
}

// Decode imports deck bytes; name gives the format (by extension) and is
// used in error messages. The blobs hold image bytes and, for a .pptx, the
// original package (needed to export untouched parts byte-identical).
func Decode(name string, data []byte) (*sg.Deck, sg.Blobs, error) {
	f, err := Detect(name, data)
	if err != nil {
		return nil, nil, err
	}
	return decodeAs(f, name, data)
}

// decodeAs imports data in format f (Detect's answer).
func decodeAs(f Format, name string, data []byte) (*sg.Deck, sg.Blobs, error) {
	switch f {
	case PPTX:
		d, blobs, err := pptx.Import(data, filepath.Base(name))
		if err != nil {
			// The importer names the file by its base name; name it once,
			// by the path the user gave.
			if rest, ok := strings.CutPrefix(err.Error(), filepath.Base(name)+": "); ok {
				// Keep the typed cause (a *scenegraph.ValidationError,
				// say) when the importer wrapped one.
				if inner := errors.Unwrap(err); inner != nil && inner.Error() == rest {
					return nil, nil, fmt.Errorf("%s: %w", name, inner)
				}
				return nil, nil, fmt.Errorf("%s: %s", name, rest)
			}
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		return d, blobs, nil
	case FigmaJSON:
		d, err := figma.Import(data)
		if err != nil {
			return nil, nil, fmt.Errorf("import %s: %w", name, err)
		}
		return d, sg.Blobs{}, nil
	default:
		d, err := sg.Decode(data)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", name, err)
		}
		return d, sg.Blobs{}, nil
	}
}

// AssetsDir is where a scene-graph .json deck keeps its pictures and, for a
// deck imported from .pptx, the original package: the folder beside it
// named like the file with .assets for the extension (deck.json ->
// deck.assets), a content-addressed store (internal/store.FS).
func AssetsDir(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".assets"
}

// referenced lists the asset refs a deck needs: its asset table and the
// original file it was imported from.
func referenced(d *sg.Deck) []string {
	refs := make([]string, 0, len(d.Assets)+1)
	for ref := range d.Assets {
		refs = append(refs, ref)
	}
	if d.Source != nil && d.Source.Ref != "" {
		refs = append(refs, d.Source.Ref)
	}
	sort.Strings(refs)
	return refs
}

// MissingAssets lists the pictures (refs of d.Assets, sorted) that assets
// cannot supply: a scene-graph .json copied without its AssetsDir. Such
// pictures render as placeholders and cannot be exported.
func MissingAssets(d *sg.Deck, assets sg.AssetSource) []string {
	var out []string
	for ref := range d.Assets {
		if assets == nil {
			out = append(out, ref)
			continue
		}
		if _, err := assets.AssetBytes(ref); err != nil {
			out = append(out, ref)
		}
	}
	sort.Strings(out)
	return out
}

// loadAssets reads the assets a scene-graph deck references from its
// AssetsDir, when there is one; refs it lacks are left out.
func loadAssets(path string, d *sg.Deck) (sg.Blobs, error) {
	blobs := sg.Blobs{}
	dir := AssetsDir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return blobs, nil
	}
	fs, err := store.NewFS(dir)
	if err != nil {
		return nil, fmt.Errorf("asset folder %s: %w", dir, err)
	}
	ctx := context.Background()
	for _, ref := range referenced(d) {
		if ok, _ := fs.Has(ctx, ref); !ok {
			continue
		}
		b, err := fs.Get(ctx, ref)
		if err != nil {
			return nil, fmt.Errorf("asset folder %s: %w", dir, err)
		}
		blobs[ref] = b
	}
	return blobs, nil
}

// saveAssets writes the assets a deck references, as far as assets has
// them, into the AssetsDir of path.
func saveAssets(path string, d *sg.Deck, assets sg.AssetSource) error {
	if assets == nil {
		return nil
	}
	var fs *store.FS
	ctx := context.Background()
	for _, ref := range referenced(d) {
		b, err := assets.AssetBytes(ref)
		if err != nil {
			continue // not available: the deck keeps its reference
		}
		if fs == nil {
			if fs, err = store.NewFS(AssetsDir(path)); err != nil {
				return fmt.Errorf("asset folder %s: %w", AssetsDir(path), err)
			}
		}
		if _, err := fs.Put(ctx, b); err != nil {
			return fmt.Errorf("asset folder %s: %w", AssetsDir(path), err)
		}
	}
	return nil
}

// Load reads and imports a deck file. A scene-graph .json deck gets its
// pictures (and original .pptx) from its AssetsDir when there is one.
func Load(path string) (*sg.Deck, sg.Blobs, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read deck: %w", err)
	}
	if len(data) == 0 {
		return nil, nil, fmt.Errorf("%s is empty (0 bytes): give a .pptx, an ACE scene-graph .json or a Figma REST .json deck", path)
	}
	f, err := Detect(path, data)
	if err != nil {
		return nil, nil, err
	}
	d, blobs, err := decodeAs(f, path, data)
	if err != nil {
		return nil, nil, err
	}
	if f == SceneJSON {
		if blobs, err = loadAssets(path, d); err != nil {
			return nil, nil, err
		}
	}
	return d, blobs, nil
}

// Encode exports a deck in the format named by the file extension of name
// (.pptx or .json; Figma JSON is import-only).
func Encode(name string, d *sg.Deck, assets sg.AssetSource) ([]byte, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pptx":
		return pptx.Export(d, assets)
	case ".json":
		return sg.Encode(d)
	}
	return nil, errors.New(name + ": can only write .pptx or .json")
}

// Save exports a deck to path with outfile.Write (a temporary file renamed
// over path), so a crash never leaves a half-written deck, an existing file
// is replaced only by a complete one, and a symbolic link at path is never
// written through. It refuses to overwrite the file the
// deck was imported from (the original is never modified in place) unless
// overwrite is set. A .json deck's pictures (and original .pptx) go to its
// AssetsDir, so the deck can be loaded, rendered and exported again.
func Save(path string, d *sg.Deck, assets sg.AssetSource, overwrite bool) error {
	b, err := Encode(path, d, assets)
	if err != nil {
		return err
	}
	return WriteEncoded(path, b, d, assets, overwrite)
}

// WriteEncoded writes b, the encoding of d in path's format (Encode's
// output, or an export step's), as Save does: atomically, never over
// another file unless overwrite is set, with a .json deck's pictures in
// its AssetsDir.
func WriteEncoded(path string, b []byte, d *sg.Deck, assets sg.AssetSource, overwrite bool) error {
	if _, err := os.Stat(path); err == nil && !overwrite {
		return fmt.Errorf("%s exists: choose another output path (ACE never overwrites a deck in place)", path)
	}
	// A new deck is 0644, a replaced one keeps its mode; a symbolic link
	// at path is replaced itself only when overwrite is set, never
	// written through.
	if err := outfile.Write(path, b, overwrite); err != nil {
		return err
	}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return saveAssets(path, d, assets)
	}
	return nil
}
