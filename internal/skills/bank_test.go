package skills

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	acetools "github.com/acecanvas/ace/internal/tools"
)

func openTestBank(t *testing.T) (*Bank, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "skills")
	b, err := Open(context.Background(), DirObjects(dir))
	if err != nil {
		t.Fatal(err)
	}
	return b, dir
}

// TestSeedBankValidates is the CI check of the seed bank reviewed into
// internal/skills/seed (Designer-RSI App. G step 4): it parses and passes
// Validate against ACE's live tool catalogue.
func TestSeedBankValidates(t *testing.T) {
	seed, err := Seed()
	if err != nil {
		t.Fatal(err)
	}
	if len(seed) == 0 {
		t.Fatal("the seed bank internal/skills/seed is empty")
	}
	for _, p := range Validate(seed, acetools.Registry().Names()) {
		t.Errorf("seed skill %s", p)
	}
	for _, s := range seed {
		if s.Version != 1 {
			t.Errorf("seed skill %s: version %d; seed skills are version 1", s.Name, s.Version)
		}
	}
}

func TestOpenSeedsOnce(t *testing.T) {
	ctx := context.Background()
	b, dir := openTestBank(t)
	seed, _ := Seed()
	all, err := b.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(seed) {
		t.Fatalf("bank has %d skills, seed %d", len(all), len(seed))
	}
	for i, s := range all {
		if s.Version != 1 || s.Name != seed[i].Name || s.Body != seed[i].Body {
			t.Fatalf("seeded %s v%d differs from the seed", s.Name, s.Version)
		}
		h, err := b.History(ctx, s.Name)
		if err != nil || len(h) != 1 || h[0].Kind != ChangeSeed || h[0].After != 1 || h[0].Before != 0 || h[0].AtUnixMS == 0 {
			t.Fatalf("history of %s: %+v, %v", s.Name, h, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "skill", "table-cell-edits", "v1")); err != nil {
		t.Fatalf("seed version not stored as a file: %v", err)
	}
	// A rewritten seed skill stays rewritten when the bank is opened again.
	s, _ := b.Get(ctx, "table-cell-edits")
	s.Version, s.Body = 2, strings.Replace(s.Body, "## Tips\n", "## Tips\nKeep totals in the last row.\n", 1)
	if err := b.Commit(ctx, s, Change{Kind: ChangeRewrite, Reason: "gate accepted", Round: "r1"}); err != nil {
		t.Fatal(err)
	}
	b2, err := Open(ctx, DirObjects(dir))
	if err != nil {
		t.Fatal(err)
	}
	if vs, _ := b2.Versions(ctx, "table-cell-edits"); !slices.Equal(vs, []int{1, 2}) {
		t.Fatalf("reopening changed the versions: %v", vs)
	}
}

func TestCommitIsCompareAndSet(t *testing.T) {
	ctx := context.Background()
	b, _ := openTestBank(t)
	v1, err := b.Get(ctx, "table-cell-edits")
	if err != nil {
		t.Fatal(err)
	}
	v2 := v1
	v2.Version, v2.Body = 2, strings.Replace(v1.Body, "## Tips\n", "## Tips\nRead the table before writing.\n", 1)
	if err := b.Commit(ctx, v2, Change{Kind: ChangeRewrite, Round: "r1"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx, v2, Change{Kind: ChangeRewrite, Round: "r1"}); err != nil {
		t.Fatalf("the same v2 again (a retry) must succeed: %v", err)
	}
	other := v2
	other.Body = strings.Replace(v1.Body, "## Tips\n", "## Tips\nSomething else.\n", 1)
	err = b.Commit(ctx, other, Change{Kind: ChangeRewrite})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "table-cell-edits") || !strings.Contains(err.Error(), "v2") {
		t.Fatalf("a different v2: want ErrConflict naming the skill and version, got %v", err)
	}
	other.Version = 4
	if err := b.Commit(ctx, other, Change{Kind: ChangeRewrite}); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "current version is v2") {
		t.Fatalf("skipping v3: want ErrConflict, got %v", err)
	}
	if got, _ := b.Get(ctx, "table-cell-edits"); got.Version != 2 || got.Body != v2.Body {
		t.Fatalf("current is v%d after refused commits", got.Version)
	}
	if old, _ := b.Version(ctx, "table-cell-edits", 1); old.Body != v1.Body {
		t.Fatal("v1 changed")
	}

	// Eight writers race to commit v3 with different texts: one wins.
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		s := v2
		s.Version = 3
		s.Body = strings.Replace(v1.Body, "## Tips\n", fmt.Sprintf("## Tips\nWriter %d's tip.\n", i), 1)
		wg.Go(func() { errs[i] = b.Commit(ctx, s, Change{Kind: ChangeRewrite, Reason: fmt.Sprint("writer ", i)}) })
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Fatalf("writers %d and %d both committed v3", won, i)
		case err == nil:
			won = i
		case !errors.Is(err, ErrConflict):
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	got, _ := b.Get(ctx, "table-cell-edits")
	if won < 0 || got.Version != 3 || !strings.Contains(got.Body, fmt.Sprintf("Writer %d's tip", won)) {
		t.Fatalf("winner %d, current v%d", won, got.Version)
	}
	h, _ := b.History(ctx, "table-cell-edits")
	if len(h) != 3 || h[2].Reason != fmt.Sprint("writer ", won) || h[2].Before != 2 {
		t.Fatalf("history %+v", h)
	}
}

