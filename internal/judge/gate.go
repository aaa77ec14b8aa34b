package judge

import (
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/render"
)

// GateResult is the hard geometry gate (ReDeck: new violations must be 0).
type GateResult struct {
	Passed bool `json:"passed"`
	// New are the violations the origin did not have, one line each
	// ("text_overflow on slide s2 (s2/5): ..."), forwarded to the agent
	// with the critique (policy.WrapCritique).
	New []string `json:"new,omitempty"`
}

// Gate compares the current deck's violations with the origin's on the same
// slides; it passes iff nothing new appeared (render.Gate, keyed by kind,
// slide and node ids).
func Gate(current, baseline []render.Violation) GateResult {
	ok, fresh := render.Gate(current, baseline)
	g := GateResult{Passed: ok}
	for _, v := range fresh {
		g.New = append(g.New, Describe(v))
	}
	return g
}

// Describe is a violation as one line for a model.
func Describe(v render.Violation) string {
	s := fmt.Sprintf("%s on slide %s", v.Kind, v.SlideID)
	if len(v.NodeIDs) > 0 {
		s += " (" + strings.Join(v.NodeIDs, ", ") + ")"
	}
	if v.Reason != "" {
		s += ": " + v.Reason
	}
	return s
}
