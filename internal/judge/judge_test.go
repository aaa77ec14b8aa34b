package judge_test

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
)

func scriptPath(t testing.TB, name string) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "scripts", name)
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("go.mod not found")
		}
		dir = filepath.Dir(dir)
	}
}

func newJudge(t *testing.T, script string) (*judge.Judge, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Load(t, scriptPath(t, script))
	c, err := llm.New(srv.Config("agent-m", "judge-m"))
	if err != nil {
		t.Fatal(err)
	}
	return &judge.Judge{LLM: c}, srv
}

const diffText = `slide s1 "Title"
  Modified TEXT "Title" (s1/2): fontWeight 400 -> 700
`

func TestIFRetriesOnceOnUnparseableAnswer(t *testing.T) {
	j, srv := newJudge(t, "judge-if-retry.yaml")
	v, err := j.IF(context.Background(), judge.IFInput{Instruction: "Make every title bold.", Diff: diffText})
	if err != nil {
		t.Fatal(err)
	}
	if v.Score == nil || *v.Score != 4 || v.Missing || !strings.Contains(v.Reason, "Both titles are bold") {
		t.Fatalf("verdict %+v", v)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(v.Calls) != 2 {
		t.Fatalf("want 2 requests and 2 recorded calls, got %d and %d", len(reqs), len(v.Calls))
	}
	// The retry shows the model its own answer and the problem.
	retry := reqs[1].Chat.Messages
	if len(retry) != 4 || !strings.Contains(retry[3].Content, "not a JSON object") || retry[2].Content != "I would give this a 4 out of 5, the titles are mostly bold." {
		t.Fatalf("retry messages %+v", retry)
	}
	// The first request carries the instruction and the diff text verbatim, no images.
	first := reqs[0].Chat.Messages[1]
	if !strings.Contains(first.Content, "Make every title bold.") || !strings.Contains(first.Content, diffText[:30]) || len(first.MultiContent) != 0 {
		t.Fatalf("judge request %+v", first)
	}
	if reqs[0].Chat.Model != "judge-m" || reqs[0].Chat.ResponseFormat == nil {
		t.Fatalf("judge must use the judge model in JSON mode: %+v", reqs[0].Chat)
	}
	if u := llm.Sum(v.Calls); u.PromptTokens != 1860 || u.CompletionTokens != 50 {
		t.Fatalf("usage %+v", u)
	}
}

func TestIFMissingAfterTwoBadAnswers(t *testing.T) {
	j, srv := newJudge(t, "judge-if-missing.yaml")
	v, err := j.IF(context.Background(), judge.IFInput{Instruction: "x", Diff: diffText})
	if err != nil {
		t.Fatal(err)
	}
	if v.Score != nil || !v.Missing || !strings.Contains(v.Problem, "outside 0..5") {
		t.Fatalf("want a missing verdict naming the range problem, got %+v", v)
	}
	if len(srv.Requests()) != 2 {
		t.Fatalf("exactly one retry expected, got %d requests", len(srv.Requests()))
	}
}

func TestIFAcceptsFencedJSONAndSendsImages(t *testing.T) {
	j, srv := newJudge(t, "judge-if-fenced.yaml")
	png := []byte("\x89PNG\r\n\x1a\nfake-but-bytes")
	v, err := j.IF(context.Background(), judge.IFInput{Instruction: "Recolour the accent to green on all slides.", Diff: diffText,
		Images: []judge.Image{{SlideID: "s1", PNG: png}}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Score == nil || *v.Score != 2 {
		t.Fatalf("verdict %+v", v)
	}
	parts := srv.Requests()[0].Chat.Messages[1].MultiContent
	var sawImage bool
	for _, p := range parts {
		if p.ImageURL != nil && p.ImageURL.URL == "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png) {
			sawImage = true
		}
	}
	if !sawImage {
		t.Fatalf("the slide image was not sent: %+v", parts)
	}
}

func TestVQJudgesImages(t *testing.T) {
	j, srv := newJudge(t, "judge-vq.yaml")
	v, err := j.VQ(context.Background(), judge.VQInput{Images: []judge.Image{{SlideID: "s2", PNG: []byte("png")}}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Score == nil || *v.Score != 3 || !strings.Contains(v.Reason, "footer") {
		t.Fatalf("verdict %+v", v)
	}
	if !strings.Contains(srv.Requests()[0].Chat.Messages[0].Content, "VISUAL QUALITY") {
		t.Fatal("VQ system prompt not sent")
	}
	// Nothing rendered: no call at all.
	v, err = j.VQ(context.Background(), judge.VQInput{})
	if err != nil || !v.Missing || len(srv.Requests()) != 1 {
		t.Fatalf("VQ without images must not call the model: %+v %v", v, err)
	}
}

func TestParseVerdict(t *testing.T) {
	cases := []struct {
		in      string
		score   float64
		wantErr string
	}{
		{`{"s": 5, "r": "all good"}`, 5, ""},
		{`{"s": 3.5, "r": "half"}`, 3.5, ""},
		{"```json\n{\"s\": 0, \"r\": \"ignored\"}\n```", 0, ""},
		{``, 0, "empty"},
		{`{"s": "4", "r": "x"}`, 0, "not a number"},
		{`{"s": -1, "r": "x"}`, 0, "outside"},
		{`{"s": 4}`, 0, `"r"`},
		{`{"r": "x"}`, 0, `"s" is missing`},
		{`[4]`, 0, "not a JSON object"},
	}
	for _, c := range cases {
		s, _, err := judge.ParseVerdict(c.in, "s", "r")
		if c.wantErr == "" {
			if err != nil || s != c.score {
				t.Errorf("%q: got %v, %v", c.in, s, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%q: want error containing %q, got %v", c.in, c.wantErr, err)
		}
	}
}

func FuzzParseVerdict(f *testing.F) {
	f.Add(`{"instruction_following_score": 4, "instruction_following_reason": "ok"}`)
	f.Add("```json\n{}\n```")
	f.Add(`{"instruction_following_score": NaN}`)
	f.Fuzz(func(t *testing.T, s string) {
		score, reason, err := judge.ParseVerdict(s, "instruction_following_score", "instruction_following_reason")
		if err == nil && (score < 0 || score > 5 || reason == "") {
			t.Fatalf("accepted %q as %v %q", s, score, reason)
		}
	})
}

func TestGateOnlyNewViolationsFail(t *testing.T) {
	old := render.Violation{Key: "overlap|s1|s1/2,s1/3", Kind: "overlap", SlideID: "s1", NodeIDs: []string{"s1/2", "s1/3"}}
	fresh := render.Violation{Key: "text_overflow|s2|s2/5", Kind: "text_overflow", SlideID: "s2", NodeIDs: []string{"s2/5"}, Reason: "text is 40px taller than its box"}
	if g := judge.Gate([]render.Violation{old}, []render.Violation{old}); !g.Passed || len(g.New) != 0 {
		t.Fatalf("a violation the origin already had must not fail the gate: %+v", g)
	}
	g := judge.Gate([]render.Violation{old, fresh}, []render.Violation{old})
	if g.Passed || len(g.New) != 1 || g.New[0] != "text_overflow on slide s2 (s2/5): text is 40px taller than its box" {
		t.Fatalf("gate %+v", g)
	}
}

// Describe names one node's two boxes by their labels and keeps the
// overlap form (each node's box) otherwise.
func TestDescribeNamesBoxes(t *testing.T) {
	over := render.Violation{Kind: "text_overflow", SlideID: "s1", NodeIDs: []string{"s1/4"},
		Bounds:       []scenegraph.Rect{{X: 74, Y: 143, Width: 391, Height: 122}, {X: 74, Y: 99, Width: 300, Height: 169}},
		BoundsLabels: []string{"box", "text"}, Reason: "text runs 44 px past its box"}
	if got, want := judge.Describe(over), "text_overflow on slide s1 (s1/4) [box 74,143 391x122; text 74,99 300x169 px]: text runs 44 px past its box"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	overlap := render.Violation{Kind: "overlap", SlideID: "s1", NodeIDs: []string{"a", "b"},
		Bounds: []scenegraph.Rect{{X: 1, Y: 2, Width: 3, Height: 4}, {X: 5, Y: 6, Width: 7, Height: 8}}}
	if got, want := judge.Describe(overlap), "overlap on slide s1 (a, b) [box a at 1,2 3x4; b at 5,6 7x8 px]"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
