package retrieval

import (
	"context"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/skills"
)

// Result is one request's retrieval, as the Route step records it
// (editloop.RouteRecord.Skills) and the turn record keeps it.
type Result struct {
	// Operations are the distilled operations; Fallback says why they are
	// the instruction's sentences, when they are (Distilled).
	Operations []string `json:"operations,omitempty"`
	Fallback   string   `json:"fallback,omitempty"`
	// Scored is every offered skill, by score, the starred ones marked.
	Scored []skills.Scored `json:"scored,omitempty"`
	// Starred are the starred skills' names (Scored's order).
	Starred []string `json:"starred,omitempty"`
	// Covered: some skill is starred; false is a coverage gap.
	Covered bool `json:"covered"`
	// SetRef is the store ref of the frozen offered set (EncodeSet).
	SetRef string `json:"setRef,omitempty"`
	// Calls are the distiller's model calls.
	Calls []llm.Call `json:"llm,omitempty"`
}

// Retrieve is the retrieval of one request against the offered set:
// Distil, Score, Flag. SetRef is left for the caller, which stores the
// set. The error is non-nil only when ctx ends.
func Retrieve(ctx context.Context, c *llm.Client, instruction string, offered []skills.Skill) (Result, error) {
	d, err := Distil(ctx, c, instruction)
	if err != nil {
		return Result{Calls: d.Calls}, err
	}
	scored := Flag(Score(d.Operations, offered), offered)
	return Result{Operations: d.Operations, Fallback: d.Fallback, Scored: scored, Starred: Starred(scored),
		Covered: Covered(scored), Calls: d.Calls}, nil
}
