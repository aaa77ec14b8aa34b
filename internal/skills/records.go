package skills

// ChangeKind is what made a skill version (Designer-RSI §3.1-3.3, A1
// steps 8-11): the history line of `ace skills history`.
type ChangeKind string

// Change kinds.
const (
	// ChangeSeed: version 1 from the embedded seed bank (App. G).
	ChangeSeed ChangeKind = "seed"
	// ChangeRewrite: a reflector's targeted edit that passed the replay
	// gate (§3.2, App. F).
	ChangeRewrite ChangeKind = "rewrite"
	// ChangeMajorRewrite: a whole-skill rewrite after repeated gate
	// rejections (§3.2 escalation).
	ChangeMajorRewrite ChangeKind = "major_rewrite"
	// ChangeMint: a new skill distilled from the coverage pool that
	// passed the gate against no skill (§3.1).
	ChangeMint ChangeKind = "mint"
	// ChangeRevert: an operator restored an earlier version's text
	// (`ace skills revert`); ACE's addition, not the paper's.
	ChangeRevert ChangeKind = "revert"
	// ChangeDeprecate: a version whose status is deprecated, for a skill
	// that only lost its gate runs (§3.2: skills deleted or merged).
	ChangeDeprecate ChangeKind = "deprecate"
)

// Valid reports whether k is one of the change kinds.
func (k ChangeKind) Valid() bool {
	switch k {
	case ChangeSeed, ChangeRewrite, ChangeMajorRewrite, ChangeMint, ChangeRevert, ChangeDeprecate:
		return true
	}
	return false
}

// Change is one committed skill version's history entry, stored beside
// the version (key change/NAME/vN). The paper logs commits and
// rejections (App. F); this is the commit side, GateLog the gate's.
type Change struct {
	Name    string     `json:"name"`
	Version int        `json:"version"` // the version this change made
	Kind    ChangeKind `json:"kind"`
	// Reason is one line saying why: the gate's verdict, the revert's
	// operator reason, "seed bank".
	Reason string `json:"reason,omitempty"`
	// Round is the evolve round's id; empty for seed and revert.
	Round string `json:"round,omitempty"`
	// AtUnixMS is when it was committed (ms since 1970).
	AtUnixMS int64 `json:"atUnixMs"`
	// Before and After are versions: After == Version; Before is the
	// version it replaced (0 for a new skill). A revert's Reason names
	// the version whose text it restored.
	Before int `json:"before"`
	After  int `json:"after"`
}

// NeutralEMA is the quality EMA a skill starts at and returns to after
// an accepted rewrite (Designer-RSI App. E, App. G step 4: statistics
// initialised neutral).
const NeutralEMA = 0.5

// Stats are a skill's counters, kept apart from its SKILL.md (key
// stats/NAME; Designer-RSI A3 SkillStats) so grading never writes a
// version.
type Stats struct {
	Name string `json:"name"`
	// Fails and Successes count graded records that starred the skill
	// since its last accepted rewrite (App. E binning).
	Fails     int `json:"fails"`
	Successes int `json:"successes"`
	// QualityEMA is an exponential moving average of success (1) and
	// failure (0), for observability only; starts at NeutralEMA (App. E).
	QualityEMA float64 `json:"qualityEma"`
	// ConsecutiveGateRejects counts rewrites the replay gate refused in a
	// row; it drives escalation to a major rewrite (§3.2).
	ConsecutiveGateRejects int `json:"consecutiveGateRejects"`
	// Retrieved counts records that starred the skill, ever.
	Retrieved int `json:"retrieved"`
	// GradedSince counts graded records charged to the skill since the
	// last evolve round.
	GradedSince int `json:"gradedSince"`
}

// NewStats are a skill's neutral starting counters.
func NewStats(name string) Stats { return Stats{Name: name, QualityEMA: NeutralEMA} }

// Scored is one skill as retrieval scored it for a request (Designer-RSI
// App. C.2 Eq. 2): its best operation's token overlap with the
// description, plus the name bonus, capped at 1.
type Scored struct {
	Name    string  `json:"name"`
	Version int     `json:"version"`
	Score   float64 `json:"score"`
	// Operation is the distilled operation that scored best.
	Operation string `json:"operation,omitempty"`
	// Starred: flagged as a match (the catalog marks it "*"); a starred
	// skill is "retrieved" for blame (App. E).
	Starred bool `json:"starred,omitempty"`
}

// ToolUse is one applied tool call of an edit, by name.
type ToolUse struct {
	Tool string `json:"tool"`
	OK   bool   `json:"ok"`
}

