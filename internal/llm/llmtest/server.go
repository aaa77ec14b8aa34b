package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
)

// Recorded is one request the server received.
type Recorded struct {
	N      int       // 0-based arrival order
	At     time.Time // arrival time (wall clock)
	Path   string    // URL path
	Header http.Header
	Body   []byte                       // raw request body
	Chat   openai.ChatCompletionRequest // decoded body
	Step   int                          // index of the (expanded) step that answered; -1 none
	Status int                          // status answered
}

// Server is a running scripted server.
type Server struct {
	srv    *httptest.Server
	script *Script
	steps  []Step

	mu     sync.Mutex
	served []bool
	since  []time.Time // first answer of a step with For
	reqs   []Recorded
	errs   []string
}

// NewServer starts a server for script; it stops at t's cleanup.
func NewServer(t testing.TB, script *Script) *Server {
	t.Helper()
	s := &Server{script: script, steps: script.expand()}
	s.served = make([]bool, len(s.steps))
	s.since = make([]time.Time, len(s.steps))
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.srv.Close)
	return s
}

// Load starts a server for the script file at path, failing t on error.
func Load(t testing.TB, path string) *Server {
	t.Helper()
	sc, err := LoadScript(path)
	if err != nil {
		t.Fatal(err)
	}
	return NewServer(t, sc)
}

// URL is the base URL to use as OPENAI_BASE_URL (it ends in /v1).
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Config is a client configuration pointing at the server with fast
// retries, for tests: agent and judge model names as given.
func (s *Server) Config(agentModel, judgeModel string) llm.Config {
	return llm.Config{
		BaseURL: s.URL(), APIKey: "test-key",
		AgentModel: agentModel, JudgeModel: judgeModel,
		Timeout: 5 * time.Second, Backoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
	}
}

// Requests returns a copy of every request received so far.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.reqs...)
}

// RequestsFor returns the requests for one model.
func (s *Server) RequestsFor(model string) []Recorded {
	var out []Recorded
	for _, r := range s.Requests() {
		if r.Chat.Model == model {
			out = append(out, r)
		}
	}
	return out
}

// Unserved is the number of steps no request consumed (a step with For
// counts as consumed once it answered a request).
func (s *Server) Unserved() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for i, ok := range s.served {
		if !ok && !s.steps[i].Forever && s.since[i].IsZero() {
			n++
		}
	}
	return n
}

// Errors lists requests the script could not answer.
func (s *Server) Errors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errs...)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		s.models(w) // a reachability probe; not a scripted request
		return
	}
	body, _ := io.ReadAll(r.Body)
	var chat openai.ChatCompletionRequest
	decodeErr := json.Unmarshal(body, &chat)

	s.mu.Lock()
	now := time.Now()
	rec := Recorded{N: len(s.reqs), At: now, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Chat: chat, Step: -1}
	idx := -1
	if decodeErr == nil && strings.HasSuffix(r.URL.Path, "/chat/completions") {
		for i, st := range s.steps {
			if s.served[i] || (st.Model != "" && st.Model != chat.Model) || !st.matchesLast(chat) {
				continue
			}
			if st.For != "" {
				d, _ := time.ParseDuration(st.For)
				if s.since[i].IsZero() {
					s.since[i] = now
				} else if now.Sub(s.since[i]) >= d {
					s.served[i] = true // the window is over: the next step answers
					continue
				}
				idx = i
				break
			}
			idx = i
			s.served[i] = !st.Forever
			break
		}
	}
	rec.Step = idx
	var st Step
	if idx >= 0 {
		st = s.steps[idx]
	}
	switch {
	case decodeErr != nil:
		rec.Status = http.StatusBadRequest
		s.errs = append(s.errs, fmt.Sprintf("request %d: body is not a chat completion request: %v", rec.N, decodeErr))
	case idx < 0:
		rec.Status = http.StatusBadRequest
		s.errs = append(s.errs, fmt.Sprintf("request %d (%s, model %q): script %s has no step left for it", rec.N, r.URL.Path, chat.Model, s.script.Name))
	case st.Status != 0:
		rec.Status = st.Status
	default:
		rec.Status = http.StatusOK
	}
	s.reqs = append(s.reqs, rec)
	s.mu.Unlock()

	if idx < 0 {
		writeError(w, rec.Status, "", "llmtest: "+s.errsLast())
		return
	}
	if st.Delay != "" {
		d, _ := time.ParseDuration(st.Delay)
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
	}
	if st.RetryAfter != "" {
		w.Header().Set("Retry-After", st.RetryAfter)
	}
	if st.Status != 0 && st.Status != http.StatusOK {
		msg := st.ErrorMessage
		if msg == "" {
			msg = http.StatusText(st.Status)
		}
		writeError(w, st.Status, st.ErrorCode, msg)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if st.RawBody != "" {
		_, _ = io.WriteString(w, st.RawBody)
		return
	}
	if st.PassChecks {
		st.Text = passAll(chat)
	}
	_ = json.NewEncoder(w).Encode(completion(rec.N, chat.Model, st))
}

