package judge

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/render"
)

// GateResult is the hard geometry gate (ReDeck: new violations must be 0).
type GateResult struct {
	Passed bool `json:"passed"`
	// New are the violations the origin did not have, one line each
	// ("text_overflow on slide s2 (s2/5): ..."), forwarded to the agent
	// with the critique (policy.Feedback, agent.UserMessage).
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

// Describe is a violation as one line for a model and a person: kind,
// slide, node ids, the measured boxes (absolute px: x,y width x height;
// for an overlap each node's box; for one node's two boxes each named by
// Violation.BoundsLabels: "[box 74,143 391x122; text 74,99 300x169 px]")
// and the renderer's reason.
func Describe(v render.Violation) string {
	s := fmt.Sprintf("%s on slide %s", v.Kind, v.SlideID)
	if len(v.NodeIDs) > 0 {
		s += " (" + strings.Join(v.NodeIDs, ", ") + ")"
	}
	if len(v.Bounds) > 0 {
		boxes := make([]string, len(v.Bounds))
		labelled := len(v.BoundsLabels) == len(v.Bounds)
		for i, r := range v.Bounds {
			boxes[i] = fmt.Sprintf("%s,%s %sx%s", px(r.X), px(r.Y), px(r.Width), px(r.Height))
			switch {
			case labelled:
				boxes[i] = v.BoundsLabels[i] + " " + boxes[i]
			case len(v.Bounds) == len(v.NodeIDs) && len(v.NodeIDs) > 1:
				boxes[i] = v.NodeIDs[i] + " at " + boxes[i]
			}
		}
		if labelled {
			s += " [" + strings.Join(boxes, "; ") + " px]"
		} else {
			s += " [box " + strings.Join(boxes, "; ") + " px]"
		}
	}
	if v.Reason != "" {
		s += ": " + v.Reason
	}
	return s
}

// px is a coordinate rounded to whole pixels.
func px(v float64) string { return strconv.FormatFloat(math.Round(v), 'f', -1, 64) }