// TurnRecord is what the recorder writes at the end of an edit with
// skills on (Designer-RSI App. C.4, A3 TurnRecord; key record/ID); evolve
// back-fills Grade (App. D, E).
type TurnRecord struct {
	// ID is the edit's id: its workflow id, or a hash of origin,
	// instruction and start time.
	ID          string `json:"id"`
	Instruction string `json:"instruction"`
	// DeckRef is the origin snapshot; FinalRef the kept one ("" when
	// nothing was kept).
	DeckRef  string `json:"deckRef"`
	FinalRef string `json:"finalRef,omitempty"`
	// Operations are the distilled operations, at most 6 (App. C.2).
	Operations []string `json:"operations,omitempty"`
	// Retrieved is every scored skill; the starred ones are blamed on
	// failure (App. E).
	Retrieved []Scored `json:"retrieved,omitempty"`
	// Loaded are the skills the agent read with load_skill.
	Loaded []string `json:"loaded,omitempty"`
	// Covered: some skill was starred; false is a coverage gap (App. C.3).
	Covered bool `json:"covered"`
	// Tools is the applied call sequence, in order.
	Tools []ToolUse `json:"tools,omitempty"`
	// Outcome is the edit loop's outcome (policy.Outcome's text).
	Outcome string `json:"outcome"`
	// IF and VQ are the judge's instruction-following and visual-quality
	// scores (1-5) when they ran.
	IF           *float64 `json:"if,omitempty"`
	VQ           *float64 `json:"vq,omitempty"`
	GatePassed   bool     `json:"gatePassed"`
	FailedChecks int      `json:"failedChecks,omitempty"`
	// Critique is the judge's critique of the kept iteration.
	Critique string `json:"critique,omitempty"`
	// Account is the agent's own one-line account of the kept (or last)
	// iteration (its submit summary): a claim the grader weighs against
	// the diff, as the IF judge does.
	Account string `json:"account,omitempty"`
	// Cost per rollout (App. D.6).
	AgentTurns int   `json:"agentTurns"`
	DurationMS int64 `json:"durationMs"`
	InTokens   int   `json:"inTokens"`
	OutTokens  int   `json:"outTokens"`
	// SkillsOn: the edit ran with the catalog and load_skill.
	SkillsOn      bool  `json:"skillsOn"`
	StartedUnixMS int64 `json:"startedUnixMs"`
	// Grade is nil until evolve grades the record.
	Grade *Grade `json:"grade,omitempty"`
}

// Outcome is a requirement's label (Designer-RSI App. D completeness):
// met, partial or not_met.
type Outcome string

// Requirement labels.
const (
	OutcomeMet     Outcome = "met"
	OutcomePartial Outcome = "partial"
	OutcomeNotMet  Outcome = "not_met"
)

// Valid reports whether o is one of the labels.
func (o Outcome) Valid() bool { return o == OutcomeMet || o == OutcomePartial || o == OutcomeNotMet }

// Value is the label's completeness value (App. D Eq. 3): met 1,
// partial 0.5, anything else 0.
func (o Outcome) Value() float64 {
	switch o {
	case OutcomeMet:
		return 1
	case OutcomePartial:
		return 0.5
	}
	return 0
}

// Requirement is one requirement the grader decomposed the instruction
// into (App. D: 3-10 of them), with its label and, for anything short of
// met, the reason (the "why-bad" signal the reflector reads).
type Requirement struct {
	Text   string  `json:"text"`
	Label  Outcome `json:"label"`
	Reason string  `json:"reason,omitempty"`
}

// Tau is the success threshold on S (Designer-RSI App. E: success iff
// s >= 0.6; the only use of absolute scores).
const Tau = 0.6

// Score weights (App. D Eq. 4).
const (
	CompletenessWeight = 0.7
	AestheticWeight    = 0.3
)

// Grade is a record's back-filled grade (Designer-RSI App. D, E).
type Grade struct {
	Requirements []Requirement `json:"requirements"`
	// Completeness is the mean label value, in [0,1] (Completeness).
	Completeness float64 `json:"completeness"`
	// Aesthetic is the 1-10 aesthetic score divided by 10, in [0,1].
	Aesthetic float64 `json:"aesthetic"`
	// S is Score(Completeness, Aesthetic).
	S float64 `json:"s"`
	// Success is Succeeded(S).
	Success      bool  `json:"success"`
	GradedUnixMS int64 `json:"gradedUnixMs"`
}

// Completeness is the mean of the requirements' label values (App. D
// Eq. 3), in [0,1]; 0 when there are none.
func Completeness(reqs []Requirement) float64 {
	if len(reqs) == 0 {
		return 0
	}
	sum := 0.0
	for _, r := range reqs {
		sum += r.Label.Value()
	}
	return sum / float64(len(reqs))
}

// Score is the scalar grade S = 0.7 completeness + 0.3 aesthetic (App. D
// Eq. 4); both inputs and the result are in [0,1].
func Score(completeness, aesthetic float64) float64 {
	return CompletenessWeight*completeness + AestheticWeight*aesthetic
}

