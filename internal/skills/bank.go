package skills

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// seedFS is the seed bank reviewed into the repository (Designer-RSI
// App. G: cold-start skills, human-reviewed): seed/NAME/SKILL.md.
//
//go:embed seed
var seedFS embed.FS

// Seed returns the embedded seed bank, by name. Each file must parse and
// sit in a folder named for its skill; the error names the file.
func Seed() ([]Skill, error) {
	dirs, err := fs.ReadDir(seedFS, "seed")
	if err != nil {
		return nil, fmt.Errorf("skills: seed bank: %w", err)
	}
	var out []Skill
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		p := path.Join("seed", d.Name(), "SKILL.md")
		data, err := seedFS.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("skills: seed bank folder %s has no SKILL.md: %w", d.Name(), err)
		}
		s, err := Parse(data)
		if err != nil {
			return nil, fmt.Errorf("skills: internal/skills/%s: %w", p, err)
		}
		if s.Name != d.Name() {
			return nil, fmt.Errorf("skills: internal/skills/%s names skill %q; rename the folder or the skill so they match", p, s.Name)
		}
		out = append(out, s)
	}
	return out, nil
}

// Bank is the versioned skill bank over an Objects backend (Designer-RSI
// A3: SKILL.md files in a versioned store, statistics kept apart). Every
// version of a skill is kept; the current one is the highest. Methods are
// safe for concurrent use by many processes sharing the backend: versions
// are only ever created, never overwritten.
type Bank struct {
	obj Objects
	// Now is the bank's clock for change and log times; time.Now unless a
	// caller sets it.
	Now func() time.Time
}

