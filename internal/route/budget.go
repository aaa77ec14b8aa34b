package route

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// DefaultContextBudget is the most o200k tokens a routed context may send
// to the agent (issue 17 item 9): a 4,000-node frame routed MICRO was a
// first prompt of 252k-368k tokens, past most models' windows and cost.
const DefaultContextBudget = 32000

// ContextBudgetEnv names the setting that changes DefaultContextBudget.
const ContextBudgetEnv = "ACE_CONTEXT_BUDGET"

// ContextBudgetFromEnv returns ACE_CONTEXT_BUDGET (tokens, at least 1000)
// or DefaultContextBudget when it is unset. A value that is not such a
// number is an error naming the setting and the fix.
func ContextBudgetFromEnv() (int, error) {
	v := strings.TrimSpace(os.Getenv(ContextBudgetEnv))
	if v == "" {
		return DefaultContextBudget, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1000 {
		return 0, fmt.Errorf("%s=%q: want a whole number of tokens, at least 1000 (default %d)", ContextBudgetEnv, v, DefaultContextBudget)
	}
	return n, nil
}

// Bounded is Context held to budget o200k tokens (budget <= 0 means
// DefaultContextBudget). When the decision's context is larger it degrades,
// never sending more: MICRO_SPATIAL, FULL and SYSTEMIC fall back to the
// MACRO skeleton (same targets), and a skeleton that is still too large to
// OFF (the slide list; the agent reads the rest with its read tools). It
// returns the text, the decision it serialized (dec itself when nothing
// degraded) and, when it degraded, a one-line note for the model saying
// what it gets instead and why. Errors are Context's, or the tokenizer's.
func Bounded(d *scenegraph.Deck, dec Decision, budget int) (text string, used Decision, note string, err error) {
	if budget <= 0 {
		budget = DefaultContextBudget
	}
	size := func(s string) (int, error) {
		// A token is at least one byte: a text of at most budget bytes
		// fits without counting.
		if len(s) <= budget {
			return len(s) / 4, nil
		}
		return CountTokens(s, O200K)
	}
	used = dec
	first := 0
	for {
		text, err = Context(d, used)
		if err != nil {
			return "", dec, "", err
		}
		n, err := size(text)
		if err != nil {
			return "", dec, "", err
		}
		if first == 0 {
			first = n
		}
		if n <= budget || used.Mode == Off {
			break
		}
		next := used
		next.Mode = Off
		if used.Mode != Macro {
			next.Mode = Macro
		}
		used = next
	}
	if used.Mode != dec.Mode {
		note = fmt.Sprintf("The %s context of this deck is %d tokens, over the %d-token budget (%s), so this is the %s context instead: read what you need with get_node_info and get_page_structure (limit and cursor).",
			dec.Mode, first, budget, ContextBudgetEnv, used.Mode)
	}
	return text, used, note, nil
}
