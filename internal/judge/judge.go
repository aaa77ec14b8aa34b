package judge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
)

// Judge calls the judge model.
type Judge struct {
	LLM *llm.Client
	// MaxTokens per judge answer; 0 = 1024.
	MaxTokens int
}

// Image is a rendered slide.
type Image struct {
	SlideID string
	PNG     []byte
}

// IFInput is one instruction-following judgement.
type IFInput struct {
	Instruction string
	// Diff is the JsonDiff text of origin vs current, with the origin's
	// per-slide snapshot appended (diff.Diff.Text).
	Diff string
	// Images of the changed slides; pass them only when the diff touches
	// visual content (diff.Diff.TouchesVisual), as in ACE App. E.
	Images []Image
	// Account is the editing agent's own account of what it did (its
	// submit summary); "" when it gave none. The judge weighs it as a
	// claim against the diff and the snapshot, never as evidence.
	Account string
}

// Verdict is a judge's answer.
type Verdict struct {
	// Score 0..5, nil when missing (no parseable answer after the retry).
	Score  *float64 `json:"score,omitempty"`
	Reason string   `json:"reason,omitempty"`
	// Missing is set when both attempts failed to parse; Problem says why.
	Missing bool       `json:"missing,omitempty"`
	Problem string     `json:"problem,omitempty"`
	Calls   []llm.Call `json:"calls"`
}

// IF runs the instruction-following judge. A transport failure (after the
// client's retries) is returned as an error together with the calls made;
// an unparseable answer is retried once and then reported as Missing.
func (j *Judge) IF(ctx context.Context, in IFInput) (Verdict, error) {
	account := strings.TrimSpace(in.Account)
	if account == "" {
		account = "(none given)"
	}
	user := fmt.Sprintf(ifUser, strings.TrimSpace(in.Instruction), account, strings.TrimSpace(in.Diff))
	return j.ask(ctx, "judge-if", ifSystem, UserMessage(user, in.Images, "Rendered images of the edited slides:"),
		"instruction_following_score", "instruction_following_reason")
}

// VQInput is one visual-quality judgement over the changed slides.
type VQInput struct {
	Images []Image
}

// VQ runs the visual-quality judge. It is reported, never a stopping
// signal (ACE §5.2). No images means nothing to judge: an empty Verdict.
func (j *Judge) VQ(ctx context.Context, in VQInput) (Verdict, error) {
	if len(in.Images) == 0 {
		return Verdict{Missing: true, Problem: "no rendered slides"}, nil
	}
	return j.ask(ctx, "judge-vq", vqSystem, UserMessage("Grade these slides.", in.Images, ""),
		"visual_quality_score", "visual_quality_reason")
}

// UserMessage is a user message of text followed, when there are images,
// by caption and each slide's PNG (labelled "Slide <id>:") as a data URL
// at detail auto. The judges and the critic send renders this way.
func UserMessage(text string, images []Image, caption string) openai.ChatCompletionMessage {
	if len(images) == 0 {
		return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text}
	}
	parts := []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: text}}
	if caption != "" {
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: caption})
	}
	for _, im := range images {
		parts = append(parts,
			openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: "Slide " + im.SlideID + ":"},
			openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{
				URL: "data:image/png;base64," + base64.StdEncoding.EncodeToString(im.PNG), Detail: openai.ImageURLDetailAuto}})
	}
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, MultiContent: parts}
}

func (j *Judge) ask(ctx context.Context, purpose, system string, user openai.ChatCompletionMessage, scoreKey, reasonKey string) (Verdict, error) {
	maxTok := j.MaxTokens
	if maxTok <= 0 {
		maxTok = 1024
	}
	var v Verdict
	var score float64
	var reason string
	parse := func(content string) (err error) {
		score, reason, err = ParseVerdict(content, scoreKey, reasonKey)
		return err
	}
	calls, problem, err := j.LLM.ChatJSON(ctx, llm.Request{Role: llm.RoleJudge, Purpose: purpose,
		Messages:    []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: system}, user},
		Temperature: 0, MaxTokens: maxTok}, parse, fmt.Sprintf(`{"%s": <integer 0-5>, "%s": "..."}`, scoreKey, reasonKey))
	v.Calls = calls
	switch {
	case err != nil:
		return v, err
	case problem != nil:
		v.Missing, v.Problem = true, problem.Error()
	default:
		v.Score, v.Reason = &score, reason
	}
	return v, nil
}

// ParseVerdict reads a judge answer: one JSON object (a ```json fence
// around it is tolerated) with scoreKey a number in 0..5 and reasonKey a
// non-empty string. Anything else is an error saying what is wrong.
func ParseVerdict(text, scoreKey, reasonKey string) (float64, string, error) {
	s := llm.TrimJSONFence(text)
	if s == "" {
		return 0, "", errors.New("the answer is empty")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return 0, "", fmt.Errorf("the answer is not a JSON object (%v)", err)
	}
	raw, ok := m[scoreKey]
	if !ok {
		return 0, "", fmt.Errorf("the field %q is missing", scoreKey)
	}
	var score float64
	if err := json.Unmarshal(raw, &score); err != nil {
		return 0, "", fmt.Errorf("%q is not a number: %s", scoreKey, raw)
	}
	if math.IsNaN(score) || score < 0 || score > 5 {
		return 0, "", fmt.Errorf("%q is %v, outside 0..5", scoreKey, score)
	}
	var reason string
	if r, ok := m[reasonKey]; !ok || json.Unmarshal(r, &reason) != nil || strings.TrimSpace(reason) == "" {
		return 0, "", fmt.Errorf("the field %q is missing or not a non-empty string", reasonKey)
	}
	return score, strings.TrimSpace(reason), nil
}
