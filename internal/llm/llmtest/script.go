// Package llmtest is a scripted OpenAI-compatible chat-completions server
// for tests. A script says what to answer to each request (text, tool
// calls, malformed tool-call arguments, 429 with Retry-After, 5xx for a
// number of requests or for a wall-clock duration, slow
// answers, usage numbers); the server records every request so a test can
// assert exactly what the model was sent. It runs over real HTTP
// (net/http/httptest) so the production client, go-openai included, is
// what is under test.
package llmtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"gopkg.in/yaml.v3"
)

// Script is an ordered list of answers.
type Script struct {
	Name  string `json:"name" yaml:"name"`
	Steps []Step `json:"steps" yaml:"steps"`
}

// Step is one scripted answer. A request is served by the first unserved
// step whose Model is empty or equal to the request's model.
type Step struct {
	// Model restricts the step to requests for this model name.
	Model string `json:"model,omitempty" yaml:"model,omitempty"`
	// Times repeats the step (default 1).
	Times int `json:"times,omitempty" yaml:"times,omitempty"`
	// Forever answers every matching request with this step and is never
	// used up (benchmarks, load tests).
	Forever bool `json:"forever,omitempty" yaml:"forever,omitempty"`
	// For answers every matching request with this step for a wall-clock
	// duration (a Go duration: "30s") counted from the first request it
	// answers; the first matching request after that goes to the next step.
	// This is how a script makes an outage that lasts a time rather than a
	// number of requests ("status: 500" with "for: 30s"). Not with Times or
	// Forever.
	For string `json:"for,omitempty" yaml:"for,omitempty"`
	// WhenLast restricts the step to requests whose last message contains
	// this text; UnlessLast to requests whose last message does not. With
	// Forever, a pair of them answers a step loop whatever the order of
	// many concurrent edits: edit while no observation came back, submit
	// once one did.
	WhenLast   string `json:"when_last,omitempty" yaml:"when_last,omitempty"`
	UnlessLast string `json:"unless_last,omitempty" yaml:"unless_last,omitempty"`
	// Note is free text for the script's reader.
	Note string `json:"note,omitempty" yaml:"note,omitempty"`

	// PassChecks answers a critic group call (internal/critic) with a
	// "pass" for every check it asks, whatever they are: with Forever and
	// WhenLast "CHECKS (group", a script answers the critic's turns
	// without knowing the scheduler's picks.
	PassChecks bool `json:"pass_checks,omitempty" yaml:"pass_checks,omitempty"`
	// Text is the assistant message content.
	Text string `json:"text,omitempty" yaml:"text,omitempty"`
	// ToolCalls are function calls in the assistant message.
	ToolCalls []ToolCall `json:"tool_calls,omitempty" yaml:"tool_calls,omitempty"`
	// FinishReason defaults to "tool_calls" with tool calls, else "stop".
	FinishReason string `json:"finish_reason,omitempty" yaml:"finish_reason,omitempty"`
	// Usage is reported as the server's token usage.
	Usage *Usage `json:"usage,omitempty" yaml:"usage,omitempty"`

	// Status other than 0/200 answers with an OpenAI-style error body.
	Status       int    `json:"status,omitempty" yaml:"status,omitempty"`
	RetryAfter   string `json:"retry_after,omitempty" yaml:"retry_after,omitempty"` // Retry-After header value
	ErrorCode    string `json:"error_code,omitempty" yaml:"error_code,omitempty"`   // e.g. context_length_exceeded
	ErrorMessage string `json:"error_message,omitempty" yaml:"error_message,omitempty"`
	// RawBody, when set, is written verbatim as the 200 response body.
	RawBody string `json:"raw_body,omitempty" yaml:"raw_body,omitempty"`

	// Delay holds the answer back (a Go duration: "2s"); a client whose
	// timeout is shorter sees a timeout.
	Delay string `json:"delay,omitempty" yaml:"delay,omitempty"`
}

// ToolCall is one scripted function call. Arguments (any JSON/YAML value)
// is encoded as JSON; RawArguments is sent verbatim, which is how a script
// sends malformed JSON.
type ToolCall struct {
	ID           string `json:"id,omitempty" yaml:"id,omitempty"`
	Name         string `json:"name" yaml:"name"`
	Arguments    any    `json:"arguments,omitempty" yaml:"arguments,omitempty"`
	RawArguments string `json:"raw_arguments,omitempty" yaml:"raw_arguments,omitempty"`
}

// Usage is what the server reports as token usage.
type Usage struct {
	Prompt     int `json:"prompt" yaml:"prompt"`
	Cached     int `json:"cached" yaml:"cached"`
	Completion int `json:"completion" yaml:"completion"`
}

// LoadScript reads a script from a .json, .yaml or .yml file.
func LoadScript(path string) (*Script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("llmtest: %w", err)
	}
	return ParseScript(b, path)
}

// ParseScript decodes a script; name picks the format by extension
// (.json, else YAML, which also reads JSON).
func ParseScript(b []byte, name string) (*Script, error) {
	var s Script
	var err error
	if strings.EqualFold(filepath.Ext(name), ".json") {
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		err = dec.Decode(&s)
	} else {
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		err = dec.Decode(&s)
	}
	if err != nil {
		return nil, fmt.Errorf("llmtest: script %s: %w", name, err)
	}
	if s.Name == "" {
		s.Name = filepath.Base(name)
	}
	return &s, s.validate()
}

func (s *Script) validate() error {
	for i, st := range s.Steps {
		if st.Delay != "" {
			if _, err := time.ParseDuration(st.Delay); err != nil {
				return fmt.Errorf("llmtest: script %s: step %d: delay %q: %w", s.Name, i, st.Delay, err)
			}
		}
		if st.For != "" {
			d, err := time.ParseDuration(st.For)
			if err != nil || d <= 0 {
				return fmt.Errorf("llmtest: script %s: step %d: for %q: want a positive Go duration such as 30s", s.Name, i, st.For)
			}
			if st.Times > 1 || st.Forever {
				return fmt.Errorf("llmtest: script %s: step %d: for %q cannot be combined with times or forever", s.Name, i, st.For)
			}
		}
		for j, tc := range st.ToolCalls {
			if tc.Name == "" {
				return fmt.Errorf("llmtest: script %s: step %d: tool call %d has no name", s.Name, i, j)
			}
		}
		if st.Times < 0 || st.Times > 1000 {
			return fmt.Errorf("llmtest: script %s: step %d: times %d outside 0..1000", s.Name, i, st.Times)
		}
	}
	return nil
}

// expand unrolls Times.
func (s *Script) expand() []Step {
	var out []Step
	for _, st := range s.Steps {
		n := max(st.Times, 1)
		for range n {
			out = append(out, st)
		}
	}
	return out
}

// matchesLast applies WhenLast and UnlessLast to a request.
func (st Step) matchesLast(chat openai.ChatCompletionRequest) bool {
	if st.WhenLast == "" && st.UnlessLast == "" {
		return true
	}
	last := ""
	if n := len(chat.Messages); n > 0 {
		last = chat.Messages[n-1].Content
	}
	if st.WhenLast != "" && !strings.Contains(last, st.WhenLast) {
		return false
	}
	return st.UnlessLast == "" || !strings.Contains(last, st.UnlessLast)
}
