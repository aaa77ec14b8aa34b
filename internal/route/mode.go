package route

import "fmt"

// Mode is a CARE context scope (ACE §3.2, Table 21).
type Mode string

// Modes. MICRO_SPATIAL: the full scene graph of the target slides, the
// others as id and name. MACRO_PROGRAMMATIC: a deck-wide skeleton (node
// tree, text, typography; bounds only on target slides; no colours).
// SYSTEMIC_TOKEN: design tokens (colours, fonts, their usage per slide,
// slide backgrounds). FULL: everything. OFF: nothing; the agent discovers
// the deck with get_* tools.
const (
	Micro    Mode = "MICRO_SPATIAL"
	Macro    Mode = "MACRO_PROGRAMMATIC"
	Systemic Mode = "SYSTEMIC_TOKEN"
	Full     Mode = "FULL"
	Off      Mode = "OFF"
)

// Modes lists every mode.
var Modes = []Mode{Micro, Macro, Systemic, Full, Off}

// ParseMode accepts a mode name in any case, with or without the suffix
// ("micro", "MACRO_PROGRAMMATIC", "systemic_token").
func ParseMode(s string) (Mode, error) {
	switch normalizeMode(s) {
	case "MICRO", "MICRO_SPATIAL":
		return Micro, nil
	case "MACRO", "MACRO_PROGRAMMATIC":
		return Macro, nil
	case "SYSTEMIC", "SYSTEMIC_TOKEN":
		return Systemic, nil
	case "FULL":
		return Full, nil
	case "OFF", "NONE":
		return Off, nil
	}
	return "", fmt.Errorf("mode %q: want one of MICRO_SPATIAL, MACRO_PROGRAMMATIC, SYSTEMIC_TOKEN, FULL, OFF", s)
}

func normalizeMode(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = c - 32
		case c == '-' || c == ' ':
			b[i] = '_'
		}
	}
	return string(b)
}

// scopeRank orders modes by how much they show, for the audit verdicts of
// ACE App. K: micro < {macro, systemic} < full. OFF shows nothing.
func scopeRank(m Mode) int {
	switch m {
	case Off:
		return 0
	case Micro:
		return 1
	case Macro, Systemic:
		return 2
	}
	return 3
}

// Decision is what the router hands to the agent's prompt assembly.
type Decision struct {
	Mode Mode `json:"mode"`
	// TargetSlides are 0-based slide indices, sorted and unique, within the
	// deck. Empty means the whole deck (or no particular slide).
	TargetSlides []int `json:"targetSlides"`
	// NeedsImage says whether rendered slide images should go to the
	// agent; it always comes from the heuristic (ACE App. B.1).
	NeedsImage bool   `json:"needsImage"`
	Reason     string `json:"reason"`
	// Source says who decided: "heuristic", "llm", or "llm+heuristic"
	// when some field fell back to the heuristic.
	Source string `json:"source"`
}

// OneBased returns the targets as 1-based slide numbers, for people and
// prompts.
func (d Decision) OneBased() []int {
	out := make([]int, len(d.TargetSlides))
	for i, s := range d.TargetSlides {
		out[i] = s + 1
	}
	return out
}
