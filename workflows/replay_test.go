package workflows

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// TestReplayRecordedHistories replays every history in
// testdata/histories (recorded from real runs on the embedded stack by
// `ACE_RECORD_HISTORIES=1 go test ./workers -run 'Parity|Matches|RecipeBatch'`)
// against the current EditWorkflow. A change to the workflow that would
// break workflows already running fails here with a nondeterminism error:
// gate such changes with workflow.GetVersion.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "histories", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recorded histories in testdata/histories")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(EditWorkflow, workflow.RegisterOptions{Name: "EditWorkflow"})
			logger := log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err := r.ReplayWorkflowHistoryFromJSONFile(logger, f); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}
