package route

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Compact JSON shapes shared by the serializers. Keys are short, defaults
// and empty values are left out (omitempty), numbers are rounded to 0.1 px,
// colours are "#RRGGBB[AA]" strings. See Context for what each mode keeps.

// cNode is a node of the micro and full representations: the full scene
// graph (ACE Table 21, "micro" and "full" columns).
type cNode struct {
	ID   string `json:"id"`
	Type string `json:"t"`
	Name string `json:"n,omitempty"`
	// Geometry relative to the parent (relativeTransform tx/ty, size), px.
	X      *float64 `json:"x,omitempty"`
	Y      *float64 `json:"y,omitempty"`
	W      float64  `json:"w,omitempty"`
	H      float64  `json:"h,omitempty"`
	Rot    float64  `json:"rot,omitempty"` // degrees clockwise
	Flip   bool     `json:"flip,omitempty"`
	Op     float64  `json:"op,omitempty"` // opacity when < 1
	Hide   bool     `json:"hidden,omitempty"`
	Fill   []string `json:"fill,omitempty"`
	Strk   string   `json:"stroke,omitempty"` // "#hex 2px" (+ " dash")
	FX     []string `json:"fx,omitempty"`
	Rad    string   `json:"radius,omitempty"`
	Clip   bool     `json:"clip,omitempty"`
	Ph     string   `json:"ph,omitempty"` // placeholder role
	Txt    string   `json:"txt,omitempty"`
	Font   string   `json:"font,omitempty"` // "Inter 24 700 italic"
	Color  string   `json:"color,omitempty"`
	Align  string   `json:"align,omitempty"`
	TStyle string   `json:"tstyle,omitempty"` // case, decoration, spacing, line height
	Runs   []cRun   `json:"runs,omitempty"`
	Paras  []string `json:"paras,omitempty"`
	Box    string   `json:"textbox,omitempty"`
	AL     string   `json:"layout,omitempty"` // auto-layout container
	Size   string   `json:"sizing,omitempty"` // FILL/HUG per axis, absolute
	Tbl    *cTable  `json:"table,omitempty"`
	Cell   []int    `json:"cell,omitempty"` // row, column[, rowSpan, colSpan]
	Chart  *cChart  `json:"chart,omitempty"`
	Img    string   `json:"img,omitempty"`
	TeX    string   `json:"latex,omitempty"`
	Conn   string   `json:"connector,omitempty"`
	Link   string   `json:"link,omitempty"`
	Alt    string   `json:"alt,omitempty"`
	Kids   []*cNode `json:"kids,omitempty"`
}

// cRun is a style override on characters [S, E) (code points).
type cRun struct {
	S  int    `json:"s"`
	E  int    `json:"e"`
	St string `json:"st"`
}

type cTable struct {
	Cols   []float64 `json:"cols"`
	Rows   []float64 `json:"rows"`
	Header bool      `json:"header,omitempty"`
	Banded bool      `json:"banded,omitempty"`
}

type cChart struct {
	Type   string    `json:"type"`
	Title  string    `json:"title,omitempty"`
	Cats   []string  `json:"cats"`
	Series []cSeries `json:"series"`
	Opts   string    `json:"opts,omitempty"`
}

type cSeries struct {
	Name  string    `json:"n"`
	Vals  []float64 `json:"v"`
	Color string    `json:"color,omitempty"`
	// Fmt is the values' number format ("0.0%": 0.16 shows as 16.0%).
	Fmt string `json:"fmt,omitempty"`
}

