package scenegraph

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Encode returns the canonical JSON of the deck: struct fields in declaration
// order, map keys sorted, no HTML escaping, no trailing newline. Equal decks
// give equal bytes, so Hash can address snapshots. It fails only on values
// JSON cannot hold (NaN, ±Inf), which Validate reports first.
func Encode(d *Deck) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("encode deck %q: %w", d.ID, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// HashBytes returns the lowercase hex SHA-256 of b (64 characters), the ref
// format of the snapshot store.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Hash returns the content hash of the deck: the SHA-256 of its canonical JSON.
func Hash(d *Deck) (string, error) {
	b, err := Encode(d)
	if err != nil {
		return "", err
	}
	return HashBytes(b), nil
}

// NodeDigest is the SHA-256 of a node's canonical JSON without its Source
// field, children included. Importers record it in Source.Digest; exporters
// compare it to tell an untouched node from an edited one.
func NodeDigest(n *Node) string {
	c := *n
	c.Source = nil
	c.Children = nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return "" // NaN in the node: never equal to a valid digest
	}
	h := sha256.New()
	h.Write(buf.Bytes())
	for _, ch := range n.Children {
		io.WriteString(h, NodeDigest(ch))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Limits bound what Decode and Validate accept, so a hostile or broken file
// fails fast with a clear error instead of exhausting memory.
type Limits struct {
	MaxBytes     int64 // encoded deck size
	MaxNodes     int   // nodes in the whole deck, slides included
	MaxSlides    int
	MaxDepth     int // tree depth below a slide (slide = 0)
	MaxTextRunes int // code points in one node's characters
}

// DefaultLimits hold a 10,000-slide deck of ordinary density with margin.
var DefaultLimits = Limits{
	MaxBytes:     512 << 20,
	MaxNodes:     2_000_000,
	MaxSlides:    10_000,
	MaxDepth:     64,
	MaxTextRunes: 1 << 20,
}

// Decode parses a deck from JSON and validates it with DefaultLimits.
// See DecodeWithLimits.
func Decode(data []byte) (*Deck, error) { return DecodeWithLimits(data, DefaultLimits) }

// DecodeWithLimits parses and validates a deck (after NormalizeDeckText:
// U+000B in text becomes the line break U+2028). Syntax errors say the byte
// offset, line and column; a truncated input says so; a value of the wrong
// type names the field; an unknown field is rejected by name (a misspelt key
// would otherwise be lost silently). When the JSON parses but the deck is
// invalid, the deck is returned together with a *ValidationError listing
// every problem.
func DecodeWithLimits(data []byte, lim Limits) (*Deck, error) {
	if lim.MaxBytes > 0 && int64(len(data)) > lim.MaxBytes {
		return nil, fmt.Errorf("deck JSON is %d bytes, over the limit of %d bytes: split the deck or raise Limits.MaxBytes", len(data), lim.MaxBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var d Deck
	if err := dec.Decode(&d); err != nil {
		return nil, describeJSONError(data, err, dec.InputOffset())
	}
	if dec.More() {
		return nil, fmt.Errorf("deck JSON: unexpected data after the deck object at byte %d", dec.InputOffset())
	}
	NormalizeDeckText(&d)
	if err := ValidateWithLimits(&d, lim); err != nil {
		return &d, err
	}
	return &d, nil
}

// NormalizeDeckText applies NormalizeText to every node's characters and
// speaker notes (U+000B becomes the line break U+2028). Decode and the
// importers call it before validating, so PowerPoint's soft return from
// any source is a line break, not a character the export must refuse.
func NormalizeDeckText(d *Deck) {
	for _, s := range d.Slides {
		s.Walk(func(n, _ *Node, _ int) bool {
			n.Characters = NormalizeText(n.Characters)
			if n.Slide != nil {
				n.Slide.Notes = NormalizeText(n.Slide.Notes)
			}
			return true
		})
	}
}

func describeJSONError(data []byte, err error, off int64) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF) && len(bytes.TrimSpace(data)) == 0:
		return errors.New("deck JSON is empty: expected an object with id, width, height and slides")
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("deck JSON is truncated: input ends at byte %d inside a value; the file was cut short or not fully written", len(data))
	case errors.As(err, &syn):
		line, col := lineCol(data, syn.Offset)
		return fmt.Errorf("deck JSON: syntax error at byte %d (line %d, column %d): %s", syn.Offset, line, col, syn.Error())
	case errors.As(err, &typ):
		line, col := lineCol(data, typ.Offset)
		field := typ.Field
		if field == "" {
			field = "(top level)"
		}
		return fmt.Errorf("deck JSON: field %s at line %d, column %d: got %s, want %s", field, line, col, typ.Value, typ.Type)
	default:
		line, col := lineCol(data, off)
		return fmt.Errorf("deck JSON near line %d, column %d: %w", line, col, err)
	}
}

func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col = 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
