// Package fonts knows which typefaces ACE's renderer can draw: the faces
// installed on the machine (fontconfig's list, which headless Chromium
// uses), the metric-compatible substitutes for the Office faces decks name
// most, and the fallback chains per DrawingML script slot. It answers
// "which face is this text really drawn in" for the renderer's CSS font
// stacks, for the font report of `ace convert --report` and `ace render`,
// and for the tools' warnings (issue 16 item 10).
package fonts

import (
	"bytes"
	"os/exec"
	"sort"
	"strings"
	"sync"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Fallback chains appended after a run's own faces, per script slot, so
// CJK, Arabic, Hebrew, Thai and Devanagari get real glyphs (Debian
// fonts-noto-core, fonts-noto-cjk) whatever the deck names.
// Metric-compatible substitutes come first for the Office faces decks name
// most (Carlito for Calibri, Caladea for Cambria, Liberation for Arial,
// Times New Roman and Courier New), so line breaks match PowerPoint's. A
// face that is not installed and has no known substitute falls to Noto
// Sans, serif designs too: it is the face fontconfig, and so LibreOffice,
// picks on this machine, and the narrower choice. Falling back to Noto
// Serif for serif names broke display words mid-word ("Minimalisti/c" in
// Alice at 110 pt) and cost mean SSIM against LibreOffice on the real decks
// (career-tips 0.961 vs 0.922, table-report 0.982 vs 0.938; fidelity test).
var (
	SansFallback   = []string{"Noto Sans", "Liberation Sans"}
	EastAsianChain = []string{"Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans CJK TC", "Droid Sans Fallback"}
	ComplexChain   = []string{"Noto Sans Arabic", "Noto Naskh Arabic", "Noto Sans Hebrew", "Noto Sans Thai", "Noto Sans Devanagari", "Noto Sans Bengali"}
	SymbolChain    = []string{"Noto Sans Symbols", "Noto Sans Symbols2", "Noto Color Emoji", "DejaVu Sans", "sans-serif"}
	substitutes    = map[string][]string{
		"calibri":         {"Carlito", "Liberation Sans"},
		"calibri light":   {"Carlito", "Liberation Sans"},
		"cambria":         {"Caladea", "Liberation Serif"},
		"arial":           {"Liberation Sans"},
		"helvetica":       {"Liberation Sans"},
		"helvetica neue":  {"Liberation Sans"},
		"times new roman": {"Liberation Serif"},
		"times":           {"Liberation Serif"},
		"courier new":     {"Liberation Mono"},
		"courier":         {"Liberation Mono"},
		"consolas":        {"Liberation Mono", "DejaVu Sans Mono"},
		"arial narrow":    {"Liberation Sans Narrow"},
		"microsoft yahei": {"Noto Sans CJK SC"},
		"微软雅黑":            {"Noto Sans CJK SC"},
		"simhei":          {"Noto Sans CJK SC"},
		"simsun":          {"Noto Serif CJK SC"},
		"ms gothic":       {"Noto Sans CJK JP"},
		"ms mincho":       {"Noto Serif CJK JP"},
		"yu gothic":       {"Noto Sans CJK JP"},
		"malgun gothic":   {"Noto Sans CJK KR"},
	}
)

// Substitutes returns the metric-compatible faces drawn for family when it
// is not installed, best first; nil when ACE knows none.
func Substitutes(family string) []string {
	return substitutes[strings.ToLower(strings.TrimSpace(family))]
}

var installed struct {
	once  sync.Once
	names map[string]bool
}

// Installed reports whether a family is installed, by fontconfig's list
// (`fc-list : family`, every localized name of every face). ok is false
// when fontconfig is missing: nothing is known then.
func Installed(family string) (yes, ok bool) {
	installed.once.Do(func() {
		out, err := exec.Command("fc-list", ":", "family").Output()
		if err != nil {
			return
		}
		installed.names = map[string]bool{}
		for _, line := range bytes.Split(out, []byte("\n")) {
			for _, n := range strings.Split(string(line), ",") {
				if n = strings.ToLower(strings.TrimSpace(n)); n != "" {
					installed.names[n] = true
				}
			}
		}
	})
	if installed.names == nil {
		return false, false
	}
	return installed.names[strings.ToLower(strings.TrimSpace(family))], true
}

// ThemeFace resolves a theme font reference (+mj-lt, +mn-ea, ...; ECMA-376
// §20.1.4.1.16, the major and minor fonts of the theme) to the deck's face
// for that slot; any other name is returned as is.
func ThemeFace(d *scenegraph.Deck, name string) string {
	f := d.Tokens.Fonts
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "+mj-lt":
		return f.Major.Latin
	case "+mn-lt":
		return f.Minor.Latin
	case "+mj-ea":
		return f.Major.EastAsian
	case "+mn-ea":
		return f.Minor.EastAsian
	case "+mj-cs":
		return f.Major.Complex
	case "+mn-cs":
		return f.Minor.Complex
	}
	return name
}

