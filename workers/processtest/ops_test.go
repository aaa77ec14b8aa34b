package processtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acecanvas/ace/workers"
)

// opsWait bounds every wait of TestBatchOperations: generous, as the test
// runs six real decks on a loaded 2-core machine; each wait ends as soon
// as its line or exit arrives.
const opsWait = 15 * time.Minute

// showJSON is `ace batch show ID [DECK] --json`.
func showJSON(t *testing.T, data string, args ...string) workers.BatchDetail {
	t.Helper()
	var bd workers.BatchDetail
	out := aceOutput(t, data, append(append([]string{"batch", "show"}, args...), "--json")...)
	if err := json.Unmarshal([]byte(out), &bd); err != nil {
		t.Fatalf("ace batch show %v --json: %v\n%s", args, err, out)
	}
	return bd
}

func byDeck(bd workers.BatchDetail) map[string]workers.DeckDetail {
	m := map[string]workers.DeckDetail{}
	for _, d := range bd.Decks {
		m[d.Deck] = d
	}
	return m
}

// untilLine reads p's stderr lines until one holds every string of want.
func untilLine(t *testing.T, p *proc, timeout time.Duration, want ...string) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		l := p.waitLine(t, want[0], time.Until(deadline))
		ok := true
		for _, w := range want[1:] {
			ok = ok && strings.Contains(l, w)
		}
		if ok {
			return l
		}
	}
}

