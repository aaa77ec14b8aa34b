// Package llm is ACE's client for any OpenAI-compatible chat-completions
// server (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp server), built on
// github.com/sashabaranov/go-openai.
//
// It adds what a long-running editor needs around a bare client:
//   - configuration from the environment (OPENAI_API_KEY, OPENAI_BASE_URL,
//     ACE_AGENT_MODEL, ACE_JUDGE_MODEL, ACE_ROUTER_MODEL) and a clear
//     ErrNoModel when a natural-language edit is asked for without a model
//     (DESIGN.md §6);
//   - a per-attempt timeout, retries on 429 (honouring Retry-After), on 5xx
//     and on timeouts with jittered exponential backoff, and no retry on a
//     context-length error, which becomes ErrContextLength (DESIGN.md §4);
//   - measured usage per call (prompt, cached prompt and completion tokens
//     as the server reported them) and its cost in USD from a per-model
//     price table the user can override (ACE_PRICES);
//   - a Limiter hook for requests/min and tokens/min, in-process by default,
//     shared through Redis when internal/cache provides one.
//   - ChatJSON for strict-JSON answers (the judges, the critic): an answer
//     its parser refuses is retried once with the problem named, then
//     reported as a problem rather than retried blindly (ReDeck App. I).
//
// Tests never fake results: they run the real client against the scripted
// OpenAI-compatible server in llmtest over real HTTP.
package llm
