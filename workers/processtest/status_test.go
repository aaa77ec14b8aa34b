package processtest

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/workers"
)

// aceOutput runs ace to its end on the stack of dataDir, as start does,
// and returns its stdout.
func aceOutput(t *testing.T, dataDir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(ace(t), args...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "ACE_DATA_DIR="+dataDir, "ACE_TEMPORAL_ADDRESS=", "ACE_NATS_URL=", "ACE_REDIS_URL=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ace %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

var progressLine = regexp.MustCompile(`batch: (\d+)/(\d+) done (\d+) failed (\d+) running (\d+) queued`)

// The reported mismatch: `ace batch status ID` from a second terminal,
// while the batch runs, said every deck was pending when the batch showed
// them running. Status now counts and lists the decks as the batch's own
// progress line does: while the batch shows decks running, status (run
// before and after that line's next change, which brackets it) shows
// running decks too, none listed "pending", and the counts add up.
func TestBatchStatusShowsTheStatesTheBatchShows(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	args := append([]string{"batch", "--recipe", "testdata/recipes/legal-footer.yaml", "-o", out},
		sharedDecks(t, "default_template", "career-tips", "blockchain-pitch")...)
	b := start(t, data, args...)
	id := strings.Fields(b.waitLine(t, "(ace batch status ", 5*time.Minute))[1]
	id = strings.TrimSuffix(id, ":")
	l := untilRunning(t, b, 5*time.Minute)
	m := progressLine.FindStringSubmatch(l)
	if m == nil {
		t.Fatalf("progress line %q", l)
	}
	running, _ := strconv.Atoi(m[4])

	var sum workers.Summary
	if err := json.Unmarshal([]byte(aceOutput(t, data, "batch", "status", id, "--json")), &sum); err != nil {
		t.Fatal(err)
	}
	table := aceOutput(t, data, "batch", "status", id)
	t.Logf("the batch: %s\nace batch status --json: %d decks, %d done, %d failed, %d running, %d queued\nace batch status: %s",
		l, sum.Decks, sum.Done, sum.Failed, sum.Running, sum.Queued, strings.SplitN(table, "\n", 2)[0])
	if sum.Decks != 3 || sum.Done+sum.Failed+sum.Running+sum.Queued != 3 || sum.Pending != sum.Running+sum.Queued {
		t.Errorf("status counts do not add up: %+v", sum)
	}
	// Decks only move forward: those the batch showed running are
	// running or finished when status reads the events after it.
	if sum.Running+sum.Done+sum.Failed < running {
		t.Errorf("the batch showed %d running, status %d running and %d finished", running, sum.Running, sum.Done+sum.Failed)
	}
	for _, r := range sum.Rows {
		if r.Status == "pending" {
			t.Errorf("deck %s listed as pending", r.Deck)
		}
	}
	if !regexp.MustCompile(`\d+ running, \d+ queued`).MatchString(table) {
		t.Errorf("status table head: %s", strings.SplitN(table, "\n", 2)[0])
	}
	if code := exitOf(t, b, 5*time.Minute); code != 0 {
		t.Fatalf("the batch: exit %d", code)
	}
}
