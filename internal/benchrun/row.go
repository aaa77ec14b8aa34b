package benchrun

import (
	"github.com/acecanvas/ace/internal/bench"
	"github.com/acecanvas/ace/internal/policy"
)

// Row is one run (a task under an arm with a seed), one line of
// results.jsonl. Scores are on the judges' 0-5 scale, shares 0-1, times
// in ms (WallS in s), cost in USD. A pointer is nil when the run has no
// value for it (no judge verdict, no iteration kept, no render): the
// paired statistics leave such pairs out and say how many.
type Row struct {
	Task     string         `json:"task"`
	Category bench.Category `json:"category"`
	Arm      string         `json:"arm"`
	Seed     int            `json:"seed"`
	Deck     string         `json:"deck"`
	Outcome  policy.Outcome `json:"outcome"`
	Reason   string         `json:"reason,omitempty"`
	// Error is why the run failed (the loop's or the harness's).
	Error string `json:"error,omitempty"`

	// IF and VQ are the kept iteration's scores; IFs and VQs every
	// iteration's, in order (null where the judge gave none).
	IF  *float64   `json:"if"`
	VQ  *float64   `json:"vq"`
	IFs []*float64 `json:"ifPerIteration"`
	// IFRejudged is the out-of-loop judge's IF of the final deck
	// (Harness.Rejudge), nil without one.
	IFRejudged *float64   `json:"ifRejudged,omitempty"`
	VQs        []*float64 `json:"vqPerIteration,omitempty"`

	// Checks are the task's checks on the result as a user opens it (the
	// export imported again); ChecksShare is passed over passed+failed
	// (a not-rendered check counts neither way); ChecksAll says every
	// check passed.
	Checks       []bench.Result `json:"checks"`
	ChecksPassed int            `json:"checksPassed"`
	ChecksFailed int            `json:"checksFailed"`
	ChecksShare  *float64       `json:"checksShare"`
	ChecksAll    bool           `json:"checksAll"`

	// GatePassed says the kept iteration passed the hard geometry gate
	// (false when the original stands).
	GatePassed bool `json:"gatePassed"`
	// GateViolations are the new violations of the last iteration the
	// gate refused, one line each (why an edit was not kept).
	GateViolations []string `json:"gateViolations,omitempty"`
	// SCR is the clean-slide rate of the final deck's render (ReDeck):
	// CleanSlides of Slides have no layout violation. NewViolations are
	// the final render's violations the original's lacked.
	SCR         *float64 `json:"scr"`
	Slides      int      `json:"slides"`
	CleanSlides int      `json:"cleanSlides"`
	// SCROrigin is the original deck's clean-slide rate, rendered the
	// same way: SCR counts every violation, the deck's own included, so
	// an edit is read against this (a relay tryout's perfect retitle
	// scored SCR 0.00 on a template whose every slide had a violation).
	SCROrigin         *float64 `json:"scrOrigin"`
	OriginCleanSlides int      `json:"originCleanSlides"`
	NewViolations     []string `json:"newViolations,omitempty"`

	Iterations int `json:"iterations"`
	Selected   int `json:"selected"`
	AgentTurns int `json:"agentTurns"`
	ToolCalls  int `json:"toolCalls"`
	ToolErrors int `json:"toolErrors"`
	// ContextMode is the mode the agent's first turn used.
	ContextMode string `json:"contextMode,omitempty"`
	// With skills on (Arm.Skills): the skills retrieval starred, those
	// the agent read with load_skill, and whether any was starred (false:
	// a coverage gap).
	SkillsStarred []string `json:"skillsStarred,omitempty"`
	SkillsLoaded  []string `json:"skillsLoaded,omitempty"`
	SkillsCovered *bool    `json:"skillsCovered,omitempty"`

	Tokens Tokens `json:"tokens"`
	// ModelCalls counts model requests; Unpriced those whose model has
	// no price (their cost is not in CostUSD; set ACE_PRICES).
	ModelCalls int     `json:"modelCalls"`
	CostUSD    float64 `json:"costUsd"`
	Unpriced   int     `json:"unpriced,omitempty"`

	// WallS is the edit's wall time (the loop, route to export) in s;
	// Timings its steps and the harness's own work, in ms.
	WallS   float64 `json:"wallS"`
	Timings Timings `json:"timingsMs"`
}

// Tokens are a run's model tokens: prompt tokens the server did not
// serve from its cache, those it did, and completion tokens.
type Tokens struct {
	Uncached   int `json:"uncached"`
	Cached     int `json:"cached"`
	Completion int `json:"completion"`
}

// Timings are a run's wall times in ms: the loop's steps summed over
// iterations (editloop.Timings), the loop's total (route to export), and
// the harness's check (export imported again, checks, the SCR render).
type Timings struct {
	Route   int64 `json:"route"`
	Act     int64 `json:"act"`
	Observe int64 `json:"observe"`
	Apply   int64 `json:"apply"`
	Diff    int64 `json:"diff"`
	Render  int64 `json:"render"`
	Judge   int64 `json:"judge"`
	Critic  int64 `json:"critic"`
	Loop    int64 `json:"loop"`
	Check   int64 `json:"check"`
}
