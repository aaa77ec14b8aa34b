// Package deckio reads and writes decks by file name: .pptx through the
// PresentationML importer/exporter, .json as an ACE scene graph or a Figma
// REST response (told apart by their keys). Every CLI command and the
// workflow's import and export steps use it, so a format is handled the
// same way everywhere.
package deckio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/acecanvas/ace/internal/formats/figma"
	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
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
	switch f {
	case PPTX:
		d, blobs, err := pptx.Import(data, filepath.Base(name))
		if err != nil {
			return nil, nil, fmt.Errorf("import %s: %w", name, err)
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

// Load reads and imports a deck file.
func Load(path string) (*sg.Deck, sg.Blobs, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read deck: %w", err)
	}
	return Decode(path, data)
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

// Save exports a deck to path, writing a temporary file first and renaming
// it, so a crash never leaves a half-written deck and an existing file is
// replaced only by a complete one. It refuses to overwrite the file the
// deck was imported from (the original is never modified in place) unless
// overwrite is set.
func Save(path string, d *sg.Deck, assets sg.AssetSource, overwrite bool) error {
	b, err := Encode(path, d, assets)
	if err != nil {
		return err
	}
	// A new deck is readable by others like any saved document (0644; the
	// temporary file would otherwise keep CreateTemp's 0600); a replaced
	// one keeps its mode.
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		if !overwrite {
			return fmt.Errorf("%s exists: choose another output path (ACE never overwrites a deck in place)", path)
		}
		mode = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ace-*"+filepath.Ext(path))
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	if werr == nil {
		werr = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}
