package scenegraph

import (
	"fmt"
	"net/http"
)

// AssetSource returns the bytes of an asset by ref (hex SHA-256). The store
// implements it; Blobs is the in-memory form importers return.
type AssetSource interface {
	AssetBytes(ref string) ([]byte, error)
}

// Blobs maps an asset ref to its bytes.
type Blobs map[string][]byte

// AssetBytes returns the bytes or an error naming the missing ref.
func (b Blobs) AssetBytes(ref string) ([]byte, error) {
	if data, ok := b[ref]; ok {
		return data, nil
	}
	return nil, fmt.Errorf("asset %s: bytes not found", short(ref))
}

// Put stores data under its SHA-256 and returns the ref.
func (b Blobs) Put(data []byte) string {
	ref := HashBytes(data)
	b[ref] = data
	return ref
}

// AddAsset records data in the deck's asset table and in blobs, returning
// its ref. mime may be empty, then it is sniffed from the bytes; width and
// height are the intrinsic pixel size when known (0 otherwise).
func (d *Deck) AddAsset(blobs Blobs, data []byte, mime, name string, width, height int) string {
	ref := blobs.Put(data)
	if mime == "" {
		mime = http.DetectContentType(data)
	}
	if d.Assets == nil {
		d.Assets = map[string]Asset{}
	}
	d.Assets[ref] = Asset{MimeType: mime, Bytes: int64(len(data)), Width: width, Height: height, Name: name}
	return ref
}
