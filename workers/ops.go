package workers

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workflows"
)

// Operating a batch (issue 20): list, show, cancel and retry work on the
// records the batch already keeps, its events on ACE_EVENTS (State) and
// one Temporal workflow per deck with id "<batch>:<deck>" (acev1.JobID).

// ErrNoBatch is returned (wrapped) when a batch id has no events.
var ErrNoBatch = errors.New("no events for this batch")

// BatchInfo is one batch of ListBatches: its deck counts as Summarize
// counts them and when its first deck was queued.
type BatchInfo struct {
	Batch     string    `json:"batch"`
	Decks     int       `json:"decks"`
	Done      int       `json:"done"`
	Failed    int       `json:"failed"`
	Cancelled int       `json:"cancelled"`
	Running   int       `json:"running"`
	Queued    int       `json:"queued"`
	Started   time.Time `json:"started"`
}

// ListBatches returns every batch with events on ACE_EVENTS (kept 7 days),
// newest first. The batch ids are the subjects' second token
// (ace.events.<batch>.<deck>); "_" (single edits) is left out.
func ListBatches(ctx context.Context, js jetstream.JetStream) ([]BatchInfo, error) {
	stream, err := js.Stream(ctx, acev1.StreamEvents)
	if err != nil {
		return nil, fmt.Errorf("list batches: %w", err)
	}
	info, err := stream.Info(ctx, jetstream.WithSubjectFilter("ace.events.>"))
	if err != nil {
		return nil, fmt.Errorf("list batches: %w", err)
	}
	seen := map[string]bool{}
	for subj := range info.State.Subjects {
		parts := strings.Split(subj, ".")
		if len(parts) == 4 && parts[2] != "_" {
			seen[parts[2]] = true
		}
	}
	var out []BatchInfo
	for b := range seen {
		st, err := Status(ctx, js, b)
		if err != nil {
			return nil, err
		}
		sum, err := Summarize(ctx, nil, st, Output{})
		if err != nil {
			return nil, err
		}
		out = append(out, BatchInfo{Batch: b, Decks: sum.Decks, Done: sum.Done, Failed: sum.Failed, Cancelled: sum.Cancelled,
			Running: sum.Running, Queued: sum.Queued, Started: time.UnixMilli(st.Started)})
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Started.Equal(out[j].Started) {
			return out[i].Started.After(out[j].Started)
		}
		return out[i].Batch < out[j].Batch
	})
	return out, nil
}

// DeckDetail is one deck as `ace batch show` reports it: its summary row,
// its Temporal workflow (id, the latest run's id and status, how many runs
// the id has had), the step it is at while it runs, and with one deck
// asked for, each iteration with its steps (the result's).
type DeckDetail struct {
	SummaryRow
	WorkflowID     string             `json:"workflowId"`
	RunID          string             `json:"runId,omitempty"`
	Runs           int                `json:"runs"`
	WorkflowStatus string             `json:"workflowStatus,omitempty"`
	Retries        int                `json:"retries,omitempty"`
	Step           string             `json:"step,omitempty"`
	Detail         []*acev1.Iteration `json:"iterationDetail,omitempty"`
}

// workflowRunBrief is one run of a workflow id as visibility lists it.
type workflowRunBrief struct {
	runID   string
	status  enumspb.WorkflowExecutionStatus
	started time.Time
}

// BatchDetail is `ace batch show`'s answer: the batch's summary and its
// decks (one deck when one was named).
type BatchDetail struct {
	Summary *Summary     `json:"summary"`
	Decks   []DeckDetail `json:"decks"`
}

// ShowBatch reads the batch's events and, for each deck (or only deck,
// when not ""), its workflow from Temporal. A running deck's current step
// comes from its workflow's "progress" query, asked with a short timeout
// (no worker, no step). The error wraps ErrNoBatch for an id without
// events and names the batch's decks for an unknown deck.
func ShowBatch(ctx context.Context, c *Conn, batch, deck string) (*BatchDetail, error) {
	st, err := Status(ctx, c.JS, batch)
	if err != nil {
		return nil, err
	}
	if len(st.Decks) == 0 {
		return nil, fmt.Errorf("batch %s: %w", batch, ErrNoBatch)
	}
	if deck != "" {
		if err := knownDecks(st, []string{deck}); err != nil {
			return nil, err
		}
	}
	sum, err := Summarize(ctx, c.Store, st, Output{})
	if err != nil {
		return nil, err
	}
	out := &BatchDetail{Summary: sum}
	for _, row := range sum.Rows {
		if deck != "" && row.Deck != deck {
			continue
		}
		d := st.Decks[row.Deck]
		dd := DeckDetail{SummaryRow: row, WorkflowID: acev1.JobID(batch, row.Deck), Retries: d.Retries}
		runs, err := workflowRuns(ctx, c, dd.WorkflowID)
		if err != nil {
			return nil, err
		}
		dd.Runs = len(runs)
		if len(runs) > 0 {
			dd.RunID = runs[0].runID
			dd.WorkflowStatus = strings.ToLower(strings.TrimPrefix(runs[0].status.String(), "WORKFLOW_EXECUTION_STATUS_"))
		}
		if dd.WorkflowStatus == "running" {
			qctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			if v, err := c.Temporal.QueryWorkflow(qctx, dd.WorkflowID, "", workflows.QueryProgress); err == nil {
				var p workflows.Progress
				if v.Get(&p) == nil {
					dd.Step = string(p.Phase)
				}
			}
			cancel()
		}
		if deck != "" && d.Result != nil {
			dd.Detail = d.Result.Iterations
		}
		out.Decks = append(out.Decks, dd)
	}
	return out, nil
}

