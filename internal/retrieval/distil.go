package retrieval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
)

// MaxOperations is the most operations Distil returns (Designer-RSI
// App. C.2: at most 6).
const MaxOperations = 6

// maxOperationBytes bounds one operation's text; a longer one is cut at a
// word. Operations are short verb phrases; a long one only dilutes its
// overlap score.
const maxOperationBytes = 120

// Distilled is the operations of one instruction and how they were made.
type Distilled struct {
	// Operations are 1 to MaxOperations short phrases, most important
	// first (none only for an empty instruction).
	Operations []string `json:"operations"`
	// Fallback, when not empty, says why Operations are the instruction's
	// sentences instead of the model's answer: no router model
	// configured, the answer unusable twice, or the call failed.
	Fallback string `json:"fallback,omitempty"`
	// Calls are the model calls made (none in the no-model fallback).
	Calls []llm.Call `json:"llm,omitempty"`
}

// distilSystem asks for the operations (App. C.2 in our words: the core
// operations without names, places, brands, adjectives or colours).
const distilSystem = `You read one request to edit a slide presentation and list the operations it asks for, so that they can be matched against a library of procedures.

Write each operation as a short verb phrase of 2 to 6 words in generic terms: the action and the kind of element it acts on, for example "edit table cells", "change chart type", "add speaker notes", "align shapes", "replace picture".
Leave out names, titles, quoted text, brands, places, numbers, colours and style adjectives: "make the Q3 revenue title navy and bold" is "change title font weight" and "recolour title text".
List at most 6 operations, the most important first. A simple request has one or two.

Answer with JSON only, in this form: {"operations": ["...", "..."]}`

// distilShape is the answer's form, for the retry message.
const distilShape = `{"operations": ["<short verb phrase>", ...]}`

// Distil turns an instruction into at most MaxOperations operations with
// one router-role call (llm.RoleRouter, JSON answer, temperature 0; an
// unusable answer is asked again once, llm.ChatJSON). Without a router
// model (c nil or none configured), after two unusable answers, or when
// the call fails, the operations are the instruction's sentences
// (Sentences) and Fallback says why: retrieval then still runs, only
// less sharply, since a whole sentence's tokens dilute its overlap. The
// error is non-nil only when ctx ends (the edit was canceled).
func Distil(ctx context.Context, c *llm.Client, instruction string) (Distilled, error) {
	instruction = strings.TrimSpace(instruction)
	if instruction == "" {
		return Distilled{Fallback: "empty instruction"}, nil
	}
	if !c.HasModel(llm.RoleRouter) {
		return Distilled{Operations: Sentences(instruction), Fallback: "no model configured for the router role: operations are the instruction's sentences"}, nil
	}
	var ops []string
	req := llm.Request{Role: llm.RoleRouter, Purpose: "distil", Temperature: 0, MaxTokens: 300,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: distilSystem},
			{Role: openai.ChatMessageRoleUser, Content: instruction},
		}}
	calls, problem, err := c.ChatJSON(ctx, req, func(content string) error {
		var perr error
		ops, perr = ParseOperations(content)
		return perr
	}, distilShape)
	out := Distilled{Operations: ops, Calls: calls}
	switch {
	case ctx.Err() != nil:
		return out, ctx.Err()
	case err != nil:
		out.Operations, out.Fallback = Sentences(instruction), fmt.Sprintf("distil call failed (%v): operations are the instruction's sentences", err)
	case problem != nil:
		out.Operations, out.Fallback = Sentences(instruction), fmt.Sprintf("distil answer unusable (%v): operations are the instruction's sentences", problem)
	}
	return out, nil
}

// ParseOperations reads the distiller's answer: a JSON object
// {"operations": [strings]} (a Markdown fence around it is allowed).
// Operations are trimmed, white space folded, empty and repeated ones
// (case-insensitively) dropped, each cut to 120 bytes at a word, and the
// list cut to MaxOperations. The error says what is wrong when the
// answer is not that object or holds no operation.
func ParseOperations(content string) ([]string, error) {
	var a struct {
		Operations []string `json:"operations"`
	}
	if err := json.Unmarshal([]byte(llm.TrimJSONFence(content)), &a); err != nil {
		return nil, fmt.Errorf("not a JSON object with an \"operations\" list of strings: %v", err)
	}
	var out []string
	seen := map[string]bool{}
	for _, op := range a.Operations {
		op = clip(strings.Join(strings.Fields(op), " "), maxOperationBytes)
		if op == "" || seen[strings.ToLower(op)] {
			continue
		}
		seen[strings.ToLower(op)] = true
		out = append(out, op)
		if len(out) == MaxOperations {
			break
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("\"operations\" lists no operation")
	}
	return out, nil
}

// Sentences is the fallback distillation: the instruction split into
// sentences at ".", "!", "?", ";" and line breaks (a "." between two
// digits, as in "1.5", does not split), trimmed, empty ones dropped, the
// first MaxOperations kept, each cut to 120 bytes at a word. An
// instruction with no break is one operation.
func Sentences(instruction string) []string {
	var out []string
	var b strings.Builder
	rs := []rune(instruction)
	flush := func() {
		s := clip(strings.Join(strings.Fields(b.String()), " "), maxOperationBytes)
		b.Reset()
		if s != "" && len(out) < MaxOperations {
			out = append(out, s)
		}
	}
	for i, r := range rs {
		switch r {
		case '.':
			if i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]) {
				b.WriteRune(r)
				continue
			}
			flush()
		case '!', '?', ';', '\n', '\r':
			flush()
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return out
}

// clip cuts s to at most n bytes at a word boundary (at a rune boundary
// when the first word is longer).
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndex(s[:n+1], " ")
	if cut <= 0 {
		cut = n
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
	}
	return strings.TrimSpace(s[:cut])
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
