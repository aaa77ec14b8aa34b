package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"go.temporal.io/sdk/activity"
	"google.golang.org/protobuf/proto"

	"github.com/acecanvas/ace/internal/telemetry"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// Publish sends the final EditResult to ACE_EVENTS on
// ace.events.<batch>.<deck> as a terminal Progress event. The Nats-Msg-Id is
// "<job id>:<run id>:result" ("<job id>:result" outside a workflow), so a
// retried Publish (or a workflow re-run after a crash) is dropped by the
// stream's duplicate window: one result per workflow run, and a new run of
// the same workflow id (`ace batch retry`) publishes its own.
func (a *Activities) Publish(ctx context.Context, res *acev1.EditResult) error {
	if a.JS == nil {
		return errors.New("this worker has no NATS connection for results")
	}
	batch, deck := acev1.SplitJobID(res.JobId)
	phase := acev1.Phase_PHASE_DONE
	if res.Status == acev1.EditStatus_EDIT_STATUS_FAILED || res.Status == acev1.EditStatus_EDIT_STATUS_CANCELED {
		phase = acev1.Phase_PHASE_FAILED
	}
	ev := &acev1.Progress{BatchId: res.BatchId, DeckKey: deck, JobId: res.JobId, Phase: phase,
		Iteration: int32(len(res.Iterations)), Message: res.Reason, UnixMs: time.Now().UnixMilli(), Result: res}
	data, err := proto.Marshal(ev)
	if err != nil {
		return err
	}
	msg := nats.NewMsg(acev1.EventSubject(batch, deck))
	msg.Data = data
	msg.Header.Set(nats.MsgIdHdr, runMsgID(ctx, res.JobId, "result"))
	InjectTrace(ctx, msg.Header)
	if _, err := a.JS.PublishMsg(ctx, msg); err != nil {
		return fmt.Errorf("publish result of %s: %w", res.JobId, err)
	}
	telemetry.RecordResult(ctx, res)
	return nil
}

// Progress publishes one iteration's event on ace.events.<batch>.<deck>
// (Nats-Msg-Id "<job>:<run id>:iter<n>", so a retry is a duplicate).
func (a *Activities) Progress(ctx context.Context, ev *acev1.Progress) error {
	if a.JS == nil {
		return errors.New("this worker has no NATS connection for progress events")
	}
	ev.UnixMs = time.Now().UnixMilli()
	data, err := proto.Marshal(ev)
	if err != nil {
		return err
	}
	msg := nats.NewMsg(acev1.EventSubject(ev.BatchId, ev.DeckKey))
	msg.Data = data
	msg.Header.Set(nats.MsgIdHdr, runMsgID(ctx, ev.JobId, fmt.Sprintf("iter%d", ev.Iteration)))
	InjectTrace(ctx, msg.Header)
	if _, err := a.JS.PublishMsg(ctx, msg); err != nil {
		return fmt.Errorf("publish progress of %s: %w", ev.JobId, err)
	}
	return nil
}

// runMsgID is the Nats-Msg-Id "<job>:<run id>:<kind>" of an event of the
// workflow run ctx's activity belongs to; "<job>:<kind>" outside one.
func runMsgID(ctx context.Context, job, kind string) string {
	if activity.IsActivity(ctx) {
		if run := activity.GetInfo(ctx).WorkflowExecution.RunID; run != "" {
			return job + ":" + run + ":" + kind
		}
	}
	return job + ":" + kind
}

// InjectTrace is set by internal/telemetry wiring to copy the span context
// into NATS headers; a no-op until then.
var InjectTrace = func(ctx context.Context, h nats.Header) {}
