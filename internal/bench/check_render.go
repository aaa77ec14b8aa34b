package bench

import (
	"gopkg.in/yaml.v3"
)

// violationsCheck is no_new_violations: the renderer found no layout
// violation (overflow, overlap, off-slide, ...) on the result that the
// original lacked (ReDeck's gate). It reads Evidence.Render; without it
// the check is StatusNotRendered.
//
//	no_new_violations: true
type violationsCheck struct{}

func parseNoNewViolations(p *parser, v *yaml.Node) checker {
	var on bool
	if v.Kind != yaml.ScalarNode || v.Decode(&on) != nil || !on {
		p.errAt(v, "no_new_violations takes true")
	}
	return violationsCheck{}
}

func (violationsCheck) describe() string { return "against the original" }

func (violationsCheck) eval(e *env) []Failure {
	out := make([]Failure, len(e.Render.NewViolations))
	for i, v := range e.Render.NewViolations {
		out[i] = Failure{Message: "new violation: " + v}
	}
	return out
}