// workflowRuns lists the runs of workflow id (Temporal visibility), the
// latest first.
func workflowRuns(ctx context.Context, c *Conn, id string) ([]*workflowRunBrief, error) {
	var out []*workflowRunBrief
	var token []byte
	for {
		resp, err := c.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: fmt.Sprintf("WorkflowId = '%s'", id), NextPageToken: token})
		if err != nil {
			return nil, fmt.Errorf("runs of workflow %s: %w", id, err)
		}
		for _, e := range resp.Executions {
			out = append(out, &workflowRunBrief{runID: e.Execution.GetRunId(), status: e.Status, started: e.GetStartTime().AsTime()})
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	// The latest first: the running run (at most one), then by start time.
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := out[i].status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, out[j].status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
		if ri != rj {
			return ri
		}
		return out[i].started.After(out[j].started)
	})
	return out, nil
}

// knownDecks checks that every key names a deck of the batch; the error
// lists the batch's decks.
func knownDecks(st *State, keys []string) error {
	for _, k := range keys {
		if _, ok := st.Decks[k]; !ok {
			return fmt.Errorf("batch %s has no deck %q: its decks are %s (ace batch show %s)", st.Batch, k, strings.Join(st.Keys(), ", "), st.Batch)
		}
	}
	return nil
}

// DeckAction is what cancel or retry did to one deck.
type DeckAction struct {
	Deck       string `json:"deck"`
	WorkflowID string `json:"workflowId"`
	RunID      string `json:"runId,omitempty"`
	// Done is "cancel requested", "retried", or why nothing was done
	// ("already finished: done").
	Done string `json:"done"`
	// Acted is true when the deck was cancelled or started again.
	Acted bool `json:"acted"`
}

// finished reports whether the deck has a terminal event.
func (d *DeckState) finished() bool {
	return d.Phase == acev1.Phase_PHASE_DONE || d.Phase == acev1.Phase_PHASE_FAILED
}

