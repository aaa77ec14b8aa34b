package workers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/proto"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workflows"
)

// Dispatch consumes ACE_JOBS with the shared durable pull consumer and
// starts one EditWorkflow per job, with workflow id "<batch>:<deck>". A job
// whose workflow already exists (redelivery, a rerun of the batch) is acked
// without starting anything: duplicates are rejected by id. A malformed job
// is terminated (never redelivered) and reported as a FAILED event. It
// returns when ctx is done.
func Dispatch(ctx context.Context, c *Conn) error {
	cons, err := c.JS.CreateOrUpdateConsumer(ctx, acev1.StreamJobs, jetstream.ConsumerConfig{
		Durable:       acev1.ConsumerDispatch,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxAckPending: 256,
	})
	if err != nil {
		return fmt.Errorf("dispatch consumer on %s: %w", acev1.StreamJobs, err)
	}
	for ctx.Err() == nil {
		batch, err := cons.Fetch(32, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			time.Sleep(500 * time.Millisecond)
			continue
		}
		for msg := range batch.Messages() {
			dispatchOne(ctx, c, msg)
		}
	}
	return nil
}

func dispatchOne(ctx context.Context, c *Conn, msg jetstream.Msg) {
	var job acev1.BatchJob
	if err := proto.Unmarshal(msg.Data(), &job); err != nil || job.Request == nil {
		batch, deck := subjectParts(msg.Subject())
		publishEvent(ctx, c.JS, &acev1.Progress{BatchId: batch, DeckKey: deck, JobId: acev1.JobID(batch, deck),
			Phase: acev1.Phase_PHASE_FAILED, Message: fmt.Sprintf("malformed job message on %s: %v", msg.Subject(), err)}, "failed")
		_ = msg.Term()
		return
	}
	sctx := ExtractTrace(ctx, msg.Headers())
	// One workflow per job id from a job message: a finished job is not
	// redone (only `ace batch retry` starts a new run of the id).
	_, err := startEdit(sctx, c.Temporal, job.Request, enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case err == nil:
		publishEvent(ctx, c.JS, &acev1.Progress{BatchId: job.BatchId, DeckKey: job.DeckKey, JobId: job.Request.JobId,
			Phase: acev1.Phase_PHASE_STARTED}, "started")
		_ = msg.Ack()
	case errors.As(err, &started):
		_ = msg.Ack() // a duplicate: the workflow exists, nothing to do
	default:
		// Temporal unreachable or overloaded: try again later.
		_ = msg.NakWithDelay(2 * time.Second)
	}
}

// startEdit starts the EditWorkflow of req with workflow id req.JobId on
// the edit queue, with reuse deciding whether a closed workflow of that id
// may run again; a running one is never started twice (the error is
// *serviceerror.WorkflowExecutionAlreadyStarted).
func startEdit(ctx context.Context, c client.Client, req *acev1.EditRequest, reuse enumspb.WorkflowIdReusePolicy) (client.WorkflowRun, error) {
	return c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       req.JobId,
		TaskQueue:                workflows.QueueEdit,
		WorkflowIDReusePolicy:    reuse,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
	}, EditWorkflowName, workflows.EditInput{Request: req})
}

// publishEvent sends a Progress event with Nats-Msg-Id "<job>:<kind>" and
// the extra headers given as name, value pairs (best effort: a failure is
// dropped, as progress events are).
func publishEvent(ctx context.Context, js jetstream.JetStream, ev *acev1.Progress, kind string, headers ...string) {
	ev.UnixMs = time.Now().UnixMilli()
	data, err := proto.Marshal(ev)
	if err != nil {
		return
	}
	msg := nats.NewMsg(acev1.EventSubject(ev.BatchId, ev.DeckKey))
	msg.Data = data
	msg.Header.Set(nats.MsgIdHdr, ev.JobId+":"+kind)
	for i := 0; i+1 < len(headers); i += 2 {
		msg.Header.Set(headers[i], headers[i+1])
	}
	InjectTrace(ctx, msg.Header)
	_, _ = js.PublishMsg(ctx, msg)
}

func subjectParts(subject string) (batch, deck string) {
	// ace.jobs.<batch>.<deck>
	var parts [4]string
	n := 0
	start := 0
	for i := 0; i <= len(subject) && n < 4; i++ {
		if i == len(subject) || subject[i] == '.' {
			parts[n] = subject[start:i]
			n++
			start = i + 1
		}
	}
	return parts[2], parts[3]
}

// InjectTrace and ExtractTrace carry trace context through NATS headers;
// internal/telemetry wiring replaces them (W3C traceparent).
var (
	InjectTrace  = func(ctx context.Context, h nats.Header) {}
	ExtractTrace = func(ctx context.Context, h nats.Header) context.Context { return ctx }
)
