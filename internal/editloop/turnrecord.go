package editloop

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/skills"
)

// skillsRef is the frozen skill set's ref ("" without skills).
func (r RouteRecord) skillsRef() string {
	if r.Skills == nil {
		return ""
	}
	return r.Skills.SetRef
}

// LoadedSkills are the skills the agent read with load_skill over the
// whole edit, in the order it first read them.
func (r *Record) LoadedSkills() []string {
	var out []string
	for _, it := range r.Iterations {
		for _, st := range it.Steps {
			for _, n := range st.Skills {
				if !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// TurnRecordID is an edit's turn-record id: "edit-" and the first 16 hex
// digits of the SHA-256 of origin ref, instruction and start time (ms),
// so a retried RecordTurn step writes the same key and two edits never
// share one.
func TurnRecordID(origin, instruction string, startedUnixMS int64) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", origin, instruction, startedUnixMS))
	return "edit-" + hex.EncodeToString(h[:8])
}

// TurnRecordOf is the recorder (Designer-RSI App. C.4, A3 TurnRecord):
// what the evolve loop needs from one finished edit with skills on. Tools
// is every deck call the agent made, over all iterations in order, OK
// when it applied (load_tools, load_skill and the step tools are left
// out: Loaded has the skills read); IF, VQ, the gate and the critique are
// the kept iteration's (the last judged one's critique when none was
// kept, so a failed edit's record still says what was wrong); the token
// counts sum every model call of the edit.
func TurnRecordOf(rec *Record, req Request) skills.TurnRecord {
	instruction := rec.Route.AgentInstruction
	if instruction == "" {
		instruction = rec.Instruction
	}
	tr := skills.TurnRecord{
		ID:          TurnRecordID(rec.Origin, instruction, rec.StartedUnixMS),
		Instruction: instruction, DeckRef: rec.Origin, Outcome: string(rec.Outcome),
		Loaded: rec.LoadedSkills(), FailedChecks: len(rec.Checks),
		AgentTurns: rec.AgentTurns, DurationMS: rec.DurationMS,
		InTokens: rec.Usage.PromptTokens, OutTokens: rec.Usage.CompletionTokens,
		SkillsOn: req.Skills, StartedUnixMS: rec.StartedUnixMS,
	}
	if rec.Selected > 0 {
		tr.FinalRef = rec.Final
	}
	if sk := rec.Route.Skills; sk != nil {
		tr.Operations, tr.Retrieved, tr.Covered = sk.Operations, sk.Scored, sk.Covered
	}
	if kept := rec.Kept(); kept != nil {
		tr.IF, tr.VQ, tr.GatePassed, tr.Critique, tr.Account = kept.Score, kept.VQ, kept.GatePassed, kept.Critique, kept.Account
	} else {
		for _, it := range rec.Iterations {
			if it.Critique != "" {
				tr.Critique = it.Critique
			}
			if it.Account != "" {
				tr.Account = it.Account
			}
		}
	}
	for _, it := range rec.Iterations {
		failed := map[string]int{}
		for _, e := range it.ToolErrors {
			failed[fmt.Sprintf("%d/%s", e.Turn, e.Tool)]++
		}
		for _, st := range it.Steps {
			for _, tool := range st.Tools {
				if agent.IsStepTool(tool) || tool == agent.ToolLoadTools || tool == agent.ToolLoadSkill {
					continue
				}
				k := fmt.Sprintf("%d/%s", st.Turn, tool)
				ok := failed[k] == 0
				if !ok {
					failed[k]--
				}
				tr.Tools = append(tr.Tools, skills.ToolUse{Tool: tool, OK: ok})
			}
		}
	}
	return tr
}