func TestRevertAndOffered(t *testing.T) {
	ctx := context.Background()
	b, _ := openTestBank(t)
	v1, _ := b.Get(ctx, "table-cell-edits")
	dep := v1
	dep.Version, dep.Status = 2, StatusDeprecated
	if err := b.Commit(ctx, dep, Change{Kind: ChangeDeprecate, Reason: "lost its last 3 gate runs", Round: "r7"}); err != nil {
		t.Fatal(err)
	}
	offered, _ := b.Offered(ctx)
	all, _ := b.List(ctx)
	if slices.ContainsFunc(offered, func(s Skill) bool { return s.Name == "table-cell-edits" }) ||
		!slices.ContainsFunc(all, func(s Skill) bool { return s.Name == "table-cell-edits" && s.Status == StatusDeprecated }) {
		t.Fatal("a deprecated skill must be listed but not offered")
	}
	if _, err := b.Revert(ctx, "table-cell-edits", 2, ""); err == nil {
		t.Fatal("reverting to the current version must be refused")
	}
	if _, err := b.Revert(ctx, "table-cell-edits", 9, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("reverting to a missing version: %v", err)
	}
	s, err := b.Revert(ctx, "table-cell-edits", 1, "deprecated by mistake")
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 3 || s.Status != StatusStable || s.Body != v1.Body {
		t.Fatalf("reverted %+v", s)
	}
	offered, _ = b.Offered(ctx)
	if !slices.ContainsFunc(offered, func(s Skill) bool { return s.Name == "table-cell-edits" && s.Version == 3 }) {
		t.Fatal("the reverted skill is not offered")
	}
	h, _ := b.History(ctx, "table-cell-edits")
	var kinds []ChangeKind
	for _, c := range h {
		kinds = append(kinds, c.Kind)
	}
	if !slices.Equal(kinds, []ChangeKind{ChangeSeed, ChangeDeprecate, ChangeRevert}) ||
		h[2].Reason != "restored v1's text: deprecated by mistake" || h[2].Before != 2 || h[2].After != 3 || h[1].Round != "r7" {
		t.Fatalf("history %+v", h)
	}
	if _, err := b.Get(ctx, "chart-edits-nobody-wrote"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown skill: %v", err)
	}
	if _, err := b.History(ctx, "chart-edits-nobody-wrote"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("history of an unknown skill: %v", err)
	}
}

func TestStatsRecordsPoolLogs(t *testing.T) {
	ctx := context.Background()
	b, _ := openTestBank(t)
	st, err := b.Stats(ctx, "table-cell-edits")
	if err != nil || st != NewStats("table-cell-edits") || st.QualityEMA != 0.5 {
		t.Fatalf("fresh stats %+v, %v", st, err)
	}
	st.Fails, st.QualityEMA, st.ConsecutiveGateRejects = 3, 0.41, 1
	if err := b.PutStats(ctx, st); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Stats(ctx, "table-cell-edits"); got != st {
		t.Fatalf("stats %+v, want %+v", got, st)
	}

	// Record ids are workflow ids or hashes; one with "/" and ":" is
	// stored under its hash and found again.
	ids := []string{"edit/batch-7:3", "e2", "e1"}
	for i, id := range ids {
		if err := b.PutRecord(ctx, TurnRecord{ID: id, Instruction: "sort the table", StartedUnixMS: int64(100 - i)}); err != nil {
			t.Fatal(err)
		}
	}
	g := NewGrade([]Requirement{{Text: "sorted", Label: OutcomeMet}}, 0.7, 5)
	if err := b.PutRecord(ctx, TurnRecord{ID: "e2", Instruction: "sort the table", StartedUnixMS: 99, Grade: &g}); err != nil {
		t.Fatal(err)
	}
	r, err := b.Record(ctx, "edit/batch-7:3")
	if err != nil || r.ID != "edit/batch-7:3" {
		t.Fatalf("record %+v, %v", r, err)
	}
	recs, _ := b.Records(ctx)
	if len(recs) != 3 || recs[0].ID != "e1" || recs[1].ID != "e2" || recs[1].Grade == nil || !recs[1].Grade.Success {
		t.Fatalf("records %+v", recs)
	}
	if _, err := b.Record(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing record: %v", err)
	}

	for _, e := range []CoverageEntry{
		{Label: "add total row", Records: []string{"e1", "e2"}},
		{Label: "recolour chart series", Records: []string{"e1"}},
	} {
		if err := b.PutCoverage(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.PutCoverage(ctx, CoverageEntry{Label: "recolour chart series"}); err != nil {
		t.Fatal(err)
	}
	pool, _ := b.Coverage(ctx)
	if len(pool) != 1 || len(pool["add total row"].Records) != 2 {
		t.Fatalf("pool %+v", pool)
	}

	for i, round := range []string{"r1", "r2", "r1"} {
		if err := b.AppendGateLog(ctx, GateLog{Round: round, Skill: fmt.Sprint("s", i), Kind: ChangeRewrite}); err != nil {
			t.Fatal(err)
		}
	}
	r1, _ := b.GateLogs(ctx, "r1")
	every, _ := b.GateLogs(ctx, "")
	if len(r1) != 2 || r1[0].Skill != "s0" || r1[1].Skill != "s2" || r1[0].AtUnixMS == 0 || len(every) != 3 {
		t.Fatalf("gate logs r1 %+v, all %d", r1, len(every))
	}

	if _, err := b.Round(ctx, "r1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing round: %v", err)
	}
	rl := RoundLog{ID: "r1", StartedUnixMS: 1, Decisions: []RoundDecision{{Skill: "table-cell-edits", Kind: ChangeRewrite, Accepted: true, Version: 2}}}
	if err := b.PutRound(ctx, rl); err != nil {
		t.Fatal(err)
	}
	got, err := b.Round(ctx, "r1")
	if d, ok := got.Decided("table-cell-edits"); err != nil || !ok || d.Version != 2 {
		t.Fatalf("round %+v, %v", got, err)
	}
}
