package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// statusLine reports the progress of long single-deck work (ace render's
// slides, say) on stderr, as issue 20 asks: on a terminal one line
// redrawn in place with a bar; otherwise (a pipe, a log file, CI) a line
// per report, at most one per statusEvery apart from the last, so a log
// is not flooded. Safe for concurrent use.
type statusLine struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	shown bool      // a redrawn line is on screen (tty)
	last  time.Time // when the last line was written (not tty)
	msg   string    // the last message show printed
	// counting: the last line was a throttled count; a count right after
	// another message is always printed.
	counting bool
}

// statusEvery is the least time between two progress lines off a terminal.
const statusEvery = 2 * time.Second

// newStatusLine writes to w, redrawing in place when w is a terminal.
func newStatusLine(w io.Writer) *statusLine {
	s := &statusLine{w: w}
	if f, ok := w.(*os.File); ok {
		s.tty = term.IsTerminal(int(f.Fd()))
	}
	return s
}

// count reports done of total units of what label names ("render: slides").
func (s *statusLine) count(label string, done, total int) {
	if s == nil || s.w == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tty {
		const width = 30
		fill := 0
		if total > 0 {
			fill = min(done, total) * width / total
		}
		fmt.Fprintf(s.w, "\r%s [%s%s] %d/%d   ", label, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), done, total)
		s.shown = true
		return
	}
	if done < total && done > 1 && time.Since(s.last) < statusEvery {
		return
	}
	s.last = time.Now()
	fmt.Fprintf(s.w, "%s %d/%d\n", label, done, total)
}

// show reports what is happening now (msg, "edit: iteration 1: judge"):
// on a terminal the line is redrawn; otherwise each new message is a
// line, and with throttle set (a count that changes often) at most one
// per statusEvery after the previous count.
func (s *statusLine) show(msg string, throttle bool) {
	if s == nil || s.w == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tty {
		pad := max(0, len(s.msg)-len(msg))
		fmt.Fprintf(s.w, "\r%s%s", msg, strings.Repeat(" ", pad))
		s.msg, s.shown = msg, true
		return
	}
	if msg == s.msg || (throttle && s.counting && time.Since(s.last) < statusEvery) {
		return
	}
	s.msg, s.last, s.counting = msg, time.Now(), throttle
	fmt.Fprintln(s.w, msg)
}

// say prints one message as its own line (ending a redrawn line first).
func (s *statusLine) say(msg string) {
	if s == nil || s.w == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endLine()
	fmt.Fprintln(s.w, msg)
}

// finish ends a redrawn line, so what follows starts on a line of its own.
func (s *statusLine) finish() {
	if s == nil || s.w == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endLine()
}

// endLine ends a redrawn line on screen, if any; s.mu is held.
func (s *statusLine) endLine() {
	if s.shown {
		fmt.Fprintln(s.w)
		s.shown = false
	}
}