// reAutoName matches layer names an authoring tool made up (PowerPoint's
// "TextBox 12", "Rectangle 3", "Title 1"; Google Slides' "Google
// Shape;130;p15"): they say nothing the type and placeholder role do not,
// so the serializers leave them out ("no defaults"). The diff still
// aligns by them.
var reAutoName = regexp.MustCompile(`^(?:(?:Text ?Box|Frame|Vector|Polygon|Star|Rectangle|Rounded Rectangle|Oval|Ellipse|Picture|Image|Graphic|Straight (?:Arrow )?Connector|Elbow Connector|Curved Connector|Connector|Freeform|Freeform: Shape|Group|Table|Chart|Diagram|Line|Shape|Isosceles Triangle|Right Triangle|Right Arrow|Left Arrow|Arrow|Content Placeholder|Text Placeholder|Picture Placeholder|Title|Subtitle|Footer Placeholder|Slide Number Placeholder|Date Placeholder|Footer|Slide Number|Date|Object|TextShape|Vertical Title|Vertical Text Placeholder)(?: \d+)?|Google Shape;\d+;p\d+)$`)

func nodeName(name string) string {
	if reAutoName.MatchString(name) {
		return ""
	}
	return name
}

func r1(v float64) float64 { return math.Round(v*10) / 10 }

func ptr(v float64) *float64 {
	v = r1(v)
	if v == 0 {
		return nil
	}
	return &v
}

func hexOf(c *scenegraph.Color) string {
	if c == nil {
		return ""
	}
	return c.Hex()
}

// paint renders a paint; a theme colour reference is kept beside the value
// ("#4472C4=accent1") so systemic edits can target the token.
func paint(p scenegraph.Paint) string {
	var s string
	switch p.Type {
	case scenegraph.PaintSolid:
		s = hexOf(p.Color)
	case scenegraph.PaintImage:
		ref := p.ImageRef
		if len(ref) > 12 {
			ref = ref[:12]
		}
		s = "image:" + ref
		if p.ScaleMode != "" && p.ScaleMode != "FILL" {
			s += " " + p.ScaleMode
		}
	default:
		var stops []string
		for _, st := range p.GradientStops {
			stops = append(stops, st.Color.Hex())
		}
		s = strings.ToLower(strings.TrimPrefix(p.Type, "GRADIENT_")) + "(" + strings.Join(stops, ",") + ")"
		if p.GradientAngle != 0 {
			s += fmt.Sprintf(" %gdeg", r1(p.GradientAngle))
		}
	}
	if p.ThemeColor != nil && p.ThemeColor.Name != "" && !strings.EqualFold("#"+strings.TrimPrefix(p.ThemeColor.Name, "#"), s) {
		s += "=" + p.ThemeColor.Name
	}
	if p.Opacity != nil && *p.Opacity < 1 {
		s += fmt.Sprintf("@%d%%", int(math.Round(*p.Opacity*100)))
	}
	return s
}

func paints(ps []scenegraph.Paint) []string {
	var out []string
	for _, p := range ps {
		if p.IsVisible() {
			out = append(out, paint(p))
		}
	}
	return out
}

// fontString is "Family size weight [italic]" with the East Asian and
// complex-script faces appended when set ("Inter/Noto Sans JP 24 700").
func fontString(s scenegraph.TypeStyle) string {
	var parts []string
	fam := s.FontFamily
	if s.FontFamilyEastAsian != "" && s.FontFamilyEastAsian != fam {
		fam += "/ea:" + s.FontFamilyEastAsian
	}
	if s.FontFamilyComplex != "" && s.FontFamilyComplex != s.FontFamily {
		fam += "/cs:" + s.FontFamilyComplex
	}
	if fam != "" {
		parts = append(parts, fam)
	}
	if s.FontSize != 0 {
		parts = append(parts, strconv.FormatFloat(r1(s.FontSize), 'f', -1, 64))
	}
	if s.FontWeight != 0 && s.FontWeight != 400 {
		parts = append(parts, strconv.Itoa(s.FontWeight))
	}
	if s.Italic != nil && *s.Italic {
		parts = append(parts, "italic")
	}
	return strings.Join(parts, " ")
}

func textColorOf(s scenegraph.TypeStyle) string {
	for _, p := range s.Fills {
		if p.IsVisible() && p.Type == scenegraph.PaintSolid {
			return paint(p)
		}
	}
	return ""
}

