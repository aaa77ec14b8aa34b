package benchrun

import (
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/bench"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/route"
)

// Arm is a bench arm resolved onto what the edit loop supports: model
// names per role (empty: the environment's, ACE_AGENT_MODEL and the
// rest), the policy (tau, T), a fixed CARE context mode or none (CARE
// routes), step observations and the VQ judge on or off.
type Arm struct {
	Name                                string
	AgentModel, JudgeModel, RouterModel string
	Policy                              policy.Config
	// ContextMode fixes the context mode (editloop.Request.ContextMode);
	// empty lets CARE route (context_mode: auto).
	ContextMode route.Mode
	// Observations are the step observations (default on).
	Observations bool
	VQ           bool
	// Skills runs the arm's edits with the skill bank
	// (editloop.Request.Skills: retrieval, the catalog and load_skill,
	// a turn record per edit); the bank is Harness.Skills.
	Skills bool
	// Notes say what of the arm's settings the loop does not do yet.
	Notes []string
}

// DefaultArm is the arm a suite without arms runs: the environment's
// models and the loop's defaults.
var DefaultArm = bench.Arm{Name: "default"}

// Resolve maps a suite arm onto the loop: context_mode micro, macro,
// systemic, full and off fix route.Mode (no router call), auto or empty
// lets CARE route; observations default on, VQ off; tau and iterations
// default to policy.Default; skills defaults off.
func Resolve(a bench.Arm) (Arm, error) {
	out := Arm{Name: a.Name, AgentModel: a.AgentModel, JudgeModel: a.JudgeModel, RouterModel: a.RouterModel,
		Policy: policy.Config{Tau: a.Tau, MaxIterations: a.Iterations}.WithDefaults(), Observations: true}
	if a.Observations != nil {
		out.Observations = *a.Observations
	}
	if a.VQ != nil {
		out.VQ = *a.VQ
	}
	switch m := strings.ToLower(strings.TrimSpace(a.ContextMode)); m {
	case "", "auto":
	default:
		mode, err := route.ParseMode(m)
		if err != nil {
			return out, fmt.Errorf("arm %s: context_mode: %w", a.Name, err)
		}
		out.ContextMode = mode
	}
	if a.Skills != nil {
		out.Skills = *a.Skills
	}
	return out, nil
}

// LLMConfig is base (the environment's configuration) with the arm's
// model names over it; a role the arm leaves empty keeps base's.
func (a Arm) LLMConfig(base llm.Config) llm.Config {
	if a.AgentModel != "" {
		base.AgentModel = a.AgentModel
	}
	if a.JudgeModel != "" {
		base.JudgeModel = a.JudgeModel
	}
	if a.RouterModel != "" {
		base.RouterModel = a.RouterModel
	}
	return base
}

// Request is the loop's request for a task under the arm, on the origin
// snapshot deckRef.
func (a Arm) Request(deckRef string) editloop.Request {
	return editloop.Request{DeckRef: deckRef, Policy: a.Policy, VQ: a.VQ,
		ContextMode: a.ContextMode, NoObservations: !a.Observations, Skills: a.Skills}
}

// Describe is the arm in one line for tables and the report.
func (a Arm) Describe(base llm.Config) string {
	c := a.LLMConfig(base)
	judge, router := c.JudgeModel, c.RouterModel
	if judge == "" {
		judge = c.AgentModel
	}
	if router == "" {
		router = judge
	}
	mode := "CARE"
	if a.ContextMode != "" {
		mode = string(a.ContextMode)
	}
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	return fmt.Sprintf("agent %s, judge %s, router %s, tau %.1f, T %d, context %s, observations %s, VQ %s, skills %s",
		orNone(c.AgentModel), orNone(judge), orNone(router), a.Policy.Tau, a.Policy.MaxIterations, mode, onOff(a.Observations), onOff(a.VQ), onOff(a.Skills))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
