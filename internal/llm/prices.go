package llm

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Price is a model's list price in USD per 1M tokens.
type Price struct {
	Input       float64 `json:"input"`       // uncached prompt tokens
	CachedInput float64 `json:"cachedInput"` // prompt tokens served from the provider's prompt cache
	Output      float64 `json:"output"`      // completion tokens (reasoning tokens included)
}

// Prices maps a model name (or a name prefix, e.g. "gpt-4.1" also prices
// "gpt-4.1-2025-04-14") to its price.
type Prices map[string]Price

// DefaultPrices returns OpenAI's published list prices for common models
// (USD per 1M tokens, as listed at the time of writing). They go stale:
// override them with ACE_PRICES. Self-hosted models (vLLM, Ollama) are
// absent on purpose, so their calls are recorded with cost 0 and Priced
// false rather than an invented number.
func DefaultPrices() Prices {
	return Prices{
		"gpt-4.1":      {Input: 2.00, CachedInput: 0.50, Output: 8.00},
		"gpt-4.1-mini": {Input: 0.40, CachedInput: 0.10, Output: 1.60},
		"gpt-4.1-nano": {Input: 0.10, CachedInput: 0.025, Output: 0.40},
		"gpt-4o":       {Input: 2.50, CachedInput: 1.25, Output: 10.00},
		"gpt-4o-mini":  {Input: 0.15, CachedInput: 0.075, Output: 0.60},
		"gpt-5":        {Input: 1.25, CachedInput: 0.125, Output: 10.00},
		"gpt-5-mini":   {Input: 0.25, CachedInput: 0.025, Output: 2.00},
		"gpt-5-nano":   {Input: 0.05, CachedInput: 0.005, Output: 0.40},
		"o4-mini":      {Input: 1.10, CachedInput: 0.275, Output: 4.40},
	}
}

// LoadPrices reads a price table from src, which is either inline JSON
// (starting with "{") or the path of a JSON file, shaped
// {"model": {"input": 2, "cachedInput": 0.5, "output": 8}, ...}.
func LoadPrices(src string) (Prices, error) {
	data := []byte(src)
	where := "inline JSON"
	if !strings.HasPrefix(strings.TrimSpace(src), "{") {
		b, err := os.ReadFile(src)
		if err != nil {
			return nil, fmt.Errorf("read price table: %w (want a JSON file path or inline JSON)", err)
		}
		data, where = b, src
	}
	var p Prices
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("price table %s: %w (want {\"model\": {\"input\": USD/1M, \"cachedInput\": USD/1M, \"output\": USD/1M}})", where, err)
	}
	for m, v := range p {
		if v.Input < 0 || v.CachedInput < 0 || v.Output < 0 {
			return nil, fmt.Errorf("price table %s: model %q has a negative price", where, m)
		}
	}
	return p, nil
}

// Lookup finds the price of model: an exact entry, else the longest entry
// that is a prefix of the name followed by "-" (a dated snapshot).
func (p Prices) Lookup(model string) (Price, bool) {
	if v, ok := p[model]; ok {
		return v, true
	}
	best, found := "", false
	for k := range p {
		if strings.HasPrefix(model, k+"-") && len(k) > len(best) {
			best, found = k, true
		}
	}
	if !found {
		return Price{}, false
	}
	return p[best], true
}

// Cost is the USD cost of one call: uncached prompt tokens at Input, cached
// prompt tokens at CachedInput, completion tokens at Output.
func (pr Price) Cost(prompt, cached, completion int) float64 {
	uncached := prompt - cached
	if uncached < 0 {
		uncached = 0
	}
	return (float64(uncached)*pr.Input + float64(cached)*pr.CachedInput + float64(completion)*pr.Output) / 1e6
}
