package coldstart

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/skills"
)

// Theme is one kind of deck edit the cold-start bank gets a skill for,
// as the clustering call proposes it (Designer-RSI App. G step 1).
type Theme struct {
	// Name is kebab-case ("speaker-notes"); the skill usually takes it.
	Name string `json:"name"`
	// Description says, in a user's words, which requests the theme covers.
	Description string `json:"description"`
	// Keywords are words the theme's pages use (tool-name words included);
	// with Name they are what page assignment scores.
	Keywords []string `json:"keywords"`
}

// Text is what page assignment tokenizes: the name and the keywords. The
// description is left out: it is in a user's words, which the pages
// often do not use, and its filler words ("again", "other") match pages
// by chance.
func (t Theme) Text() string {
	return t.Name + "\n" + strings.Join(t.Keywords, " ")
}

const themesSystem = `You are preparing the first skill bank of ACE, an agent that edits slide decks (PowerPoint, Figma, ACE JSON) by calling tools. A skill is a short written procedure for one kind of edit a user asks for: which tools to call in which order, with which key parameters, and what goes wrong. The bank is built from ACE's own documentation, which has been cut into pages: one per tool and one per section of the guides.

Group the pages into themes. A theme is one kind of request a person editing or migrating decks would make (for example: restyling text, editing tables, adding speaker notes, swapping a logo across many decks), large enough that a procedure helps and small enough that one procedure covers it. A page may serve several themes. Pages that only describe plumbing (session status, paging) need no theme of their own.

Answer with one JSON object and nothing else:
{"themes": [{"name": "kebab-case-name", "description": "one or two sentences in the words a user would use to ask for this kind of edit", "keywords": ["6 to 15 single words taken from the theme's pages, tool-name words included; they decide which pages the theme is given"]}]}`

// themesUser lists the pages for the clustering call: one line each, id,
// title and gist.
func themesUser(pages []Page, minThemes, maxThemes int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Propose %d to %d themes. The documentation pages (id: title - first sentence):\n\n", minThemes, maxThemes)
	for _, p := range pages {
		fmt.Fprintf(&b, "- %s: %s - %s\n", p.ID, p.Title, p.Gist())
	}
	return b.String()
}

// themesShape is the answer form ChatJSON names when it asks again.
const themesShape = `{"themes": [{"name": "kebab-case", "description": "...", "keywords": ["...", ...]}, ...]}`

// ParseThemes reads the clustering answer: one JSON object (a ```json
// fence is tolerated) with "themes", between minThemes and maxThemes
// entries, each with a kebab-case name (unique), a non-empty description
// and at least one keyword that has a token (skills.Tokens). The error
// says what is wrong, in words the model can act on.
func ParseThemes(text string, minThemes, maxThemes int) ([]Theme, error) {
	s := llm.TrimJSONFence(text)
	var ans struct {
		Themes []Theme `json:"themes"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		return nil, fmt.Errorf("the answer is not a JSON object of the form %s (%v)", themesShape, err)
	}
	if n := len(ans.Themes); n < minThemes || n > maxThemes {
		return nil, fmt.Errorf("the answer has %d themes; give %d to %d", n, minThemes, maxThemes)
	}
	seen := map[string]bool{}
	var problems []string
	for i, t := range ans.Themes {
		t.Name = strings.TrimSpace(t.Name)
		t.Description = strings.Join(strings.Fields(t.Description), " ")
		switch {
		case !skills.ValidName(t.Name):
			problems = append(problems, fmt.Sprintf("theme %d: name %q is not kebab-case (lowercase words joined by \"-\")", i+1, t.Name))
		case seen[t.Name]:
			problems = append(problems, fmt.Sprintf("theme %d: the name %q is used twice", i+1, t.Name))
		}
		seen[t.Name] = true
		if t.Description == "" {
			problems = append(problems, fmt.Sprintf("theme %q has no description", t.Name))
		}
		if len(skills.Tokens(strings.Join(t.Keywords, " "))) == 0 {
			problems = append(problems, fmt.Sprintf("theme %q has no keywords", t.Name))
		}
		ans.Themes[i] = t
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return ans.Themes, nil
}
