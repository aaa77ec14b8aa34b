package scenegraph

import (
	"strconv"
	"strings"
)

// Deck is a presentation: ordered slides, the design tokens they draw on, and
// the assets they reference.
type Deck struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Width and Height of every slide, px.
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Tokens Tokens  `json:"tokens"`
	Slides []*Node `json:"slides"`
	// Assets maps an asset ref (the hex SHA-256 of its bytes) to its
	// metadata; the bytes live in the store (internal/store).
	Assets map[string]Asset `json:"assets,omitempty"`
	// Sections names runs of slides (PowerPoint sections), in order.
	Sections []Section `json:"sections,omitempty"`
	// IDSeq is the highest sequence number NewID has handed out. It only
	// grows, so a fresh id is never one the deck's history has seen.
	IDSeq uint64 `json:"idSeq,omitempty"`
	// Source records the file the deck was imported from.
	Source *DeckSource `json:"source,omitempty"`
}

// DeckSource is the imported file, kept so export can write back untouched
// parts byte-identical.
type DeckSource struct {
	Format string `json:"format"`         // "pptx" | "figma" | "json"
	Name   string `json:"name,omitempty"` // original file name
	Ref    string `json:"ref,omitempty"`  // store ref of the original bytes
	// UnreadablePictures are the pictures of the file the importer could
	// not read, in import order: each is a warning of every edit of the
	// deck (see UnreadablePicture).
	UnreadablePictures []UnreadablePicture `json:"unreadablePictures,omitempty"`
}

// Section is a named group of consecutive slides.
type Section struct {
	Name     string   `json:"name"`
	SlideIDs []string `json:"slideIds"`
}

// Asset describes an image or media file by content address.
type Asset struct {
	MimeType string `json:"mimeType"`
	Bytes    int64  `json:"bytes"`
	Width    int    `json:"width,omitempty"`  // intrinsic px, when known
	Height   int    `json:"height,omitempty"` // intrinsic px, when known
	Name     string `json:"name,omitempty"`   // original file name
}

// Tokens is the deck's design system: named colours, fonts per script slot
// and named text styles (OOXML theme a:clrScheme / a:fontScheme; Figma
// styles and variables).
type Tokens struct {
	Colors     map[string]Color     `json:"colors,omitempty"` // "dk1", "accent1", "brand.primary", ...
	Fonts      FontTokens           `json:"fonts"`
	TextStyles map[string]TypeStyle `json:"textStyles,omitempty"` // "title", "body", "h1", ...
	Variables  map[string]string    `json:"variables,omitempty"`
}

// FontTokens are the theme's heading (major) and body (minor) fonts.
type FontTokens struct {
	Major ScriptFonts `json:"major"`
	Minor ScriptFonts `json:"minor"`
}

// ScriptFonts names a typeface per script slot (a:latin, a:ea, a:cs).
type ScriptFonts struct {
	Latin     string `json:"latin,omitempty"`
	EastAsian string `json:"eastAsian,omitempty"`
	Complex   string `json:"complex,omitempty"`
}

// SlideByID returns the slide with that id and its 0-based position, or
// (nil, -1).
func (d *Deck) SlideByID(id string) (*Node, int) {
	for i, s := range d.Slides {
		if s.ID == id {
			return s, i
		}
	}
	return nil, -1
}

// SlideRanges writes ascending 1-based slide numbers as runs joined by sep:
// "1-4, 7, 9-10" with sep ", ". Used wherever the model reads a list of
// slides (route contexts, observations).
func SlideRanges(nums []int, sep string) string {
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, strconv.Itoa(nums[i])+"-"+strconv.Itoa(nums[j]))
		} else {
			parts = append(parts, strconv.Itoa(nums[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, sep)
}

// SlideTitle is the text of a slide's title placeholder (role title or
// ctrTitle, ECMA-376 §19.7.10 ST_PlaceholderType), else its first text in
// document order that is not a date, footer, header or slide-number
// placeholder; "" for a slide without such text. TitleText says which.
func (s *Node) SlideTitle() string {
	t, _ := s.TitleText()
	return t
}

// TitleText is SlideTitle with isTitle reporting whether the text came
// from a title placeholder (true) or is only the slide's first text
// (false), so a reader can tell "Revenue" the title from "Revenue" a
// caption. Date (dt), footer (ftr), header (hdr) and slide-number
// (sldNum) placeholders never stand in for a title: "21" is not a title.
func (s *Node) TitleText() (text string, isTitle bool) {
	var first string
	s.Walk(func(n, _ *Node, _ int) bool {
		if isTitle {
			return false
		}
		if n.Characters == "" {
			return true
		}
		if n.Placeholder != nil {
			switch n.Placeholder.Role {
			case "title", "ctrTitle":
				text, isTitle = n.Characters, true
				return false
			case "dt", "ftr", "hdr", "sldNum":
				return true
			}
		}
		if first == "" && strings.TrimSpace(n.Characters) != "" {
			first = n.Characters
		}
		return true
	})
	if isTitle {
		return text, true
	}
	return first, false
}

// UsesTitlePlaceholders reports whether any slide's title comes from a
// title placeholder (Node.TitleText). A deck that has none (Google
// Slides exports often use plain text boxes) has its first texts as
// titles in all but name; a deck that has some has real untitled slides.
func (d *Deck) UsesTitlePlaceholders() bool {
	for _, s := range d.Slides {
		if s == nil {
			continue
		}
		if _, ok := s.TitleText(); ok {
			return true
		}
	}
	return false
}
