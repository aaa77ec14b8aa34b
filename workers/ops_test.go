package workers

import (
	"context"
	"testing"

	"github.com/nats-io/nats.go"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// A retry's QUEUED event (RetryHeader) drops the deck's earlier result, so
// the batch reads as the new run's events tell it: the deck is queued,
// then running, then its new result replaces the old one; a deck whose
// result is EDIT_STATUS_CANCELED is "cancelled" and counted apart from the
// failed ones.
func TestRetryEventReplacesTheResultAndCancelledIsItsOwnStatus(t *testing.T) {
	st := &State{Batch: "b1", Decks: map[string]*DeckState{}}
	hdr := func(kv ...string) nats.Header {
		h := nats.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	ev := func(deck string, phase acev1.Phase, res *acev1.EditResult) *acev1.Progress {
		return &acev1.Progress{BatchId: "b1", DeckKey: deck, JobId: "b1:" + deck, Phase: phase, Message: "/decks/" + deck + ".pptx", Result: res, UnixMs: 1}
	}
	st.apply(ev("a", acev1.Phase_PHASE_QUEUED, nil), hdr(RequestHeader, "ref1"))
	st.apply(ev("b", acev1.Phase_PHASE_QUEUED, nil), hdr(RequestHeader, "ref2"))
	st.apply(ev("a", acev1.Phase_PHASE_FAILED, &acev1.EditResult{Status: acev1.EditStatus_EDIT_STATUS_FAILED, Outcome: "failed", Reason: "could not read the deck"}), nil)
	st.apply(ev("b", acev1.Phase_PHASE_FAILED, &acev1.EditResult{Status: acev1.EditStatus_EDIT_STATUS_CANCELED, Outcome: "canceled"}), nil)
	sum, err := Summarize(context.Background(), nil, st, Output{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 1 || sum.Cancelled != 1 || sum.Rows[0].Status != "failed" || sum.Rows[1].Status != "cancelled" || sum.Rows[1].Outcome != "canceled" {
		t.Fatalf("before the retry: %+v", sum)
	}
	if d := st.Decks["a"]; d.RequestRef != "ref1" || !d.finished() {
		t.Fatalf("deck a: %+v", d)
	}

	st.apply(ev("a", acev1.Phase_PHASE_QUEUED, nil), hdr(RetryHeader, "1", RequestHeader, "ref3"))
	if d := st.Decks["a"]; d.Phase != acev1.Phase_PHASE_QUEUED || d.Result != nil || d.Retries != 1 || d.RequestRef != "ref3" {
		t.Fatalf("deck a after the retry event: %+v", d)
	}
	if st.Finished() {
		t.Fatal("the batch reads finished while a retried deck runs")
	}
	st.apply(ev("a", acev1.Phase_PHASE_STARTED, nil), nil)
	st.apply(ev("a", acev1.Phase_PHASE_DONE, &acev1.EditResult{Status: acev1.EditStatus_EDIT_STATUS_OK, Outcome: "applied"}), nil)
	sum, err = Summarize(context.Background(), nil, st, Output{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Done != 1 || sum.Failed != 0 || sum.Cancelled != 1 || sum.Rows[0].Status != "ok" || sum.Rows[0].Outcome != "applied" || !st.Finished() {
		t.Fatalf("after the retry's result: %+v", sum)
	}
}
