package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers"
)

// Into a pipe or a file, progress writes one plain line per change of the
// counts and no carriage returns; on a terminal it redraws one line.
func TestProgressInALogIsOneLinePerChange(t *testing.T) {
	st := &workers.State{Decks: map[string]*workers.DeckState{
		"a": {Phase: acev1.Phase_PHASE_QUEUED}, "b": {Phase: acev1.Phase_PHASE_QUEUED}}}
	var log bytes.Buffer
	p := &progress{w: &log, began: time.Now()}
	p.draw(st)
	p.draw(st) // unchanged: no new line
	st.Decks["a"].Phase = acev1.Phase_PHASE_STARTED
	p.draw(st)
	st.Decks["a"].Phase = acev1.Phase_PHASE_DONE
	st.Decks["b"].Phase = acev1.Phase_PHASE_FAILED
	p.draw(st)
	p.finish()
	want := "batch: 0/2 done 0 failed 0 running 2 queued, ETA ?\n" +
		"batch: 0/2 done 0 failed 1 running 1 queued, ETA ?\n" +
		"batch: 1/2 done 1 failed 0 running 0 queued, ETA 0s\n"
	if log.String() != want {
		t.Fatalf("log output:\n%q\nwant\n%q", log.String(), want)
	}

	var tty bytes.Buffer
	p = &progress{w: &tty, tty: true, began: time.Now()}
	p.draw(st)
	p.finish()
	if got := tty.String(); !strings.HasPrefix(got, "\r[") || !strings.Contains(got, "1/2 done 1 failed") || !strings.HasSuffix(got, "\n") {
		t.Fatalf("terminal output %q", got)
	}
}
