package llmtest

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestForFailsForAWallClockDuration: a step with "for" answers every
// request from its first one until the duration has passed, whatever the
// number of requests, then the next step answers; the server's log shows
// when each 500 arrived.
func TestForFailsForAWallClockDuration(t *testing.T) {
	sc, err := ParseScript([]byte("steps:\n  - status: 500\n    for: 300ms\n  - text: ok\n"), "outage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(t, sc)
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	var codes []int
	for len(codes) < 100 {
		resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
		if resp.StatusCode == 200 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if last.Status != 200 || len(reqs) < 3 {
		t.Fatalf("statuses %v: want several 500s, then 200", codes)
	}
	first := reqs[0]
	if first.Status != 500 || last.At.Sub(first.At) < 300*time.Millisecond {
		t.Fatalf("the 200 came %v after the first 500, before the 300ms window ended", last.At.Sub(first.At))
	}
	for _, r := range reqs[:len(reqs)-1] {
		if r.Status != 500 || r.Step != 0 {
			t.Fatalf("request %d inside the window: status %d step %d", r.N, r.Status, r.Step)
		}
	}
	if srv.Unserved() != 0 {
		t.Fatalf("%d unserved steps", srv.Unserved())
	}
}

func TestForIsValidated(t *testing.T) {
	for _, bad := range []string{"for: soon", "for: -1s", "for: 1s\n    times: 3", "for: 1s\n    forever: true"} {
		if _, err := ParseScript([]byte("steps:\n  - status: 500\n    "+bad+"\n"), "bad.yaml"); err == nil || !strings.Contains(err.Error(), "for") {
			t.Errorf("%q: got %v", bad, err)
		}
	}
}
