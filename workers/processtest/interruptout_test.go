package processtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var soFar = regexp.MustCompile(`batch \w+: (\d+) of 6 decks finished so far: (\d+) edited decks? and the report of those in (\S+) \(open (\S+)\)`)

// Ctrl-C says what the output folder holds. Before any deck finished: no
// edited deck and no report, and no line pointing at one (it said "edited
// decks and report in OUT (open OUT/report.html)" with nothing there). Once
// decks finished: how many of the six, how many edited decks were written,
// and the report, which exists. The same command then finishes the batch.
func TestInterruptedBatchSaysWhatTheOutputHolds(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	args := append([]string{"batch", "--recipe", "testdata/recipes/rebrand.yaml", "-o", out}, sharedDecks(t,
		"Iphone16Pro", "blockchain-pitch", "build_effective_agents", "career-tips", "default_template", "table-report")...)

	first := start(t, data, args...)
	untilRunning(t, first, 5*time.Minute)
	code, lines := interrupt(t, first)
	msg := lineWith(lines, "no deck finished yet")
	t.Logf("exit %d before any deck finished: %s", code, msg)
	if code != 130 || !strings.Contains(msg, out+" has no edited deck and no report") || lineWith(lines, "report.html") != "" {
		t.Fatalf("exit %d; stderr:\n%s", code, strings.Join(lines, "\n"))
	}
	if _, err := os.Stat(filepath.Join(out, "report.html")); err == nil {
		t.Error("report.html written with no deck finished")
	}

	second := start(t, data, args...)
	second.waitLine(t, "1/6 done", 8*time.Minute)
	code, lines = interrupt(t, second)
	msg = lineWith(lines, "finished so far")
	t.Logf("exit %d after a deck finished: %s", code, msg)
	m := soFar.FindStringSubmatch(msg)
	if code != 130 || m == nil || m[1] == "0" || m[1] == "6" || m[2] != m[1] || m[3] != out {
		t.Fatalf("exit %d; stderr:\n%s", code, strings.Join(lines, "\n"))
	}
	if st, err := os.Stat(m[4]); err != nil || st.Size() == 0 {
		t.Errorf("the report the line points at: %v", err)
	}
	sum := readSummary(t, out)
	written := 0
	for _, r := range sum.Rows {
		if r.Output != "" {
			written++
		}
	}
	if m[2] != strconv.Itoa(written) {
		t.Errorf("the line says %s edited decks, summary.json lists %d", m[2], written)
	}

	third := start(t, data, args...)
	if code := exitOf(t, third, 10*time.Minute); code != 0 && code != 3 {
		t.Fatalf("the same command: exit %d", code)
	}
	onceEach(t, data, out, 6)
}
