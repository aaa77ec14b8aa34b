package workers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/outfile"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// SummaryRow is one deck of a batch summary.
type SummaryRow struct {
	Deck       string   `json:"deck"`
	Source     string   `json:"source,omitempty"`
	Output     string   `json:"output,omitempty"`
	Status     string   `json:"status"`
	Outcome    string   `json:"outcome,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Iterations int      `json:"iterations"`
	Scores     []string `json:"scores,omitempty"`
	Final      string   `json:"finalSnapshot,omitempty"`
	Tokens     int64    `json:"tokens"`
	CostUSD    float64  `json:"costUsd"`
	DurationMS int64    `json:"durationMs"`
	// NotWritten says why the edited deck was not written to the output
	// folder (its path is a symbolic link, or the original deck).
	NotWritten string `json:"notWritten,omitempty"`
	// Reverted are the slides the recipe's per-slide gate put back as they
	// were in the original (outcome partly_applied), with the violations
	// that made each fail.
	Reverted []editloop.SlideRevert `json:"reverted,omitempty"`
	// Warnings are the deck's problems the edit could not fix (pictures
	// that could not be read, EditResult.warnings): a deck that lost a
	// picture is "ok, 1 warning" in the table, never plain "ok".
	Warnings []string `json:"warnings,omitempty"`
}

// Summary is the batch report `ace batch` writes as summary.json (and
// `ace batch status` prints). Cancelled decks (`ace batch cancel`, status
// "cancelled") are counted apart from Failed. Running and Queued split the decks not
// finished yet as the batch's progress line does (State.Counts): started or
// iterating, and submitted but not started; Pending is their sum.
type Summary struct {
	Batch      string       `json:"batch"`
	Decks      int          `json:"decks"`
	Done       int          `json:"done"`
	Failed     int          `json:"failed"`
	Cancelled  int          `json:"cancelled"`
	Running    int          `json:"running"`
	Queued     int          `json:"queued"`
	Pending    int          `json:"pending"`
	DurationMS int64        `json:"durationMs"`
	Rows       []SummaryRow `json:"rows"`
}

// Output is where Summarize writes the edited decks.
type Output struct {
	// Dir is the output folder; "" writes nothing.
	Dir string
	// ReplaceLinks replaces an output path that is a symbolic link by the
	// edited deck (the link itself, never its target: ace batch --force);
	// without it such a deck is not written and its row says why.
	ReplaceLinks bool
}

// Summarize builds the summary; with out.Dir set it also writes each
// finished deck's exported file there (fetched from the store by ref),
// under OutputNames' name for it, through outfile.Write.
func Summarize(ctx context.Context, s store.Store, st *State, out Output) (*Summary, error) {
	sum := &Summary{Batch: st.Batch, Decks: len(st.Decks)}
	var last int64
	var sources []source // stat'ed once: an output must never be one of them
	paths := make(map[string]string, len(st.Decks))
	for k, d := range st.Decks {
		paths[k] = d.Path
		if fi, err := os.Stat(d.Path); err == nil {
			sources = append(sources, source{d.Path, fi})
		}
	}
	names := OutputNames(paths)
	for _, k := range st.Keys() {
		d := st.Decks[k]
		// A deck without a result has the state of its latest event, the
		// one the batch's own progress line counts it under.
		row := SummaryRow{Deck: k, Source: d.Path, Status: "queued"}
		if d.Phase == acev1.Phase_PHASE_STARTED || d.Phase == acev1.Phase_PHASE_ITERATION {
			row.Status = "running"
		}
		if d.Updated > last {
			last = d.Updated
		}
		if r := d.Result; r != nil {
			row.Status = resultStatus(r)
			row.Outcome, row.Reason, row.Iterations, row.Final = r.Outcome, r.Reason, len(r.Iterations), r.FinalSnapshot
			row.DurationMS = r.DurationMs
			row.Warnings = append([]string(nil), r.Warnings...)
			for _, rv := range r.Reverted {
				row.Reverted = append(row.Reverted, editloop.SlideRevert{SlideID: rv.SlideId, Number: int(rv.Number), Violations: rv.Violations})
			}
			if u := r.Usage; u != nil {
				row.Tokens, row.CostUSD = u.InputTokens+u.OutputTokens, u.CostUsd
			}
			for _, it := range r.Iterations {
				if it.Score != nil {
					row.Scores = append(row.Scores, fmt.Sprintf("%.1f", *it.Score))
				} else {
					row.Scores = append(row.Scores, "-")
				}
			}
			if out.Dir != "" && r.ExportRef != "" {
				data, err := s.Get(ctx, r.ExportRef)
				if err != nil {
					return sum, fmt.Errorf("deck %s: exported file %s: %w", k, r.ExportRef, err)
				}
				path := filepath.Join(out.Dir, names[k]+"."+r.ExportFormat)
				if src := sameAsAny(path, sources); src != "" {
					row.NotWritten = path + " is the original deck " + src + "; choose another output folder"
				} else if err := outfile.Write(path, data, out.ReplaceLinks); err != nil {
					var le *outfile.LinkError
					if !errors.As(err, &le) {
						return sum, err
					}
					row.NotWritten = err.Error()
				} else {
					row.Output = path
				}
				if row.NotWritten != "" {
					row.Reason = strings.TrimSpace(row.Reason + " (not written: " + row.NotWritten + ")")
				}
			}
		} else if d.Phase == acev1.Phase_PHASE_FAILED {
			row.Status = "failed"
		}
		switch d.Phase {
		case acev1.Phase_PHASE_DONE:
			sum.Done++
		case acev1.Phase_PHASE_FAILED:
			if row.Status == "cancelled" {
				sum.Cancelled++
			} else {
				sum.Failed++
			}
		case acev1.Phase_PHASE_STARTED, acev1.Phase_PHASE_ITERATION:
			sum.Running++
			sum.Pending++
		default:
			sum.Queued++
			sum.Pending++
		}
		sum.Rows = append(sum.Rows, row)
	}
	if st.Started > 0 && last > st.Started {
		sum.DurationMS = last - st.Started
	}
	return sum, nil
}

// resultStatus is the summary's status of a result: ok, not_met, failed,
// or "cancelled" for EDIT_STATUS_CANCELED (issue 20's word for a deck
// stopped by `ace batch cancel`; its outcome stays policy's "canceled").
func resultStatus(r *acev1.EditResult) string {
	if r.Status == acev1.EditStatus_EDIT_STATUS_CANCELED {
		return "cancelled"
	}
	return strings.ToLower(strings.TrimPrefix(r.Status.String(), "EDIT_STATUS_"))
}

// source is a deck file of the batch.
type source struct {
	path string
	info os.FileInfo
}

// sameAsAny returns the path of the source that is the same existing file
// as a, or "".
func sameAsAny(a string, sources []source) string {
	sa, err := os.Stat(a)
	if err != nil {
		return ""
	}
	for _, s := range sources {
		if os.SameFile(sa, s.info) {
			return s.path
		}
	}
	return ""
}

// WriteFiles writes summary.json and summary.txt into dir (the HTML
// report is written by cmd/ace with internal/report).
// A symbolic link at either path is refused (*outfile.LinkError) unless
// replaceLinks is set, when the link itself is replaced.
func (s *Summary) WriteFiles(dir string, replaceLinks bool) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := outfile.Write(filepath.Join(dir, "summary.json"), append(data, '\n'), replaceLinks); err != nil {
		return err
	}
	var txt bytes.Buffer
	s.writeTable(&txt, 0)
	return outfile.Write(filepath.Join(dir, "summary.txt"), txt.Bytes(), replaceLinks)
}

// TableReasonRunes is how many characters of a deck's reason the table on
// the terminal shows; a longer one is cut with "..." and summary.txt has
// it whole (issue 20: the reason often ends with the fix).
const TableReasonRunes = 80

// WriteTable prints the human table for a terminal: reasons are cut at
// TableReasonRunes characters, and a line under the table says so and
// where they are whole.
func (s *Summary) WriteTable(w io.Writer) {
	if s.writeTable(w, TableReasonRunes) {
		fmt.Fprintln(w, "(reasons cut to fit: summary.txt in the output directory, and --json, have them whole)")
	}
}

// writeTable prints the table with reasons cut at maxReason characters
// (0: whole) and reports whether it cut any.
func (s *Summary) writeTable(w io.Writer, maxReason int) (cut bool) {
	decks := "decks"
	if s.Decks == 1 {
		decks = "deck"
	}
	cancelled := ""
	if s.Cancelled > 0 {
		cancelled = fmt.Sprintf("%d cancelled, ", s.Cancelled)
	}
	fmt.Fprintf(w, "batch %s: %d %s, %d done, %d failed, %s%d running, %d queued, %s\n\n", s.Batch, s.Decks, decks, s.Done, s.Failed, cancelled, s.Running, s.Queued,
		(time.Duration(s.DurationMS) * time.Millisecond).Round(100*time.Millisecond))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DECK\tSTATUS\tOUTCOME\tITER\tSCORES\tTOKENS\tCOST USD\tTIME\tREASON")
	for _, r := range s.Rows {
		reason := r.Reason
		if rs := []rune(reason); maxReason > 0 && len(rs) > maxReason {
			reason, cut = string(rs[:maxReason-3])+"...", true
		}
		status := r.Status
		if n := len(r.Warnings); n > 0 {
			status += fmt.Sprintf(", %d warning", n)
			if n > 1 {
				status += "s"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%d\t%.4f\t%s\t%s\n", r.Deck, status, r.Outcome, r.Iterations,
			strings.Join(r.Scores, ","), r.Tokens, r.CostUSD, (time.Duration(r.DurationMS) * time.Millisecond).Round(10*time.Millisecond), reason)
	}
	tw.Flush()
	for _, r := range s.Rows {
		for _, rv := range r.Reverted {
			fmt.Fprintf(w, "%s: slide %d reverted by the per-slide gate: %s\n", r.Deck, rv.Number, strings.Join(rv.Violations, "; "))
		}
		for _, wn := range r.Warnings {
			fmt.Fprintf(w, "%s: warning: %s\n", r.Deck, wn)
		}
	}
	return cut
}