// TestBatchOperations runs list, show, cancel, retry and watch on a batch
// over the six real decks (issue 20). "Mid-run" is made deterministic, not
// timed: the stack's owner runs the dispatcher with the llm and diff
// workers but no edit worker, so every readable deck's workflow is started
// (the batch shows it running) and waits for its first workflow task. Two
// decks are cancelled then; once an edit and a render worker start, those
// two stop at their first step (status "cancelled", nothing written, the
// input files byte for byte as before) and the rest finish. One deck's
// input is broken (not a zip) and fails; after its file is fixed,
// `retry --failed` runs only it, under the same batch id: the other
// decks' workflow runs are the same before and after. A cancelled deck
// retried by name gets a second run of its workflow id, and its new result
// replaces "cancelled". A second batch attached to the same workers is
// interrupted with no terminal: it does not prompt, says it kept the deck
// running, and that deck finishes.
func TestBatchOperations(t *testing.T) {
	if testing.Short() {
		t.Skip("six real decks through the embedded stack")
	}
	data, in, out := t.TempDir(), t.TempDir(), t.TempDir()
	names := []string{"Iphone16Pro", "blockchain-pitch", "build_effective_agents", "career-tips", "default_template", "table-report"}
	sums := map[string][32]byte{}
	var paths []string
	for i, src := range sharedDecks(t, names...) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(in, names[i]+".pptx")
		if names[i] == "table-report" {
			b = []byte("not a pptx: broken on purpose; fixed before the retry")
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		sums[names[i]] = sha256.Sum256(b)
		paths = append(paths, p)
	}
	const broken = "table-report"
	cancelled := []string{"blockchain-pitch", "career-tips"}

	owner := start(t, data, "worker", "--queues", "llm,diff", "--dispatch")
	owner.waitLine(t, "ace worker: queues", opsWait)

	b := start(t, data, append([]string{"batch", "--no-workers", "--recipe", "testdata/recipes/legal-footer.yaml", "-o", out}, paths...)...)
	id := strings.TrimSuffix(strings.Fields(b.waitLine(t, "(ace batch status ", opsWait))[1], ":")
	// Five readable decks started, none can take a step yet.
	t.Logf("the batch: %s", untilLine(t, b, opsWait, "batch: ", " 5 running"))

	// A second batch on the same workers, interrupted with no terminal.
	solo := start(t, data, "batch", "--no-workers", "--recipe", "testdata/recipes/title-normalize.yaml", "-o", t.TempDir(), paths[2])
	soloID := strings.TrimSuffix(strings.Fields(solo.waitLine(t, "(ace batch status ", opsWait))[1], ":")
	untilLine(t, solo, opsWait, "batch: ", " 1 running")
	_ = syscall.Kill(solo.cmd.Process.Pid, syscall.SIGINT)
	said := solo.waitLine(t, "interrupted (SIGINT", opsWait)
	t.Logf("Ctrl-C with no terminal: %s", said)
	if code := exitOf(t, solo, opsWait); code != 130 || !strings.Contains(said, "no terminal to ask") || !strings.Contains(said, "kept its 1 unfinished deck running") {
		t.Errorf("the interrupted batch: exit %d, said %q", code, said)
	}

	var list []workers.BatchInfo
	if err := json.Unmarshal([]byte(aceOutput(t, data, "batch", "list", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	var seen bool
	for _, bi := range list {
		if bi.Batch == id {
			seen = true
			t.Logf("ace batch list: %+v", bi)
			if bi.Decks != 6 || bi.Failed != 1 || bi.Running != 5 || bi.Started.IsZero() {
				t.Errorf("ace batch list row of %s: %+v", id, bi)
			}
		}
	}
	if !seen || len(list) != 2 {
		t.Errorf("ace batch list: %+v, want %s and %s", list, id, soloID)
	}
	if table := aceOutput(t, data, "batch", "list"); !strings.Contains(table, id) || !strings.Contains(table, "AGE") {
		t.Errorf("ace batch list:\n%s", table)
	}

	var acts []workers.DeckAction
	if err := json.Unmarshal([]byte(aceOutput(t, data, append([]string{"batch", "cancel", id, "--json"}, cancelled...)...)), &acts); err != nil {
		t.Fatal(err)
	}
	if len(acts) != 2 || !acts[0].Acted || !acts[1].Acted {
		t.Fatalf("ace batch cancel: %+v", acts)
	}
	before := byDeck(showJSON(t, data, id))
	for _, n := range names {
		d := before[n]
		t.Logf("before: %s status %s workflow %s runs %d run %s (%s)", n, d.Status, d.WorkflowID, d.Runs, d.RunID, d.WorkflowStatus)
		if n == broken {
			if d.Status != "failed" || d.Runs != 0 {
				t.Errorf("the broken deck before the retry: %+v", d)
			}
		} else if d.WorkflowID != id+":"+n || d.Runs != 1 || d.RunID == "" {
			t.Errorf("deck %s before the edit workers: %+v", n, d)
		}
	}

	// The edit and render workers: the decks take their steps now.
	start(t, data, "worker", "--queues", "edit,render").waitLine(t, "ace worker: queues", opsWait)
	w := start(t, data, "batch", "watch", id)
	first := w.waitLine(t, "batch: ", opsWait)
	if !strings.Contains(first, "/6 done") {
		t.Errorf("ace batch watch's first line: %q", first)
	}
	if code := exitOf(t, w, opsWait); code != 0 {
		t.Errorf("ace batch watch: exit %d", code)
	}
	if code := exitOf(t, b, opsWait); code != 1 {
		t.Errorf("the batch: exit %d, want 1 (a deck failed)", code)
	}
	var sum workers.Summary
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	t.Logf("the batch: %d decks, %d done, %d failed, %d cancelled", sum.Decks, sum.Done, sum.Failed, sum.Cancelled)
	for _, r := range sum.Rows {
		switch {
		case r.Deck == cancelled[0] || r.Deck == cancelled[1]:
			if r.Status != "cancelled" || r.Outcome != "canceled" || r.Output != "" {
				t.Errorf("cancelled deck %s: %+v", r.Deck, r)
			}
		case r.Deck == broken:
			if r.Status != "failed" {
				t.Errorf("broken deck: %+v", r)
			}
		default:
			if r.Status != "ok" || r.Output == "" {
				t.Errorf("deck %s did not finish: %+v", r.Deck, r)
			}
		}
	}
	if sum.Done != 3 || sum.Cancelled != 2 || sum.Failed != 1 {
		t.Errorf("summary counts: %d done, %d cancelled, %d failed", sum.Done, sum.Cancelled, sum.Failed)
	}
	for _, n := range names {
		got, err := os.ReadFile(filepath.Join(in, n+".pptx"))
		if err != nil || sha256.Sum256(got) != sums[n] {
			t.Errorf("input %s changed (%v)", n, err)
		}
	}

	// Fix the broken input and retry the failed decks: only it runs.
	fixed, err := os.ReadFile(sharedDecks(t, broken)[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths[5], fixed, 0o644); err != nil {
		t.Fatal(err)
	}
	acts = nil
	if err := json.Unmarshal([]byte(aceOutput(t, data, "batch", "retry", id, "--failed", "--json")), &acts); err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 || acts[0].Deck != broken || acts[0].RunID == "" || acts[0].WorkflowID != id+":"+broken {
		t.Fatalf("ace batch retry --failed: %+v", acts)
	}
	// And a cancelled deck by name: a second run of its workflow id.
	var acts2 []workers.DeckAction
	if err := json.Unmarshal([]byte(aceOutput(t, data, "batch", "retry", id, cancelled[0], "--json")), &acts2); err != nil {
		t.Fatal(err)
	}
	if len(acts2) != 1 || acts2[0].RunID == "" || acts2[0].RunID == before[cancelled[0]].RunID {
		t.Fatalf("ace batch retry %s: %+v", cancelled[0], acts2)
	}
	// Watching from another terminal starts from the decks already done.
	w2 := start(t, data, "batch", "watch", id)
	first2 := w2.waitLine(t, "batch: ", opsWait)
	m := progressLine.FindStringSubmatch(first2)
	if m == nil || m[1] < "3" || m[2] != "6" {
		t.Errorf("ace batch watch after the retries began with %q, want 3 or more of 6 done", first2)
	}
	if code := exitOf(t, w2, opsWait); code != 0 {
		t.Errorf("ace batch watch: exit %d", code)
	}
	var after workers.Summary
	if err := json.Unmarshal([]byte(aceOutput(t, data, "batch", "status", id, "--json")), &after); err != nil {
		t.Fatal(err)
	}
	t.Logf("after the retries: %d done, %d failed, %d cancelled", after.Done, after.Failed, after.Cancelled)
	if after.Batch != id || after.Done != 5 || after.Cancelled != 1 || after.Failed != 0 {
		t.Errorf("after the retries: %+v", after)
	}
	now := byDeck(showJSON(t, data, id))
	for _, n := range names {
		d, was := now[n], before[n]
		t.Logf("after: %s status %s runs %d run %s", n, d.Status, d.Runs, d.RunID)
		switch n {
		case broken:
			if d.Status != "ok" || d.Runs != 1 || d.RunID != acts[0].RunID || d.Retries != 1 {
				t.Errorf("the retried deck: %+v", d)
			}
		case cancelled[0]:
			if d.Status != "ok" || d.Runs != 2 || d.RunID != acts2[0].RunID {
				t.Errorf("the retried cancelled deck: %+v", d)
			}
		default:
			if d.Runs != 1 || d.RunID != was.RunID {
				t.Errorf("deck %s ran again: before %+v, after %+v", n, was, d)
			}
		}
	}
	one := showJSON(t, data, id, broken)
	if len(one.Decks) != 1 || len(one.Decks[0].Detail) == 0 || one.Decks[0].Outcome == "" {
		t.Errorf("ace batch show %s %s: %+v", id, broken, one.Decks)
	}
	if table := aceOutput(t, data, "batch", "show", id, broken); !strings.Contains(table, id+":"+broken) || !strings.Contains(table, "iteration 1") {
		t.Errorf("ace batch show %s %s:\n%s", id, broken, table)
	}

	// The interrupted batch's deck kept running and finished.
	var soloSum workers.Summary
	if err := json.Unmarshal([]byte(aceOutput(t, data, "batch", "watch", soloID, "--json")), &soloSum); err != nil {
		t.Fatal(err)
	}
	if soloSum.Decks != 1 || soloSum.Done != 1 {
		var buf bytes.Buffer
		json.NewEncoder(&buf).Encode(soloSum)
		t.Errorf("the interrupted batch's deck: %s", buf.String())
	}
}