// CancelDecks asks Temporal to cancel the workflows of the batch's decks
// (every unfinished deck when keys is empty): each stops at its next step
// boundary, publishes outcome "canceled" (reported as status "cancelled")
// and writes nothing; the original decks are never touched. A finished
// deck is left as it is and said so; a deck whose workflow has not started
// yet (queued) is reported and left, to cancel once it runs.
func CancelDecks(ctx context.Context, c *Conn, batch string, keys []string) ([]DeckAction, error) {
	st, err := Status(ctx, c.JS, batch)
	if err != nil {
		return nil, err
	}
	if len(st.Decks) == 0 {
		return nil, fmt.Errorf("batch %s: %w", batch, ErrNoBatch)
	}
	if err := knownDecks(st, keys); err != nil {
		return nil, err
	}
	all := len(keys) == 0
	if all {
		keys = st.Keys()
	}
	var out []DeckAction
	for _, k := range keys {
		d := st.Decks[k]
		a := DeckAction{Deck: k, WorkflowID: acev1.JobID(batch, k)}
		if d.finished() {
			if all {
				continue
			}
			a.Done = "already finished: " + rowStatus(d)
			out = append(out, a)
			continue
		}
		err := c.Temporal.CancelWorkflow(ctx, a.WorkflowID, "")
		var nf *serviceerror.NotFound
		switch {
		case err == nil:
			a.Done, a.Acted = "cancel requested: it stops at its next step", true
		case errors.As(err, &nf):
			a.Done = "not started yet (queued): cancel it once it runs"
		default:
			return out, fmt.Errorf("cancel deck %s (workflow %s): %w", k, a.WorkflowID, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// rowStatus is the deck's status as the summary reports it.
func rowStatus(d *DeckState) string {
	if d.Result != nil {
		return resultStatus(d.Result)
	}
	if d.Phase == acev1.Phase_PHASE_FAILED {
		return "failed"
	}
	return "running"
}

// RetryDecks runs the batch's decks again as new runs of the same
// workflow ids ("<batch>:<deck>"), the batch id unchanged: each deck is
// read again from its source path (so a fixed input is what runs), its
// recorded EditRequest is reused with the new snapshot, a QUEUED event
// marked RetryHeader drops the deck's earlier result from the batch's
// state, and the workflow is started directly (the job message of the
// first run is not published again). keys empty with failedOnly retries
// every deck whose status is "failed" (not "cancelled"). A deck still
// running, or one that cannot be read, is refused with the reason and
// nothing is started for any deck.
func RetryDecks(ctx context.Context, c *Conn, batch string, keys []string, failedOnly bool) ([]DeckAction, error) {
	st, err := Status(ctx, c.JS, batch)
	if err != nil {
		return nil, err
	}
	if len(st.Decks) == 0 {
		return nil, fmt.Errorf("batch %s: %w", batch, ErrNoBatch)
	}
	if err := knownDecks(st, keys); err != nil {
		return nil, err
	}
	if failedOnly {
		keys = nil
		for _, k := range st.Keys() {
			if d := st.Decks[k]; d.finished() && rowStatus(d) == "failed" {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return nil, fmt.Errorf("batch %s has no failed deck to retry (ace batch show %s)", batch, batch)
		}
	}
	type prepared struct {
		key    string
		req    *acev1.EditRequest
		reqRef string
		d      *DeckState
	}
	var todo []prepared
	for _, k := range keys {
		d := st.Decks[k]
		id := acev1.JobID(batch, k)
		if !d.finished() {
			return nil, fmt.Errorf("deck %s of batch %s is %s: only a finished deck is retried (ace batch cancel %s %s first)", k, batch, rowStatus(d), batch, k)
		}
		if runs, err := workflowRuns(ctx, c, id); err != nil {
			return nil, err
		} else if len(runs) > 0 && runs[0].status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			return nil, fmt.Errorf("deck %s of batch %s: its workflow %s still runs; wait for it or cancel it first (ace batch cancel %s %s)", k, batch, id, batch, k)
		}
		if d.RequestRef == "" {
			return nil, fmt.Errorf("deck %s of batch %s: the batch was submitted before ace recorded each deck's edit request, so it cannot be retried; run the batch command again (a new batch)", k, batch)
		}
		b, err := c.Store.Get(ctx, d.RequestRef)
		if err != nil {
			return nil, fmt.Errorf("deck %s of batch %s: its edit request: %w", k, batch, err)
		}
		req := &acev1.EditRequest{}
		if err := proto.Unmarshal(b, req); err != nil {
			return nil, fmt.Errorf("deck %s of batch %s: its edit request %s: %w", k, batch, d.RequestRef, err)
		}
		ref, err := putDeck(ctx, c.Store, d.Path)
		if err != nil {
			return nil, fmt.Errorf("deck %s of batch %s (%s): %w; fix the file and retry again", k, batch, d.Path, err)
		}
		req.DeckRef = ref
		reqRef, err := putRequest(ctx, c.Store, req)
		if err != nil {
			return nil, err
		}
		todo = append(todo, prepared{key: k, req: req, reqRef: reqRef, d: d})
	}
	var out []DeckAction
	for _, p := range todo {
		n := p.d.Retries + 1
		publishEvent(ctx, c.JS, &acev1.Progress{BatchId: batch, DeckKey: p.key, JobId: p.req.JobId,
			Phase: acev1.Phase_PHASE_QUEUED, Message: p.d.Path},
			fmt.Sprintf("retry%d:%d", n, time.Now().UnixNano()), RetryHeader, strconv.Itoa(n), RequestHeader, p.reqRef)
		run, err := startEdit(ctx, c.Temporal, p.req, enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
		if err != nil {
			return out, fmt.Errorf("retry deck %s (workflow %s): %w", p.key, p.req.JobId, err)
		}
		publishEvent(ctx, c.JS, &acev1.Progress{BatchId: batch, DeckKey: p.key, JobId: p.req.JobId,
			Phase: acev1.Phase_PHASE_STARTED}, "started:"+run.GetRunID())
		out = append(out, DeckAction{Deck: p.key, WorkflowID: p.req.JobId, RunID: run.GetRunID(),
			Done: fmt.Sprintf("retried (retry %d, read again from %s)", n, p.d.Path), Acted: true})
	}
	return out, nil
}
