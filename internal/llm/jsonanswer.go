package llm

import (
	"context"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// ChatJSON asks for a strict-JSON answer and hands its content to parse.
// When parse fails it asks once more, showing the model its answer and
// the problem, and saying that a usable answer is exactly one JSON object
// of the form shape ("{\"score\": <0-5>, ...}"); after a second failure it
// gives up (ReDeck App. I: "a parse failure is retried once, then recorded
// as missing"). req.JSON is set. It returns every call made; problem is
// the last parse error when neither answer was usable (nil otherwise);
// err is a transport failure after the client's own retries, returned
// with the calls made so far.
func (c *Client) ChatJSON(ctx context.Context, req Request, parse func(content string) error, shape string) (calls []Call, problem error, err error) {
	req.JSON = true
	req.Messages = append([]openai.ChatCompletionMessage(nil), req.Messages...)
	for attempt := 0; attempt < 2; attempt++ {
		resp, err := c.Chat(ctx, req)
		calls = append(calls, resp.Call)
		if err != nil {
			return calls, nil, err
		}
		perr := parse(resp.Message.Content)
		if perr == nil {
			return calls, nil, nil
		}
		problem = perr
		req.Messages = append(req.Messages,
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: resp.Message.Content},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: fmt.Sprintf(
				"That answer could not be used: %v. Reply with exactly one JSON object of the form %s and nothing else.", perr, shape)})
	}
	return calls, problem, nil
}

// TrimJSONFence strips white space and a Markdown code fence (```json ...
// ```) around a model's JSON answer; other text is returned trimmed.
func TrimJSONFence(text string) string {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
		s = strings.TrimSpace(s)
	}
	return s
}
