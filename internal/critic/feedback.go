package critic

import (
	"fmt"
	"slices"
	"strings"
)

// maxResolvedListed bounds the "keep these fixed" line of Feedback.
const maxResolvedListed = 12

// Feedback is the next iteration's instruction context (issue 15: "the
// next iteration's feedback is the open issues plus the IF critique"):
// the active issues, hard first, then regressed before open before
// persisted, then by id, each with its family, check, slide, node ids and
// evidence; a line naming the issues fixed so far, so a repair does not
// undo them (ReDeck App. Q: regressions come from edits that break what
// was verified); and the IF judge's critique verbatim (ACE §3.3). lib nil
// means Default(). Empty when there is nothing to say.
func Feedback(lib *Library, l *Ledger, critique string) string {
	if lib == nil {
		lib = Default()
	}
	var b strings.Builder
	active := l.Active()
	rank := map[Status]int{StatusRegressed: 0, StatusOpen: 1, StatusPersisted: 2}
	slices.SortStableFunc(active, func(a, b Issue) int {
		if a.Hard != b.Hard {
			if a.Hard {
				return -1
			}
			return 1
		}
		if d := rank[a.Status] - rank[b.Status]; d != 0 {
			return d
		}
		return issueNumber(a.ID) - issueNumber(b.ID)
	})
	if len(active) > 0 {
		b.WriteString("Open issues the critic found (each is checked again after your next edit; fix the hard ones first). An issue keeps its id (I1, I2...) across attempts; the code after hard/soft and its family (C01.2) is the check that found it, described after \"check:\" at the end:\n")
		for _, is := range active {
			b.WriteString("- ")
			b.WriteString(issueLine(lib, is))
			b.WriteString("\n")
		}
	}
	var fixed []string
	for _, is := range l.Issues {
		if is.Status == StatusResolved && is.Waived == "" {
			fixed = append(fixed, fmt.Sprintf("%s %s on %s", is.ID, is.Check, slideName(is.Slide)))
		}
	}
	if len(fixed) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		more := ""
		if len(fixed) > maxResolvedListed {
			more = fmt.Sprintf(" and %d more", len(fixed)-maxResolvedListed)
			fixed = fixed[:maxResolvedListed]
		}
		fmt.Fprintf(&b, "Fixed so far, keep them fixed (issue, check, where): %s%s.\n", strings.Join(fixed, "; "), more)
	}
	if c := strings.TrimSpace(critique); c != "" {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("The judge's critique of the last attempt:\n")
		b.WriteString(c)
	}
	return strings.TrimRight(b.String(), "\n")
}

// issueLine is one issue for the agent: "[hard completeness C01.2, open
// since turn 1] slide s14, nodes s14/262: evidence (check: text)".
func issueLine(lib *Library, is Issue) string {
	hard := "soft"
	if is.Hard {
		hard = "hard"
	}
	state := fmt.Sprintf("open since turn %d", is.Opened)
	switch is.Status {
	case StatusRegressed:
		state = fmt.Sprintf("REGRESSED in turn %d: it was fixed and an edit broke it again", is.Changed)
	case StatusPersisted:
		state = fmt.Sprintf("open since turn %d, not re-checked since turn %d", is.Opened, is.Checked)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s %s %s, %s] %s", is.ID, hard, is.Family, is.Check, state, slideName(is.Slide))
	if len(is.Evidence.Nodes) > 0 {
		fmt.Fprintf(&b, ", nodes %s", strings.Join(is.Evidence.Nodes, ", "))
	}
	if len(is.Evidence.Boxes) > 0 {
		fmt.Fprintf(&b, ", boxes %s", boxesText(is.Evidence.Boxes))
	}
	if is.Evidence.Text != "" {
		fmt.Fprintf(&b, ": %s", is.Evidence.Text)
	}
	if chk, _, ok := lib.Check(is.Check); ok {
		fmt.Fprintf(&b, " (check: %s)", chk.Text)
	}
	return b.String()
}

// issueNumber is the number of an issue id ("I12" -> 12).
func issueNumber(id string) int {
	n := 0
	for _, r := range strings.TrimPrefix(id, "I") {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}
