package workers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

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
}

// Summary is the batch report `ace batch` writes as summary.json (and
// `ace batch status` prints). Running and Queued split the decks not
// finished yet as the batch's progress line does (State.Counts): started or
// iterating, and submitted but not started; Pending is their sum.
type Summary struct {
	Batch      string       `json:"batch"`
	Decks      int          `json:"decks"`
	Done       int          `json:"done"`
	Failed     int          `json:"failed"`
	Running    int          `json:"running"`
	Queued     int          `json:"queued"`
	Pending    int          `json:"pending"`
	DurationMS int64        `json:"durationMs"`
	Rows       []SummaryRow `json:"rows"`
}

// Summarize builds the summary; with outDir set it also writes each
// finished deck's exported file there (fetched from the store by ref).
func Summarize(ctx context.Context, s store.Store, st *State, outDir string) (*Summary, error) {
	sum := &Summary{Batch: st.Batch, Decks: len(st.Decks)}
	var last int64
	used := map[string]bool{} // output names taken, so two decks never share a file
	var sources []source      // stat'ed once: an output must never be one of them
	for _, d := range st.Decks {
		if fi, err := os.Stat(d.Path); err == nil {
			sources = append(sources, source{d.Path, fi})
		}
	}
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
			row.Status = strings.ToLower(strings.TrimPrefix(r.Status.String(), "EDIT_STATUS_"))
			row.Outcome, row.Reason, row.Iterations, row.Final = r.Outcome, r.Reason, len(r.Iterations), r.FinalSnapshot
			row.DurationMS = r.DurationMs
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
			if outDir != "" && r.ExportRef != "" {
				data, err := s.Get(ctx, r.ExportRef)
				if err != nil {
					return sum, fmt.Errorf("deck %s: exported file %s: %w", k, r.ExportRef, err)
				}
				out := outputPath(outDir, r.DeckName, k, r.ExportFormat, used)
				if src := sameAsAny(out, sources); src != "" {
					row.Reason = strings.TrimSpace(row.Reason + " (not written: " + out + " is the original deck " + src + "; choose another output folder)")
				} else {
					if err := os.WriteFile(out, data, 0o644); err != nil {
						return sum, err
					}
					row.Output = out
				}
			}
		} else if d.Phase == acev1.Phase_PHASE_FAILED {
			row.Status = "failed"
		}
		switch d.Phase {
		case acev1.Phase_PHASE_DONE:
			sum.Done++
		case acev1.Phase_PHASE_FAILED:
			sum.Failed++
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

// outputPath is where a finished deck is written: its file name with the
// export extension, or its unique deck key when another deck of the batch
// already took that name (two "report.pptx" from different folders).
func outputPath(outDir, deckName, key, format string, used map[string]bool) string {
	name := strings.TrimSuffix(deckName, filepath.Ext(deckName))
	if name == "" || used[name] {
		name = key
	}
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("%s-%d", key, i)
	}
	used[name] = true
	return filepath.Join(outDir, name+"."+format)
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
func (s *Summary) WriteFiles(dir string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "summary.txt"))
	if err != nil {
		return err
	}
	defer f.Close()
	s.WriteTable(f)
	return nil
}

// WriteTable prints the human table.
func (s *Summary) WriteTable(w io.Writer) {
	decks := "decks"
	if s.Decks == 1 {
		decks = "deck"
	}
	fmt.Fprintf(w, "batch %s: %d %s, %d done, %d failed, %d running, %d queued, %s\n\n", s.Batch, s.Decks, decks, s.Done, s.Failed, s.Running, s.Queued,
		(time.Duration(s.DurationMS) * time.Millisecond).Round(100*time.Millisecond))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DECK\tSTATUS\tOUTCOME\tITER\tSCORES\tTOKENS\tCOST USD\tTIME\tREASON")
	for _, r := range s.Rows {
		reason := r.Reason
		if len(reason) > 80 {
			reason = reason[:77] + "..."
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%d\t%.4f\t%s\t%s\n", r.Deck, r.Status, r.Outcome, r.Iterations,
			strings.Join(r.Scores, ","), r.Tokens, r.CostUSD, (time.Duration(r.DurationMS) * time.Millisecond).Round(10*time.Millisecond), reason)
	}
	tw.Flush()
}