// Face says how one named family is drawn.
type Face struct {
	Family string `json:"family"`
	// Installed: the machine has the family itself.
	Installed bool `json:"installed"`
	// DrawnAs is the face the renderer draws instead when the family is
	// not installed: its first installed metric-compatible substitute, else
	// the first installed face of the Latin fallback chain. Empty when the
	// family is installed.
	DrawnAs string `json:"drawnAs,omitempty"`
	// MetricCompatible: DrawnAs has the family's advance widths (line
	// breaks match); false for a generic fallback.
	MetricCompatible bool `json:"metricCompatible,omitempty"`
	// Runs counts the text runs (node style or style override) naming it.
	Runs int `json:"runs"`
}

// Resolve says how family is drawn on this machine (Runs is 0).
func Resolve(family string) Face {
	f := Face{Family: family}
	if yes, ok := Installed(family); yes || !ok {
		f.Installed = yes
		return f
	}
	for _, s := range Substitutes(family) {
		if yes, _ := Installed(s); yes {
			f.DrawnAs, f.MetricCompatible = s, true
			return f
		}
	}
	for _, s := range SansFallback {
		if yes, _ := Installed(s); yes {
			f.DrawnAs = s
			return f
		}
	}
	f.DrawnAs = "sans-serif"
	return f
}

// Used lists every Latin-slot family the deck's text names (node styles
// and style overrides, theme references resolved, an unset family being
// the theme's minor font), sorted by name, each resolved on this machine.
func Used(d *scenegraph.Deck) []Face {
	runs := map[string]int{}
	name := map[string]string{}
	add := func(fam string) {
		if fam == "" {
			fam = d.Tokens.Fonts.Minor.Latin
		}
		fam = strings.TrimSpace(ThemeFace(d, fam))
		if fam == "" {
			return
		}
		k := strings.ToLower(fam)
		runs[k]++
		if _, ok := name[k]; !ok {
			name[k] = fam
		}
	}
	d.Walk(func(n *scenegraph.Node, _ *scenegraph.Node, _ int) bool {
		if n.Characters == "" {
			return true
		}
		base := ""
		if n.Style != nil {
			base = n.Style.FontFamily
		}
		add(base)
		for _, st := range n.StyleOverrideTable {
			if st.FontFamily != "" {
				add(st.FontFamily)
			}
		}
		return true
	})
	out := make([]Face, 0, len(runs))
	for k, c := range runs {
		f := Resolve(name[k])
		f.Runs = c
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Family) < strings.ToLower(out[j].Family) })
	return out
}

// Substituted keeps the faces drawn in another face.
func Substituted(fs []Face) []Face {
	var out []Face
	for _, f := range fs {
		if f.DrawnAs != "" {
			out = append(out, f)
		}
	}
	return out
}

// Line describes a substituted face in one line: `"Gill Sans MT" drawn as
// Noto Sans (not installed; no metric-compatible substitute, line breaks
// may differ)`.
func (f Face) Line() string {
	if f.DrawnAs == "" {
		return `"` + f.Family + `" installed`
	}
	if f.MetricCompatible {
		return `"` + f.Family + `" drawn as ` + f.DrawnAs + ` (not installed; metric-compatible substitute)`
	}
	return `"` + f.Family + `" drawn as ` + f.DrawnAs + ` (not installed; no metric-compatible substitute, line breaks may differ)`
}
