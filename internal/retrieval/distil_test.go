package retrieval

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

// routerClient is a client whose router model is "router-m", served by
// the script over real HTTP.
func routerClient(t *testing.T, script string) (*llm.Client, *llmtest.Server) {
	t.Helper()
	sc, err := llmtest.ParseScript([]byte(script), t.Name()+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, sc)
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

func TestDistilAsksTheRouterForOperations(t *testing.T) {
	c, srv := routerClient(t, `
steps:
  - model: router-m
    text: '{"operations": ["edit table cells", "  sort   table rows ", "Edit table cells", "", "a", "b", "c", "d", "e"]}'
`)
	const x = "In the Q3 table on slide 4, set Berlin's revenue to 1.2M and sort the rows by revenue."
	d, err := Distil(context.Background(), c, x)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"edit table cells", "sort table rows", "a", "b", "c", "d"}
	if !slices.Equal(d.Operations, want) || d.Fallback != "" || len(d.Calls) != 1 {
		t.Fatalf("distilled %+v: want %q (repeats and empties dropped, cut to 6), no fallback, one call", d, want)
	}
	req := srv.RequestsFor("router-m")
	if len(req) != 1 {
		t.Fatalf("%d router requests", len(req))
	}
	ch := req[0].Chat
	if ch.ResponseFormat == nil || ch.ResponseFormat.Type != "json_object" ||
		ch.Messages[0].Content != distilSystem || ch.Messages[1].Content != x {
		t.Fatalf("request %+v: want JSON mode, the distil prompt and the instruction", ch)
	}
	if d.Calls[0].Role != llm.RoleRouter || d.Calls[0].Purpose != "distil" {
		t.Fatalf("call %+v", d.Calls[0])
	}
}

func TestDistilRetriesOnceThenFallsBack(t *testing.T) {
	c, srv := routerClient(t, `
steps:
  - model: router-m
    text: 'edit table cells'
  - model: router-m
    text: '{"operations": []}'
`)
	d, err := Distil(context.Background(), c, "Fix the typo in the title. Then move slide 2 to the end!")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Operations, []string{"Fix the typo in the title", "Then move slide 2 to the end"}) ||
		!strings.Contains(d.Fallback, "unusable") || len(d.Calls) != 2 {
		t.Fatalf("distilled %+v: want the two sentences, an unusable-answer fallback, two calls", d)
	}
	if last := srv.RequestsFor("router-m")[1].Chat.Messages; !strings.Contains(last[len(last)-1].Content, "could not be used") {
		t.Fatalf("the retry does not say why: %q", last[len(last)-1].Content)
	}
}

func TestDistilFallsBackOnAFailedCall(t *testing.T) {
	c, _ := routerClient(t, `
steps:
  - model: router-m
    status: 400
    error_message: bad model
`)
	d, err := Distil(context.Background(), c, "Add speaker notes to slide 3")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Operations, []string{"Add speaker notes to slide 3"}) || !strings.Contains(d.Fallback, "call failed") {
		t.Fatalf("distilled %+v", d)
	}
}

// TestDistilWithoutAModel is the written-down fallback: no router model
// (none configured at all: the router role defaults to the judge's and
// the agent's model), no call, the sentences.
func TestDistilWithoutAModel(t *testing.T) {
	for _, c := range []*llm.Client{nil, mustClient(t, llm.Config{})} {
		d, err := Distil(context.Background(), c, "Raise the growth rate to 1.5%; make the chart a line chart.\nKeep the rest")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"Raise the growth rate to 1.5%", "make the chart a line chart", "Keep the rest"}
		if !slices.Equal(d.Operations, want) || !strings.Contains(d.Fallback, "no model configured for the router role") || len(d.Calls) != 0 {
			t.Fatalf("distilled %+v, want %q", d, want)
		}
	}
	if d, _ := Distil(context.Background(), nil, "  "); len(d.Operations) != 0 {
		t.Fatalf("empty instruction gave %v", d.Operations)
	}
}

func mustClient(t *testing.T, cfg llm.Config) *llm.Client {
	t.Helper()
	cfg.BaseURL = "http://127.0.0.1:1/v1" // never called
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSentencesCapsAndClips(t *testing.T) {
	x := "One. Two. Three. Four. Five. Six. Seven. " + strings.Repeat("word ", 40)
	got := Sentences(x)
	if len(got) != MaxOperations || got[5] != "Six" {
		t.Fatalf("got %q: want the first six sentences", got)
	}
	long := Sentences(strings.Repeat("tables ", 40))
	if len(long) != 1 || len(long[0]) > maxOperationBytes || strings.HasSuffix(long[0], " ") {
		t.Fatalf("long sentence clipped to %q", long)
	}
}

func FuzzParseOperations(f *testing.F) {
	f.Add(`{"operations": ["edit table cells"]}`)
	f.Add("```json\n{\"operations\": [\"a\", \"a\"]}\n```")
	f.Add(`{"operations": "x"}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, s string) {
		ops, err := ParseOperations(s)
		if err != nil {
			if ops != nil {
				t.Fatalf("error %v with operations %q", err, ops)
			}
			return
		}
		if len(ops) == 0 || len(ops) > MaxOperations {
			t.Fatalf("%d operations", len(ops))
		}
		seen := map[string]bool{}
		for _, op := range ops {
			if op == "" || len(op) > maxOperationBytes || op != strings.TrimSpace(op) || seen[strings.ToLower(op)] {
				t.Fatalf("bad operation %q in %q", op, ops)
			}
			seen[strings.ToLower(op)] = true
		}
	})
}

func FuzzSentences(f *testing.F) {
	f.Add("Make the title bold. Move slide 2 to the end; add notes")
	f.Add("1.5 and 2. 3")
	f.Fuzz(func(t *testing.T, s string) {
		got := Sentences(s)
		if len(got) > MaxOperations {
			t.Fatalf("%d sentences", len(got))
		}
		for _, op := range got {
			if op == "" || len(op) > maxOperationBytes {
				t.Fatalf("bad sentence %q", op)
			}
		}
	})
}
