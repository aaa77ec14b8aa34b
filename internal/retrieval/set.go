package retrieval

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/skills"
)

// Set is the skill set one edit was offered, frozen at route time: the
// versions retrieval scored, which load_skill answers from for the whole
// edit, so a retried step or a replayed workflow reads the same text even
// after the bank moved on. It is stored in the content-addressed store
// (EncodeSet); its ref rides in the route's output.
type Set struct {
	Skills []skills.Skill
}

// setJSON is a Set's stored form: each skill's SKILL.md text, by name.
type setJSON struct {
	Skills []string `json:"skills"`
}

// EncodeSet is the stored form of ss: JSON {"skills": [SKILL.md texts]}
// ordered by name, so the same versions always give the same bytes (and
// the same store ref).
func EncodeSet(ss []skills.Skill) []byte {
	sorted := slices.Clone(ss)
	slices.SortFunc(sorted, func(a, b skills.Skill) int { return strings.Compare(a.Name, b.Name) })
	var j setJSON
	for _, s := range sorted {
		j.Skills = append(j.Skills, string(s.Format()))
	}
	b, _ := json.Marshal(j) // strings only
	return b
}

// DecodeSet reads EncodeSet's bytes; the error names the skill that does
// not parse.
func DecodeSet(data []byte) (Set, error) {
	var j setJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return Set{}, fmt.Errorf("skill set: not the JSON of a frozen skill set: %w", err)
	}
	var out Set
	for i, text := range j.Skills {
		s, err := skills.Parse([]byte(text))
		if err != nil {
			return Set{}, fmt.Errorf("skill set: skill %d: %w", i+1, err)
		}
		out.Skills = append(out.Skills, s)
	}
	return out, nil
}

// Get returns the skill called name.
func (s Set) Get(name string) (skills.Skill, bool) {
	for _, k := range s.Skills {
		if k.Name == name {
			return k, true
		}
	}
	return skills.Skill{}, false
}

// Names are the set's skill names, in its order.
func (s Set) Names() []string {
	out := make([]string, len(s.Skills))
	for i, k := range s.Skills {
		out[i] = k.Name
	}
	return out
}

// SkillText is the named skill's SKILL.md (agent.SkillBook: load_skill's
// answer).
func (s Set) SkillText(name string) (string, bool) {
	k, ok := s.Get(name)
	if !ok {
		return "", false
	}
	return string(k.Format()), true
}
