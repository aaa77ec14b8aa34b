package judge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

func pairwiseJudge(t *testing.T, script string) (*judge.Judge, *llmtest.Server) {
	t.Helper()
	sc, err := llmtest.ParseScript([]byte(script), t.Name())
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, sc)
	c, err := llm.New(srv.Config("agent-m", "judge-m"))
	if err != nil {
		t.Fatal(err)
	}
	return &judge.Judge{LLM: c}, srv
}

// TestPairwiseBothOrdersSwapsAndTallies: on the real deck
// career-tips.pptx, an edit that rewrites the subtitle as asked is
// compared with one that rotates a picture instead. The judge sees the
// brief, the original's snapshot and each edit's diff, then the same pair
// with A and B swapped; a judge that prefers the right edit both times
// gives it two wins.
func TestPairwiseBothOrdersSwapsAndTallies(t *testing.T) {
	d := careerTips(t)
	good := apply(t, d, `set_text_content {"nodeId": "s3/90", "text": "Grow one small step at a time"}`)
	bad := apply(t, d, `rotate_node {"nodeId": "s3/87", "angle": 45}`)
	j, srv := pairwiseJudge(t, `
steps:
  - text: '{"better": "A", "reason": "A rewrites the subtitle; B only tilts a picture."}'
  - text: '{"better": "b", "reason": "B rewrites the subtitle; A only tilts a picture."}'
`)
	brief := "Rewrite the subtitle on slide 3 to: Grow one small step at a time."
	tally, err := j.PairwiseBothOrders(context.Background(), judge.PairwiseDecks(brief, d, good, bad))
	if err != nil {
		t.Fatal(err)
	}
	if tally.Wins != 2 || tally.Losses != 0 || tally.Ties != 0 {
		t.Fatalf("tally %+v, want 2 wins", tally)
	}
	if tally.Verdicts[1].Preference != judge.PreferB || !strings.Contains(tally.Verdicts[1].Reason, "B rewrites") {
		t.Errorf("second verdict %+v", tally.Verdicts[1])
	}
	if n := len(tally.Calls()); n != 2 {
		t.Errorf("%d calls recorded, want 2", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, wantA := range []string{"Grow one small step", "rotated 0 -> 45 degrees"} {
		msgs := reqs[i].Chat.Messages
		if reqs[i].Chat.Model != "judge-m" {
			t.Errorf("request %d went to %s, want the judge model", i, reqs[i].Chat.Model)
		}
		user := msgs[len(msgs)-1].Content
		for _, want := range []string{brief, "ORIGINAL DECK", "Original deck (D0) snapshot"} {
			if !strings.Contains(user, want) {
				t.Errorf("request %d does not show %q", i, want)
			}
		}
		a, b, ok := strings.Cut(user, "EDIT B (")
		if !ok {
			t.Fatalf("request %d has no EDIT B section:\n%s", i, user)
		}
		a = a[strings.Index(a, "EDIT A ("):]
		if !strings.Contains(a, wantA) {
			t.Errorf("request %d: EDIT A does not show %q:\n%s", i, wantA, a)
		}
		other := map[int]string{0: "rotated 0 -> 45 degrees", 1: "Grow one small step"}[i]
		if !strings.Contains(b, other) || strings.Contains(a, other) {
			t.Errorf("request %d: EDIT B should show %q and EDIT A not", i, other)
		}
	}
}

// TestPairwisePositionBiasAndMissing: a judge that always says "A" gives
// one win and one loss (position bias cancels); an answer that does not
// parse twice is a missing verdict counted as a tie; "tie" is a tie.
func TestPairwisePositionBiasAndMissing(t *testing.T) {
	in := judge.PairwiseInput{Brief: "Make every title bold.", Original: "snapshot", A: "JsonDiff: 1 edit", B: "JsonDiff: no changes"}
	j, _ := pairwiseJudge(t, `
steps:
  - text: '{"better": "A", "reason": "first"}'
    times: 2
  - text: 'I think A is better.'
  - text: '{"better": "left", "reason": "x"}'
  - text: '{"better": "tie", "reason": "Both bold every title."}'
`)
	tally, err := j.PairwiseBothOrders(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Wins != 1 || tally.Losses != 1 || tally.Ties != 0 {
		t.Errorf("position-biased judge: tally %+v, want 1 win 1 loss", tally)
	}
	tally, err = j.PairwiseBothOrders(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Wins != 0 || tally.Losses != 0 || tally.Ties != 2 || tally.Missing != 1 {
		t.Errorf("missing then tie: tally %+v, want 2 ties, 1 missing", tally)
	}
	if v := tally.Verdicts[0]; !v.Missing || !strings.Contains(v.Problem, `"left"`) || len(v.Calls) != 2 {
		t.Errorf("missing verdict %+v", v)
	}
}

func TestParsePairwise(t *testing.T) {
	for _, c := range []struct {
		in   string
		want judge.Preference
		err  string
	}{
		{"```json\n{\"better\": \"B\", \"reason\": \"B bolds all three titles.\"}\n```", judge.PreferB, ""},
		{`{"better": " Tie ", "reason": "same"}`, judge.PreferTie, ""},
		{`{"better": "C", "reason": "x"}`, "", `must be "A", "B" or "tie"`},
		{`{"better": "A"}`, "", `"reason" is missing`},
		{`{"better": 1, "reason": "x"}`, "", `"better" is missing or not a string`},
		{``, "", "empty"},
		{`A`, "", "not a JSON object"},
	} {
		p, _, err := judge.ParsePairwise(c.in)
		if c.err == "" && (err != nil || p != c.want) {
			t.Errorf("%q: got %q, %v; want %q", c.in, p, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.err)
		}
	}
}

func FuzzParsePairwise(f *testing.F) {
	f.Add(`{"better": "A", "reason": "r"}`)
	f.Add("```json\n{\"better\": \"tie\", \"reason\": \" \"}\n```")
	f.Add(`{"better": null}`)
	f.Fuzz(func(t *testing.T, s string) {
		p, reason, err := judge.ParsePairwise(s)
		if err != nil {
			return
		}
		if p != judge.PreferA && p != judge.PreferB && p != judge.PreferTie {
			t.Fatalf("parsed preference %q", p)
		}
		if strings.TrimSpace(reason) == "" {
			t.Fatal("parsed an empty reason")
		}
	})
}