// scoreEpsilon absorbs float rounding at the threshold: 0.7*0.6 +
// 0.3*0.6 is 0.6 on paper but may land a hair below it in float64.
const scoreEpsilon = 1e-9

// Succeeded reports whether a grade of s is a success: s >= Tau (App. E),
// within scoreEpsilon.
func Succeeded(s float64) bool { return s >= Tau-scoreEpsilon }

// NewGrade grades from labelled requirements and an aesthetic score in
// [0,1] (the 1-10 score over 10): Completeness, S and Success filled in.
func NewGrade(reqs []Requirement, aesthetic float64, gradedUnixMS int64) Grade {
	c := Completeness(reqs)
	s := Score(c, aesthetic)
	return Grade{Requirements: reqs, Completeness: c, Aesthetic: aesthetic, S: s,
		Success: Succeeded(s), GradedUnixMS: gradedUnixMS}
}

// CoverageEntry is one coverage-pool entry (Designer-RSI §3.1; key
// coverage/LABEL): a canonical subtask label and the records in which it
// was uncovered. At MintAt records a candidate skill is distilled.
type CoverageEntry struct {
	Label string `json:"label"`
	// Records are TurnRecord ids, without repeats, oldest first.
	Records []string `json:"records"`
	// Subtask is the label's wording as first extracted.
	Subtask string `json:"subtask,omitempty"`
}

// MintAt is k_min: an uncovered subtask seen in this many records mints a
// candidate (Designer-RSI §3.1).
const MintAt = 3

// GateVerdict is the replay gate's decision (Designer-RSI App. F).
type GateVerdict string

// Gate verdicts.
const (
	GateAccept GateVerdict = "accept"
	GateReject GateVerdict = "reject"
)

// GateLog is one replay-gate run (Designer-RSI App. F: every proposal is
// logged with before/after snapshots; key gatelog/ROUND/N).
type GateLog struct {
	Round string     `json:"round"`
	Kind  ChangeKind `json:"kind"` // rewrite, major_rewrite or mint
	Skill string     `json:"skill"`
	// Records are the replayed records with their win counts.
	Records  []GateRecord `json:"records"`
	Accepted bool         `json:"accepted"`
	Reason   string       `json:"reason"`
	// Before and After are SKILL.md texts: the baseline ("" for a mint,
	// whose baseline is no skill) and the proposal.
	Before   string `json:"before,omitempty"`
	After    string `json:"after"`
	AtUnixMS int64  `json:"atUnixMs"`
}

// Verdict is the log's decision as a GateVerdict.
func (g GateLog) Verdict() GateVerdict {
	if g.Accepted {
		return GateAccept
	}
	return GateReject
}

// GateRecord is one replayed record's pairwise result (App. F Eq. 5):
// the proposal's wins, losses and ties against the baseline over both
// judging orders, and its win rate R in [0,1] (a tie counts half).
type GateRecord struct {
	RecordID    string  `json:"recordId"`
	Instruction string  `json:"instruction"`
	Wins        int     `json:"wins"`
	Losses      int     `json:"losses"`
	Ties        int     `json:"ties"`
	R           float64 `json:"r"`
}

// WinRate is (wins + ties/2) / judgements; 0.5 (a tie) when there were
// none.
func WinRate(wins, losses, ties int) float64 {
	n := wins + losses + ties
	if n == 0 {
		return 0.5
	}
	return (float64(wins) + float64(ties)/2) / float64(n)
}

// RoundLog is one evolve round's ledger (key round/ID): what it decided
// and committed, so a re-run activity after a worker kill skips what the
// round already did instead of committing twice. ACE's addition; the
// paper's rounds are offline batches (A1 step 7).
type RoundLog struct {
	ID            string `json:"id"`
	StartedUnixMS int64  `json:"startedUnixMs"`
	// FinishedUnixMS is 0 while the round runs.
	FinishedUnixMS int64 `json:"finishedUnixMs,omitempty"`
	// Graded counts the records the round binned.
	Graded int `json:"graded"`
	// Selected are the skills chosen to deepen, most failing first
	// (App. E: Fails >= 2, at most 50).
	Selected []string `json:"selected,omitempty"`
	// Decisions are the gate's decisions, in the order made.
	Decisions []RoundDecision `json:"decisions,omitempty"`
}

// RoundDecision is one proposal's fate within a round.
type RoundDecision struct {
	Skill    string     `json:"skill"`
	Kind     ChangeKind `json:"kind"`
	Accepted bool       `json:"accepted"`
	// Version is the version committed (0 when rejected).
	Version int    `json:"version,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// Decided returns the round's decision for skill, if it made one.
func (r RoundLog) Decided(skill string) (RoundDecision, bool) {
	for _, d := range r.Decisions {
		if d.Skill == skill {
			return d, true
		}
	}
	return RoundDecision{}, false
}
