package scenegraph

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// LineBreak is the scene graph's line break inside a paragraph (U+2028
// LINE SEPARATOR); '\n' separates paragraphs. PPTX export writes it as
// a:br (ECMA-376 Part 1 §21.1.2.2.1), Figma uses it for a soft return.
const LineBreak = '\u2028'

// verticalTab (U+000B) is PowerPoint's own soft line break: it stands for
// a:br in text PowerPoint puts on the clipboard or in its object model.
const verticalTab = '\v'

// NormalizeText maps the characters that mean a line break inside a
// paragraph to LineBreak: U+000B (PowerPoint's soft return) becomes
// U+2028. Every other character is kept (CheckText says which of them a
// slide file cannot hold). Text without a vertical tab is returned as is.
func NormalizeText(s string) string {
	if !strings.ContainsRune(s, verticalTab) {
		return s
	}
	return strings.ReplaceAll(s, string(verticalTab), string(LineBreak))
}

// BadCharError is a character a slide file cannot hold: XML 1.0 §2.2
// (production [2] Char) allows only U+0009, U+000A, U+000D, U+0020-U+D7FF,
// U+E000-U+FFFD and U+10000-U+10FFFF, and every part of a .pptx is XML
// 1.0. Offset counts code points from the start of the text.
type BadCharError struct {
	Rune   rune
	Offset int
}

func (e *BadCharError) Error() string {
	return fmt.Sprintf("character U+%04X at position %d cannot be stored in a slide file (XML 1.0 §2.2 allows no control characters but tab and newline, nor U+FFFE/U+FFFF); remove it (a line break inside a paragraph is U+2028 or U+000B, a new paragraph \\n)", e.Rune, e.Offset)
}

// XMLChar reports whether XML 1.0 §2.2 allows r in a document.
func XMLChar(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xE000:
		return false // surrogates
	case r <= 0xFFFD:
		return true
	default:
		return r >= 0x10000 && r <= utf8.MaxRune
	}
}

// CheckText returns nil, or a *BadCharError for the first character of s
// XML 1.0 cannot hold (U+000B included: NormalizeText maps it first).
// Invalid UTF-8 is reported by Validate, not here.
func CheckText(s string) error {
	// Fast path: printable ASCII and ordinary text need no decoding.
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xEF {
			clean = false
			break
		}
	}
	if clean {
		return nil
	}
	k := 0
	for _, r := range s {
		if r != utf8.RuneError && !XMLChar(r) {
			return &BadCharError{Rune: r, Offset: k}
		}
		k++
	}
	return nil
}