func (s *Server) errsLast() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errs[len(s.errs)-1]
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	e := map[string]any{"message": msg, "type": "llmtest_error"}
	if code != "" {
		e["code"] = code
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}

// completion builds the response body. Fields are written as raw JSON so a
// malformed arguments string reaches the client exactly as scripted.
func completion(n int, model string, st Step) map[string]any {
	msg := map[string]any{"role": "assistant", "content": st.Text}
	if len(st.ToolCalls) > 0 {
		var calls []map[string]any
		for i, tc := range st.ToolCalls {
			args := tc.RawArguments
			if args == "" && tc.Arguments != nil {
				b, _ := json.Marshal(tc.Arguments)
				args = string(b)
			}
			if args == "" {
				args = "{}"
			}
			id := tc.ID
			if id == "" {
				id = fmt.Sprintf("call_%d_%d", n, i)
			}
			calls = append(calls, map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": args}})
		}
		msg["tool_calls"] = calls
	}
	finish := st.FinishReason
	if finish == "" {
		finish = "stop"
		if len(st.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	out := map[string]any{
		"id": fmt.Sprintf("chatcmpl-llmtest-%d", n), "object": "chat.completion",
		"created": 1700000000, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
	}
	if u := st.Usage; u != nil {
		out["usage"] = map[string]any{
			"prompt_tokens": u.Prompt, "completion_tokens": u.Completion, "total_tokens": u.Prompt + u.Completion,
			"prompt_tokens_details": map[string]any{"cached_tokens": u.Cached},
		}
	}
	return out
}

// models answers GET /models as the OpenAI API does, listing the models the
// script names. It is not recorded: clients use it to check the endpoint.
func (s *Server) models(w http.ResponseWriter) {
	seen := map[string]bool{}
	list := openai.ModelsList{}
	for _, st := range s.steps {
		if st.Model != "" && !seen[st.Model] {
			seen[st.Model] = true
			list.Models = append(list.Models, openai.Model{ID: st.Model, Object: "model", OwnedBy: "llmtest"})
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": list.Models})
}

// passAll answers a critic group call with a pass for each check the
// request's last message lists ("- <id>: <text>" lines under CHECKS, up to
// EXAMINE), as internal/critic asks them.
func passAll(chat openai.ChatCompletionRequest) string {
	last := ""
	if n := len(chat.Messages); n > 0 {
		last = chat.Messages[n-1].Content
	}
	var results []map[string]string
	in := false
	for _, line := range strings.Split(last, "\n") {
		switch {
		case strings.HasPrefix(line, "CHECKS"):
			in = true
		case strings.HasPrefix(line, "EXAMINE"):
			in = false
		case in && strings.HasPrefix(line, "- "):
			id, _, _ := strings.Cut(strings.TrimPrefix(line, "- "), ":")
			results = append(results, map[string]string{"check": strings.TrimSpace(id), "verdict": "pass"})
		}
	}
	b, _ := json.Marshal(map[string]any{"results": results})
	return string(b)
}
