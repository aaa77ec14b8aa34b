package agent

import (
	"encoding/json"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// DefaultMaxTurns is the per-task cap on agent turns (model rounds); the
// paper ran up to 35 (ACE §3.3 settings).
const DefaultMaxTurns = 35

// DefaultMaxTokens caps one completion (the paper's max_tokens 16,384).
const DefaultMaxTokens = 16384

// Call is one tool call as the agent applies it.
type Call struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args,omitempty"`
	// As binds the call's first created id to "$name" for later calls of
	// the same batch (recipes use it; the agent's own calls do not).
	As string `json:"as,omitempty"`
}

// Applied is what a Toolbox reports after one call.
type Applied struct {
	// Result is the JSON handed back to the model as the tool result.
	Result json.RawMessage
	// Created lists ids the call created.
	Created []string
}

// Toolbox is the action space as the agent needs it: the function
// definitions to offer, whether a name is a known (read-only) tool, and a
// way to apply calls to a deck.
//
// Apply runs calls in order on a copy of base as ONE batch and reports
// what the last call did; it must not modify base, and on failure its error
// is written for the model. The agent passes every call applied so far plus
// the new one, so state that lives between calls of a batch (the focused
// slide, symbolic names) behaves exactly as when the Apply step replays the
// whole list. Registry (tools_adapter.go) adapts internal/tools.
type Toolbox interface {
	Functions() []openai.Tool
	Lookup(name string) (readOnly, ok bool)
	Apply(base *scenegraph.Deck, calls []Call) (*scenegraph.Deck, Applied, error)
}

// Agent runs the design agent.
type Agent struct {
	LLM   *llm.Client
	Tools Toolbox
	// MaxTokens per completion; 0 = DefaultMaxTokens.
	MaxTokens int
}

// Input is what an iteration's first request shows: the deck the routed
// context was made from (its slide count), the context, the instruction
// and the feedback on the previous iteration.
type Input struct {
	Deck *scenegraph.Deck
	// Mode is the CARE context mode; Context the routed context text.
	Mode, Context string
	// Instruction is the user's request.
	Instruction string
	// Feedback is what the loop says about the previous iteration: kept or
	// undone, why, and the judge's critique (nil on iteration 1).
	Feedback *policy.Feedback
	// Skills is the skill catalog (retrieval.Catalog) when the edit runs
	// with skills; the session then offers load_skill. Empty: no skills.
	Skills string
}

// ToolError is a call that failed, as the model was told.
type ToolError struct {
	Turn int    `json:"turn"`
	Tool string `json:"tool"`
	// Kind: "unknown_tool", "malformed_arguments", "stale_id" or "tool_error".
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Args    string `json:"args,omitempty"` // as sent, truncated to 300 bytes
}

// Messages builds the first request's messages: the byte-stable prefix as
// the system message, then the user message.
func Messages(in Input) []openai.ChatCompletionMessage {
	n := 0
	if in.Deck != nil {
		n = len(in.Deck.Slides)
	}
	return []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: Prefix(in.Mode)},
		{Role: openai.ChatMessageRoleUser, Content: UserMessage(n, in.Mode, in.Context, in.Skills, in.Instruction, in.Feedback)},
	}
}

func isStale(err error) bool {
	s := err.Error()
	return strings.Contains(s, "stale") || strings.Contains(s, "not found")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
