package pptx

import (
	"strings"
	"unicode/utf8"
)

// symbolFontBullets maps the code points of symbol fonts that PowerPoint
// themes use for bullets (a:buFont naming Wingdings, Wingdings 3 or
// Symbol) to the Unicode character each glyph draws. The scene graph keeps
// a bullet's character but not its font, and the fonts are not installed,
// so without this "§" in Wingdings (a small square) would show as "§".
// Keys are the byte PowerPoint stores, either as the character itself or
// in the Private Use Area at U+F000+byte. Only the glyphs common themes
// use as bullets are listed (Wingdings 3 "u" is the Facet theme's ▶, as
// LibreOffice draws it); any other code point keeps its character.
var symbolFontBullets = map[string]map[byte]string{
	"wingdings": {
		0x6C: "●", 0x6D: "❍", 0x6E: "■", 0x6F: "□", 0x70: "◼", 0x71: "❑", 0x72: "❒", 0x73: "⧫", 0x74: "⧫",
		0x75: "◆", 0x76: "❖", 0x77: "⬥", 0x9F: "•", 0xA1: "○", 0xA7: "▪", 0xA8: "◻", 0xD8: "➢",
		0xE0: "➢", 0xE8: "➔", 0xF0: "⇨", 0xFB: "✗", 0xFC: "✓", 0xFE: "☑",
	},
	"wingdings 3": {
		0x70: "▲", 0x71: "▼", 0x74: "◀", 0x75: "▶",
	},
	"symbol": {
		0xB7: "•", 0xA8: "♦", 0xA7: "♣", 0xA9: "♥", 0xAA: "♠", 0xAE: "→", 0xDE: "⇒", 0x2D: "−", 0xD7: "·",
	},
}

// symbolBullet returns the Unicode character a bullet ch drawn in the
// typeface font shows: ch itself unless font is a symbol font listed in
// symbolFontBullets and ch is one of its mapped code points.
func symbolBullet(font, ch string) string {
	table, ok := symbolFontBullets[strings.ToLower(strings.TrimSpace(font))]
	if !ok || ch == "" {
		return ch
	}
	r, size := utf8.DecodeRuneInString(ch)
	if size != len(ch) {
		return ch
	}
	var b byte
	switch {
	case r >= 0xF000 && r <= 0xF0FF:
		b = byte(r - 0xF000)
	case r <= 0xFF:
		b = byte(r)
	default:
		return ch
	}
	if m, ok := table[b]; ok {
		return m
	}
	return ch
}