// Open opens the bank on obj and seeds it: each embedded seed skill whose
// name has no version yet is committed as version 1 (Change kind seed).
// Skills already in the bank are left as they are, so a rewritten or
// deprecated seed skill stays rewritten; seeds added to a later ACE
// arrive on its first Open.
func Open(ctx context.Context, obj Objects) (*Bank, error) {
	b := &Bank{obj: obj, Now: time.Now}
	seed, err := Seed()
	if err != nil {
		return nil, err
	}
	have, err := b.currents(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range seed {
		if _, ok := have[s.Name]; ok {
			continue
		}
		s.Version = 1
		if err := b.Commit(ctx, s, Change{Kind: ChangeSeed, Reason: "seed bank"}); err != nil && !errors.Is(err, ErrConflict) {
			// A conflict is another process seeding it first.
			return nil, fmt.Errorf("seed %s: %w", s.Name, err)
		}
	}
	return b, nil
}

func skillKey(name string, v int) string  { return fmt.Sprintf("skill/%s/v%d", name, v) }
func changeKey(name string, v int) string { return fmt.Sprintf("change/%s/v%d", name, v) }

// segment turns an id (record, round, coverage label) into one key
// segment: itself when it is one, else "h-" and a hash of it.
func segment(id string) string {
	if id != "" && !strings.Contains(id, "/") && ValidKey("x/"+id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "h-" + hex.EncodeToString(sum[:16])
}

// versionOf parses the N of a ".../vN" key; 0 when it is not one.
func versionOf(key string) int {
	_, v, ok := strings.Cut(path.Base(key), "v")
	if !ok || path.Base(key)[0] != 'v' {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// currents maps every skill name to its highest version.
func (b *Bank) currents(ctx context.Context) (map[string]int, error) {
	keys, err := b.obj.List(ctx, "skill/")
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, k := range keys {
		parts := strings.Split(k, "/")
		if len(parts) != 3 {
			continue
		}
		if v := versionOf(k); v > out[parts[1]] {
			out[parts[1]] = v
		}
	}
	return out, nil
}

// Versions returns the versions of name, ascending; none (and no error)
// for a skill the bank does not have.
func (b *Bank) Versions(ctx context.Context, name string) ([]int, error) {
	if !ValidName(name) {
		return nil, fmt.Errorf("skills: %q is not a skill name (kebab-case: lowercase words joined by \"-\")", name)
	}
	keys, err := b.obj.List(ctx, "skill/"+name+"/")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, k := range keys {
		if v := versionOf(k); v > 0 {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out, nil
}

// current is name's highest version, 0 when it has none.
func (b *Bank) current(ctx context.Context, name string) (int, error) {
	vs, err := b.Versions(ctx, name)
	if err != nil || len(vs) == 0 {
		return 0, err
	}
	return vs[len(vs)-1], nil
}

// Version returns version v of name; an error wrapping ErrNotFound when
// the bank has no such version.
func (b *Bank) Version(ctx context.Context, name string, v int) (Skill, error) {
	if !ValidName(name) {
		return Skill{}, fmt.Errorf("skills: %q is not a skill name (kebab-case: lowercase words joined by \"-\")", name)
	}
	data, err := b.obj.Get(ctx, skillKey(name, v))
	if errors.Is(err, ErrNotFound) {
		return Skill{}, fmt.Errorf("%w: skill %s has no version %d", ErrNotFound, name, v)
	}
	if err != nil {
		return Skill{}, err
	}
	s, err := Parse(data)
	if err != nil {
		return Skill{}, fmt.Errorf("skills: stored %s v%d: %w", name, v, err)
	}
	return s, nil
}

// Get returns name's current version; an error wrapping ErrNotFound when
// the bank has no such skill.
func (b *Bank) Get(ctx context.Context, name string) (Skill, error) {
	v, err := b.current(ctx, name)
	if err != nil {
		return Skill{}, err
	}
	if v == 0 {
		return Skill{}, fmt.Errorf("%w: the bank has no skill %q", ErrNotFound, name)
	}
	return b.Version(ctx, name, v)
}

// List returns the current version of every skill, whatever its status,
// by name.
func (b *Bank) List(ctx context.Context) ([]Skill, error) {
	cur, err := b.currents(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(cur))
	for n := range cur {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]Skill, 0, len(names))
	for _, n := range names {
		s, err := b.Version(ctx, n, cur[n])
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Offered returns the skills retrieval may offer the agent: the current
// versions whose status is stable (Designer-RSI A3), by name.
func (b *Bank) Offered(ctx context.Context) ([]Skill, error) {
	all, err := b.List(ctx)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(s Skill) bool { return !s.Offered() }), nil
}

// Commit adds s as a new version (Designer-RSI §3.3: commit is a version
// bump) with its history entry ch. s.Version must be the current version
// + 1 (1 for a new skill). The version is written with Objects.Create, so
// of two writers committing the same version only one succeeds; the other
// gets an error wrapping ErrConflict that names the skill and versions.
// Committing the same text as the same version again returns nil (a
// retried activity). ch's Name, Version and After are filled from s,
// Before defaults to s.Version-1 and AtUnixMS to now. Commit checks the
// name and version, not the bank rules: callers run Validate.
func (b *Bank) Commit(ctx context.Context, s Skill, ch Change) error {
	if !ValidName(s.Name) {
		return fmt.Errorf("skills: commit: %q is not a skill name (kebab-case: lowercase words joined by \"-\")", s.Name)
	}
	if ch.Name != "" && ch.Name != s.Name {
		return fmt.Errorf("skills: commit of %s carries a change for %s", s.Name, ch.Name)
	}
	if !ch.Kind.Valid() {
		return fmt.Errorf("skills: commit of %s: change kind %q is not one of seed, rewrite, major_rewrite, mint, revert, deprecate", s.Name, ch.Kind)
	}
	if s.Version < 1 {
		return fmt.Errorf("skills: commit of %s: version %d; versions start at 1", s.Name, s.Version)
	}
	data := s.Format()
	cur, err := b.current(ctx, s.Name)
	if err != nil {
		return err
	}
	if s.Version != cur+1 {
		if s.Version <= cur {
			if have, err := b.obj.Get(ctx, skillKey(s.Name, s.Version)); err == nil && bytes.Equal(have, data) {
				return b.putChange(ctx, s, ch) // a retry: make sure its history entry is there
			}
		}
		return fmt.Errorf("%w: skill %s: commit of v%d, but the current version is v%d (commit v%d, after re-reading v%d)",
			ErrConflict, s.Name, s.Version, cur, cur+1, cur)
	}
	if err := b.obj.Create(ctx, skillKey(s.Name, s.Version), data); err != nil {
		if errors.Is(err, ErrExists) {
			return fmt.Errorf("%w: skill %s: another writer committed v%d first (re-read v%d and commit v%d)",
				ErrConflict, s.Name, s.Version, s.Version, s.Version+1)
		}
		return err
	}
	return b.putChange(ctx, s, ch)
}

// putChange writes ch for s's version unless one is there already.
func (b *Bank) putChange(ctx context.Context, s Skill, ch Change) error {
	ch.Name, ch.Version, ch.After = s.Name, s.Version, s.Version
	if ch.Before == 0 {
		ch.Before = s.Version - 1
	}
	if ch.AtUnixMS == 0 {
		ch.AtUnixMS = b.Now().UnixMilli()
	}
	data, err := json.Marshal(ch)
	if err != nil {
		return err
	}
	err = b.obj.Create(ctx, changeKey(s.Name, s.Version), data)
	if errors.Is(err, ErrExists) {
		return nil // the first attempt's entry stands
	}
	return err
}

// History returns name's changes, oldest first; an error wrapping
// ErrNotFound when the bank has no such skill.
func (b *Bank) History(ctx context.Context, name string) ([]Change, error) {
	vs, err := b.Versions(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("%w: the bank has no skill %q", ErrNotFound, name)
	}
	out := make([]Change, 0, len(vs))
	for _, v := range vs {
		var ch Change
		data, err := b.obj.Get(ctx, changeKey(name, v))
		switch {
		case errors.Is(err, ErrNotFound):
			// A writer that died between the version and its entry.
			ch = Change{Name: name, Version: v, After: v, Before: v - 1, Reason: "(no history entry)"}
		case err != nil:
			return nil, err
		default:
			if err := json.Unmarshal(data, &ch); err != nil {
				return nil, fmt.Errorf("skills: history of %s v%d: %w", name, v, err)
			}
		}
		out = append(out, ch)
	}
	return out, nil
}

// Revert commits version v's text as the next version (ChangeRevert;
// Before is the version it replaced and the reason names v), and returns
// the new version. An operator's undo (`ace skills revert`); like any
// commit it fails with ErrConflict if another writer commits first.
func (b *Bank) Revert(ctx context.Context, name string, v int, reason string) (Skill, error) {
	old, err := b.Version(ctx, name, v)
	if err != nil {
		return Skill{}, err
	}
	cur, err := b.current(ctx, name)
	if err != nil {
		return Skill{}, err
	}
	if v == cur {
		return Skill{}, fmt.Errorf("skills: %s v%d is already the current version; name an earlier one (see ace skills history %s)", name, v, name)
	}
	why := fmt.Sprintf("restored v%d's text", v)
	if reason = strings.TrimSpace(reason); reason != "" {
		why += ": " + reason
	}
	old.Version = cur + 1
	if err := b.Commit(ctx, old, Change{Kind: ChangeRevert, Reason: why, Before: cur}); err != nil {
		return Skill{}, err
	}
	return old, nil
}

// Stats returns name's counters; neutral ones (NewStats) when none were
// stored.
func (b *Bank) Stats(ctx context.Context, name string) (Stats, error) {
	if !ValidName(name) {
		return Stats{}, fmt.Errorf("skills: %q is not a skill name", name)
	}
	var st Stats
	found, err := b.getJSON(ctx, "stats/"+name, &st)
	if err != nil || !found {
		return NewStats(name), err
	}
	return st, nil
}

// PutStats stores st as st.Name's counters, overwriting.
func (b *Bank) PutStats(ctx context.Context, st Stats) error {
	if !ValidName(st.Name) {
		return fmt.Errorf("skills: stats for %q, which is not a skill name", st.Name)
	}
	return b.putJSON(ctx, "stats/"+st.Name, st)
}

// PutRecord stores r under its ID, overwriting (evolve back-fills the
// grade). An ID that is not a key segment is stored under its hash.
func (b *Bank) PutRecord(ctx context.Context, r TurnRecord) error {
	if r.ID == "" {
		return errors.New("skills: a turn record needs an ID")
	}
	return b.putJSON(ctx, "record/"+segment(r.ID), r)
}

// Record returns the record with id; an error wrapping ErrNotFound when
// there is none.
func (b *Bank) Record(ctx context.Context, id string) (TurnRecord, error) {
	var r TurnRecord
	found, err := b.getJSON(ctx, "record/"+segment(id), &r)
	if err == nil && !found {
		err = fmt.Errorf("%w: turn record %q", ErrNotFound, id)
	}
	return r, err
}

// Records returns every turn record, oldest first (by StartedUnixMS,
// then ID).
func (b *Bank) Records(ctx context.Context) ([]TurnRecord, error) {
	var out []TurnRecord
	if err := listJSON(ctx, b, "record/", &out); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, c TurnRecord) int {
		if a.StartedUnixMS != c.StartedUnixMS {
			return cmp.Compare(a.StartedUnixMS, c.StartedUnixMS)
		}
		return strings.Compare(a.ID, c.ID)
	})
	return out, nil
}

// Coverage returns the coverage pool (Designer-RSI §3.1) by label,
// leaving out entries with no records (a consumed entry is put empty).
func (b *Bank) Coverage(ctx context.Context) (map[string]CoverageEntry, error) {
	var all []CoverageEntry
	if err := listJSON(ctx, b, "coverage/", &all); err != nil {
		return nil, err
	}
	out := map[string]CoverageEntry{}
	for _, e := range all {
		if len(e.Records) > 0 {
			out[e.Label] = e
		}
	}
	return out, nil
}

// PutCoverage stores e under its label, overwriting; an entry with no
// records empties the label.
func (b *Bank) PutCoverage(ctx context.Context, e CoverageEntry) error {
	if e.Label == "" {
		return errors.New("skills: a coverage entry needs a label")
	}
	return b.putJSON(ctx, "coverage/"+segment(e.Label), e)
}

// AppendGateLog adds g to its round's gate log (key gatelog/ROUND/N, N
// the next free number), filling AtUnixMS when zero.
func (b *Bank) AppendGateLog(ctx context.Context, g GateLog) error {
	if g.AtUnixMS == 0 {
		g.AtUnixMS = b.Now().UnixMilli()
	}
	data, err := json.Marshal(g)
	if err != nil {
		return err
	}
	prefix := "gatelog/" + segment(g.Round) + "/"
	for {
		keys, err := b.obj.List(ctx, prefix)
		if err != nil {
			return err
		}
		err = b.obj.Create(ctx, fmt.Sprintf("%s%06d", prefix, len(keys)+1), data)
		if !errors.Is(err, ErrExists) {
			return err
		}
		// Another writer took that number; take the next.
	}
}

// GateLogs returns round's gate logs in the order appended; every
// round's (by round, then order) when round is "".
func (b *Bank) GateLogs(ctx context.Context, round string) ([]GateLog, error) {
	prefix := "gatelog/"
	if round != "" {
		prefix += segment(round) + "/"
	}
	var out []GateLog
	if err := listJSON(ctx, b, prefix, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// PutRound stores r (key round/ID), overwriting.
func (b *Bank) PutRound(ctx context.Context, r RoundLog) error {
	if r.ID == "" {
		return errors.New("skills: a round log needs an ID")
	}
	return b.putJSON(ctx, "round/"+segment(r.ID), r)
}

// Round returns the round log with id; an error wrapping ErrNotFound when
// there is none.
func (b *Bank) Round(ctx context.Context, id string) (RoundLog, error) {
	var r RoundLog
	found, err := b.getJSON(ctx, "round/"+segment(id), &r)
	if err == nil && !found {
		err = fmt.Errorf("%w: evolve round %q", ErrNotFound, id)
	}
	return r, err
}

func (b *Bank) putJSON(ctx context.Context, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.obj.Put(ctx, key, data)
}

// getJSON decodes key into v; false when the key holds nothing.
func (b *Bank) getJSON(ctx context.Context, key string, v any) (bool, error) {
	data, err := b.obj.Get(ctx, key)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("skills: stored %s: %w", key, err)
	}
	return true, nil
}

// listJSON decodes every key under prefix, in key order, into *out.
func listJSON[T any](ctx context.Context, b *Bank, prefix string, out *[]T) error {
	keys, err := b.obj.List(ctx, prefix)
	if err != nil {
		return err
	}
	for _, k := range keys {
		var v T
		found, err := b.getJSON(ctx, k, &v)
		if err != nil {
			return err
		}
		if found {
			*out = append(*out, v)
		}
	}
	return nil
}
