package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

// parseScore accepts {"instruction_following_score": 0..5, ...}.
func parseScore(content string) error {
	var v struct {
		Score *float64 `json:"instruction_following_score"`
	}
	if err := json.Unmarshal([]byte(llm.TrimJSONFence(content)), &v); err != nil {
		return errors.New("not a JSON object")
	}
	if v.Score == nil || *v.Score < 0 || *v.Score > 5 {
		return errors.New("score outside 0..5")
	}
	return nil
}

func jsonRequest() llm.Request {
	return llm.Request{Role: llm.RoleJudge, Purpose: "test", Messages: []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: "Grade."}, {Role: openai.ChatMessageRoleUser, Content: "Case."}}}
}

func TestChatJSONRetriesOnceThenGivesUp(t *testing.T) {
	// judge-if-retry: prose, then a valid answer.
	srv := llmtest.Load(t, scriptPath(t, "judge-if-retry.yaml"))
	c := client(t, srv.Config("a", "j"))
	req := jsonRequest()
	calls, problem, err := c.ChatJSON(context.Background(), req, parseScore, `{"instruction_following_score": <0-5>}`)
	if err != nil || problem != nil || len(calls) != 2 {
		t.Fatalf("calls %d, problem %v, err %v", len(calls), problem, err)
	}
	reqs := srv.Requests()
	if reqs[0].Chat.ResponseFormat == nil || len(reqs[1].Chat.Messages) != 4 ||
		reqs[1].Chat.Messages[3].Content != `That answer could not be used: not a JSON object. Reply with exactly one JSON object of the form {"instruction_following_score": <0-5>} and nothing else.` {
		t.Fatalf("retry request %+v", reqs[1].Chat.Messages)
	}
	if len(req.Messages) != 2 {
		t.Fatal("ChatJSON appended to the caller's messages")
	}

	// judge-if-missing: two unusable answers, then no third call.
	srv = llmtest.Load(t, scriptPath(t, "judge-if-missing.yaml"))
	c = client(t, srv.Config("a", "j"))
	calls, problem, err = c.ChatJSON(context.Background(), jsonRequest(), parseScore, "{}")
	if err != nil || problem == nil || !strings.Contains(problem.Error(), "outside 0..5") || len(calls) != 2 || len(srv.Requests()) != 2 {
		t.Fatalf("calls %d, problem %v, err %v", len(calls), problem, err)
	}

	// A transport failure is an error, with the call recorded.
	srv = llmtest.Load(t, scriptPath(t, "llm-auth.yaml"))
	c = client(t, srv.Config("a", "j"))
	calls, problem, err = c.ChatJSON(context.Background(), jsonRequest(), parseScore, "{}")
	if err == nil || problem != nil || len(calls) != 1 || calls[0].Error == "" {
		t.Fatalf("calls %+v, problem %v, err %v", calls, problem, err)
	}
}

func TestTrimJSONFence(t *testing.T) {
	for in, want := range map[string]string{
		"```json\n{\"a\": 1}\n```": `{"a": 1}`,
		"```\n[1]\n```  ":          "[1]",
		"  {\"a\": 1}\n":           `{"a": 1}`,
		"no json":                  "no json",
	} {
		if got := llm.TrimJSONFence(in); got != want {
			t.Errorf("TrimJSONFence(%q) = %q, want %q", in, got, want)
		}
	}
}
