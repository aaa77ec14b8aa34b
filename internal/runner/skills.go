package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/skills"
)

// SkillBank is the part of the skill bank (*skills.Bank) the steps use:
// the skills retrieval may offer (stable ones) and the turn records.
type SkillBank interface {
	Offered(ctx context.Context) ([]skills.Skill, error)
	PutRecord(ctx context.Context, r skills.TurnRecord) error
}

// ErrNoSkillBank: an edit asked for skills and the steps have no bank.
var ErrNoSkillBank = errors.New("this edit asks for skills, but no skill bank is configured (runner.Steps.Skills)")

// retrieve is the skills part of Route (Designer-RSI App. C.2): the
// offered skills of the bank, frozen in the store as a retrieval.Set
// (its ref in the result), and retrieval.Retrieve against them. The
// distiller's calls are returned apart, for the route's LLM calls.
func (s *Steps) retrieve(ctx context.Context, instruction string) (retrieval.Result, []llm.Call, error) {
	if s.Skills == nil {
		return retrieval.Result{}, nil, ErrNoSkillBank
	}
	offered, err := s.Skills.Offered(ctx)
	if err != nil {
		return retrieval.Result{}, nil, fmt.Errorf("skill bank: %w", err)
	}
	ref, err := s.Store.Put(ctx, retrieval.EncodeSet(offered))
	if err != nil {
		return retrieval.Result{}, nil, fmt.Errorf("store the skill set: %w", err)
	}
	res, err := retrieval.Retrieve(ctx, s.LLM, instruction, offered)
	calls := res.Calls
	res.Calls, res.SetRef = nil, ref
	return res, calls, err
}

// skillSet loads the frozen skill set under ref, memoised by ref (a ref
// is the hash of its bytes, so its set never changes).
func (s *Steps) skillSet(ctx context.Context, ref string) (retrieval.Set, error) {
	if v, ok := skillSets.Load(ref); ok {
		return v.(retrieval.Set), nil
	}
	data, err := s.Store.Get(ctx, ref)
	if err != nil {
		return retrieval.Set{}, fmt.Errorf("skill set %s: %w", ref, err)
	}
	set, err := retrieval.DecodeSet(data)
	if err != nil {
		return retrieval.Set{}, fmt.Errorf("skill set %s: %w", ref, err)
	}
	skillSetsMu.Lock()
	if skillSetsN >= maxSkillSets {
		skillSets.Clear()
		skillSetsN = 0
	}
	skillSets.Store(ref, set)
	skillSetsN++
	skillSetsMu.Unlock()
	return set, nil
}

// skillSets memoises decoded skill sets by store ref (process-wide: the
// same bank version serves every edit); at most maxSkillSets are kept.
var (
	skillSets   sync.Map
	skillSetsMu sync.Mutex
	skillSetsN  int
)

const maxSkillSets = 16

// RecordTurn writes the edit's turn record to the bank (Designer-RSI
// App. C.4). Writing the same record again (a retried step) overwrites
// it with the same content.
func (s *Steps) RecordTurn(ctx context.Context, in editloop.RecordTurnInput) (editloop.RecordTurnOutput, error) {
	if s.Skills == nil {
		return editloop.RecordTurnOutput{}, ErrNoSkillBank
	}
	if err := s.Skills.PutRecord(ctx, in.Record); err != nil {
		return editloop.RecordTurnOutput{}, fmt.Errorf("write turn record %s: %w", in.Record.ID, err)
	}
	return editloop.RecordTurnOutput{ID: in.Record.ID}, nil
}
