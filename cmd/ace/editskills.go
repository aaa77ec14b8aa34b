package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/report"
)

// printSkills writes what the skill bank did for an edit with skills on
// (nothing without): the operations, the starred skills with their
// scores, which the agent read, and where the turn record went.
func printSkills(w io.Writer, rec *editloop.Record) {
	sk := rec.Route.Skills
	if sk == nil {
		return
	}
	fmt.Fprintf(w, "skills: operations %q", sk.Operations)
	if sk.Fallback != "" {
		fmt.Fprintf(w, " (%s)", sk.Fallback)
	}
	fmt.Fprintln(w)
	loaded := rec.LoadedSkills()
	if !sk.Covered {
		fmt.Fprintf(w, "skills: none of %d starred (a coverage gap)\n", len(sk.Scored))
	} else {
		var parts []string
		for _, s := range sk.Scored {
			if !s.Starred {
				continue
			}
			read := "not read"
			if slices.Contains(loaded, s.Name) {
				read = "read"
			}
			parts = append(parts, fmt.Sprintf("%s v%d %.2f (%s)", s.Name, s.Version, s.Score, read))
		}
		fmt.Fprintf(w, "skills: starred %s\n", strings.Join(parts, ", "))
	}
	var other []string
	for _, n := range loaded {
		if !slices.Contains(sk.Starred, n) {
			other = append(other, n)
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(w, "skills: also read %s\n", strings.Join(other, ", "))
	}
	switch {
	case rec.TurnRecord != "":
		fmt.Fprintf(w, "skills: turn record %s written to the skill bank\n", rec.TurnRecord)
	case rec.TurnRecordError != "":
		fmt.Fprintf(w, "skills: turn record not written: %s\n", rec.TurnRecordError)
	}
}

// reportSkills is the report's Skills section of an edit (nil without
// skills).
func reportSkills(rec *editloop.Record) *report.Skills {
	sk := rec.Route.Skills
	if sk == nil {
		return nil
	}
	loaded := rec.LoadedSkills()
	out := &report.Skills{Operations: sk.Operations, Fallback: sk.Fallback, Covered: sk.Covered, Loaded: loaded, Offered: len(sk.Scored)}
	for _, s := range sk.Scored {
		if s.Starred {
			out.Starred = append(out.Starred, report.SkillUse{Name: s.Name, Version: s.Version, Score: s.Score,
				Operation: s.Operation, Loaded: slices.Contains(loaded, s.Name)})
		}
	}
	return out
}
