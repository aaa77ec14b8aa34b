package llm

// Attempt is one HTTP exchange of a Call.
type Attempt struct {
	// Status is the HTTP status (0 when no response arrived: timeout or
	// connection error).
	Status int `json:"status,omitempty"`
	// Error is empty on success.
	Error string `json:"error,omitempty"`
	// RetryAfterMS is the server's Retry-After, ms (0 when absent).
	RetryAfterMS int64 `json:"retryAfterMs,omitempty"`
	// WaitMS is how long the client slept before the next attempt, ms.
	WaitMS int64 `json:"waitMs,omitempty"`
	// DurationMS is the attempt's wall time, ms.
	DurationMS int64 `json:"durationMs"`
}

// Call is one logical model call with its retries, as measured: the token
// counts are the server's own usage report, the cost is those counts times
// the price table.
type Call struct {
	Purpose            string    `json:"purpose,omitempty"` // "act", "judge-if", "judge-vq", "route", ...
	Role               Role      `json:"role"`
	Model              string    `json:"model"`
	Attempts           []Attempt `json:"attempts"`
	PromptTokens       int       `json:"promptTokens"`
	CachedPromptTokens int       `json:"cachedPromptTokens"`
	CompletionTokens   int       `json:"completionTokens"`
	// CostUSD is 0 with Priced false when the model has no price entry.
	CostUSD    float64 `json:"costUsd"`
	Priced     bool    `json:"priced"`
	DurationMS int64   `json:"durationMs"`
	// Error is the final error, empty on success.
	Error string `json:"error,omitempty"`
}

// Retries is the number of attempts after the first.
func (c Call) Retries() int {
	if len(c.Attempts) == 0 {
		return 0
	}
	return len(c.Attempts) - 1
}

// Usage sums calls: a task's, an iteration's or a batch's.
type Usage struct {
	Calls              int     `json:"calls"`
	PromptTokens       int     `json:"promptTokens"`
	CachedPromptTokens int     `json:"cachedPromptTokens"`
	CompletionTokens   int     `json:"completionTokens"`
	CostUSD            float64 `json:"costUsd"`
	// Unpriced counts calls whose model had no price entry (their cost is
	// not in CostUSD).
	Unpriced int `json:"unpriced,omitempty"`
}

// Add counts one call.
func (u *Usage) Add(c Call) {
	u.Calls++
	u.PromptTokens += c.PromptTokens
	u.CachedPromptTokens += c.CachedPromptTokens
	u.CompletionTokens += c.CompletionTokens
	u.CostUSD += c.CostUSD
	if !c.Priced && (c.PromptTokens > 0 || c.CompletionTokens > 0) {
		u.Unpriced++
	}
}

// Merge adds another sum.
func (u *Usage) Merge(o Usage) {
	u.Calls += o.Calls
	u.PromptTokens += o.PromptTokens
	u.CachedPromptTokens += o.CachedPromptTokens
	u.CompletionTokens += o.CompletionTokens
	u.CostUSD += o.CostUSD
	u.Unpriced += o.Unpriced
}

// Sum adds up calls.
func Sum(calls []Call) Usage {
	var u Usage
	for _, c := range calls {
		u.Add(c)
	}
	return u
}
