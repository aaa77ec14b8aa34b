package workers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/acecanvas/ace/activities"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/shareddecks"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// One embedded stack and one set of workers for the whole test binary.
var shared struct {
	conn *Conn
	acts *activities.Activities
	err  error
}

func TestMain(m *testing.M) {
	dir, _ := os.MkdirTemp("", "ace-workers-test-")
	code := func() int {
		ctx := context.Background()
		conn, err := Connect(ctx, Config{Namespace: "default", DataDir: dir})
		if err != nil {
			shared.err = err
			return m.Run()
		}
		defer conn.Close()
		shared.conn = conn
		acts, closeSteps, err := NewActivities(ctx, conn, AllQueues, 2)
		if err != nil {
			shared.err = err
			return m.Run()
		}
		defer closeSteps()
		shared.acts = acts
		ws, err := StartWorkers(conn.Temporal, AllQueues, acts, WorkerOptions{})
		if err != nil {
			shared.err = err
			return m.Run()
		}
		defer StopWorkers(ws)
		dctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go Dispatch(dctx, conn)
		return m.Run()
	}()
	os.RemoveAll(dir)
	os.Exit(code)
}

func stack(t *testing.T) *Conn {
	t.Helper()
	if shared.err != nil {
		t.Fatalf("embedded stack: %v", shared.err)
	}
	return shared.conn
}

// repoRoot walks up to the directory holding go.mod.
func repoRoot(t *testing.T) string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

func recipeEdit(t *testing.T, name string) Edit {
	path := filepath.Join(repoRoot(t), "testdata", "recipes", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Edit{RecipePath: path, RecipeData: data}
}

// TestRecipeBatchOnRealDecks runs the rebrand recipe over a generated deck
// and a real deck through ACE_JOBS, the dispatcher and EditWorkflow on the
// embedded stack, and checks every deck reports once with an exported file
// that no longer says "Northwind".
func TestRecipeBatchOnRealDecks(t *testing.T) {
	c := stack(t)
	root := repoRoot(t)
	decks := []string{filepath.Join(root, "testdata", "decks", "northwind-qbr.pptx"),
		filepath.Join(shareddecks.PPTXDir(t), "build_effective_agents.pptx")}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	batch, jobs, err := PrepareJobs(ctx, c.Store, "", decks, recipeEdit(t, "rebrand.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Submit(ctx, c.JS, batch, jobs); err != nil {
		t.Fatal(err)
	}
	st, err := Follow(ctx, c.JS, batch, []string{jobs[0].Key, jobs[1].Key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	sum, err := Summarize(ctx, c.Store, st, Output{Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	if err := sum.WriteFiles(out, false); err != nil {
		t.Fatal(err)
	}
	if sum.Done != 2 || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	qbr := st.Decks[jobs[0].Key].Result
	if qbr.Status != acev1.EditStatus_EDIT_STATUS_OK || qbr.Outcome != "applied" || qbr.FinalSnapshot == qbr.OriginSnapshot {
		t.Errorf("northwind-qbr: status %v outcome %q reason %q", qbr.Status, qbr.Outcome, qbr.Reason)
	}
	d, _, err := deckio.Load(filepath.Join(out, "northwind-qbr.pptx"))
	if err != nil {
		t.Fatalf("exported deck: %v", err)
	}
	if text := deckText(d); containsFold(text, "Northwind Analytics") || !containsFold(text, "Acme Insights") {
		t.Errorf("exported deck still names the old brand or lacks the new one")
	}
	for _, f := range []string{"summary.json", "summary.txt"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// Rerunning the same command names the same batch and starts nothing new.
	batch2, jobs2, err := PrepareJobs(ctx, c.Store, "", decks, recipeEdit(t, "rebrand.yaml"))
	if err != nil || batch2 != batch {
		t.Fatalf("rerun batch id %q vs %q (%v)", batch2, batch, err)
	}
	if err := Submit(ctx, c.JS, batch2, jobs2); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	if n := countResults(t, c.JS, batch); n != 2 {
		t.Errorf("%d results published for 2 decks after a rerun", n)
	}
	recordHistory(t, jobs[0].Request.JobId, "edit-recipe-v3.json")
}

// TestRedeliveredJobStartsOneWorkflowAndPublishesOneResult publishes the
// same job twice under different message ids (past the stream's duplicate
// window, as after a redelivery): the dispatcher starts one workflow, one
// result is published.
func TestRedeliveredJobStartsOneWorkflowAndPublishesOneResult(t *testing.T) {
	c := stack(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	deck := filepath.Join(repoRoot(t), "testdata", "decks", "northwind-strategy.pptx")
	batch := fmt.Sprintf("redeliver%d", time.Now().UnixNano())
	_, jobs, err := PrepareJobs(ctx, c.Store, batch, []string{deck}, recipeEdit(t, "title-normalize.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := proto.Marshal(&acev1.BatchJob{BatchId: batch, DeckKey: jobs[0].Key, Request: jobs[0].Request})
	for i := range 2 {
		msg := nats.NewMsg(acev1.JobSubject(batch, jobs[0].Key))
		msg.Data = data
		msg.Header.Set(nats.MsgIdHdr, fmt.Sprintf("%s#%d", jobs[0].Request.JobId, i))
		if _, err := c.JS.PublishMsg(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Follow(ctx, c.JS, batch, []string{jobs[0].Key}, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // let the second message reach the dispatcher
	resp, err := c.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("WorkflowId = '%s'", jobs[0].Request.JobId)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(resp.Executions); n != 1 {
		t.Errorf("%d workflow runs for one job", n)
	} else if resp.Executions[0].Status != enums.WORKFLOW_EXECUTION_STATUS_COMPLETED {
		t.Errorf("workflow status %v", resp.Executions[0].Status)
	}
	if n := countResults(t, c.JS, batch); n != 1 {
		t.Errorf("%d results published for one job", n)
	}
	info, err := c.JS.Stream(ctx, acev1.StreamJobs)
	if err != nil {
		t.Fatal(err)
	}
	si, _ := info.Info(ctx)
	if si.State.Msgs != 0 {
		t.Errorf("%d job messages left unacked in the work queue", si.State.Msgs)
	}
}

// countResults counts terminal events (with a result) of a batch.
func countResults(t *testing.T, js jetstream.JetStream, batch string) int {
	t.Helper()
	st, err := js.Stream(context.Background(), acev1.StreamEvents)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := st.OrderedConsumer(context.Background(), jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{acev1.EventSubject(batch, "*")}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		msg, err := cons.Next(jetstream.FetchMaxWait(500 * time.Millisecond))
		if err != nil {
			return n
		}
		var ev acev1.Progress
		if proto.Unmarshal(msg.Data(), &ev) == nil && ev.Result != nil {
			n++
		}
	}
}