// extraStyle is the rest of a text style: case, decoration, letter
// spacing, line height, baseline, vertical alignment.
func extraStyle(s scenegraph.TypeStyle) string {
	var parts []string
	if s.TextCase != "" && s.TextCase != scenegraph.CaseOriginal {
		parts = append(parts, strings.ToLower(s.TextCase))
	}
	if s.TextDecoration != "" && s.TextDecoration != scenegraph.DecorationNone {
		parts = append(parts, strings.ToLower(s.TextDecoration))
	}
	if s.LetterSpacing != nil && *s.LetterSpacing != 0 {
		parts = append(parts, fmt.Sprintf("ls%g", r1(*s.LetterSpacing)))
	}
	if s.LineHeightPx != 0 {
		parts = append(parts, fmt.Sprintf("lh%gpx", r1(s.LineHeightPx)))
	} else if s.LineHeightPercent != 0 {
		parts = append(parts, fmt.Sprintf("lh%g%%", math.Round(s.LineHeightPercent)))
	}
	if s.Baseline > 0 {
		parts = append(parts, "sup")
	} else if s.Baseline < 0 {
		parts = append(parts, "sub")
	}
	if s.TextAlignVertical != "" && s.TextAlignVertical != scenegraph.AlignTop {
		parts = append(parts, "v:"+strings.ToLower(s.TextAlignVertical))
	}
	if s.Link != nil {
		if s.Link.URL != "" {
			parts = append(parts, "link:"+s.Link.URL)
		} else if s.Link.NodeID != "" {
			parts = append(parts, "link:#"+s.Link.NodeID)
		}
	}
	return strings.Join(parts, " ")
}

// overrideString describes an override entry: only its set fields.
func overrideString(o scenegraph.TypeStyle) string {
	var parts []string
	if f := fontString(o); f != "" {
		parts = append(parts, f)
	}
	if c := textColorOf(o); c != "" {
		parts = append(parts, c)
	}
	if e := extraStyle(o); e != "" {
		parts = append(parts, e)
	}
	return strings.Join(parts, " ")
}

func paragraphs(t *scenegraph.TextContent) []string {
	var out []string
	plain := true
	for _, p := range t.Paragraphs {
		s := ""
		switch p.ListType {
		case scenegraph.ListOrdered:
			s = "ol"
		case scenegraph.ListUnordered:
			s = "ul"
			if p.Bullet != "" {
				s += " " + p.Bullet
			}
		}
		if p.Level > 0 {
			s += fmt.Sprintf(" l%d", p.Level)
		}
		if p.Align != "" {
			s += " " + strings.ToLower(p.Align)
		}
		if p.RTL {
			s += " rtl"
		}
		if p.SpaceBefore != 0 || p.SpaceAfter != 0 {
			s += fmt.Sprintf(" sp%g/%g", r1(p.SpaceBefore), r1(p.SpaceAfter))
		}
		if p.LineHeight != 0 {
			s += fmt.Sprintf(" lh%g", r1(p.LineHeight))
		}
		if p.ListType == scenegraph.ListOrdered || p.ListType == scenegraph.ListUnordered {
			// The bullet's size (percent of the text) and colour:
			// "bu80% #90C226=accent1".
			if p.BulletSize > 0 {
				s += fmt.Sprintf(" bu%g%%", math.Round(p.BulletSize*100))
			}
			if p.BulletColor != nil {
				if p.BulletSize <= 0 {
					s += " bu"
				}
				s += " " + hexOf(p.BulletColor)
				if t := p.BulletThemeColor; t != nil && t.Name != "" {
					s += "=" + t.Name // bound to a token, as fills are shown
				}
			}
		}
		s = strings.TrimSpace(s)
		if s != "" {
			plain = false
		}
		out = append(out, s)
	}
	if plain {
		return nil
	}
	return out
}
