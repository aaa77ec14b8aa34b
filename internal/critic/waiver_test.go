package critic

import (
	"context"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/render"
)

// violationOn returns the one violation of vs with key, failing t if absent.
func violationOn(t *testing.T, vs []render.Violation, key string) render.Violation {
	t.Helper()
	for _, v := range vs {
		if v.Key == key {
			return v
		}
	}
	t.Fatalf("no violation %s among %v", key, vs)
	return render.Violation{}
}

// TestWaiver runs the waiver questions of issue 15 on career-tips.pptx
// against the scripted model: "rotate by 45 degrees" puts the picture on
// slide 4 past the slide edge, and "behind the title" makes the picture on
// slide 10 overlap the title.
func TestWaiver(t *testing.T) {
	c, srv := newCritic(t, "critic-waiver.yaml")
	ctx := context.Background()
	origin := careerTips(t)
	rotated, touched := edit(t, origin, call("rotate_node", map[string]any{"nodeId": "s4/97", "angle": 45}))
	in := turnInput(t, 1, rotateInstruction, origin, origin, rotated)
	oob := violationOn(t, in.Violations, "out_of_bounds|s4|s4/97")
	var l Ledger

	t.Run("a verbatim quote on a touched node is granted and recorded", func(t *testing.T) {
		d, err := c.Waive(ctx, &l, WaiverInput{Instruction: rotateInstruction, Violation: oob, Touched: touched, Diff: in.Diff})
		if err != nil {
			t.Fatal(err)
		}
		w := d.Waiver
		if w == nil || w.Quote != "by 45 degrees" || w.Key != oob.Key || w.Kind != render.KindOutOfBounds || w.Slide != "s4" ||
			!strings.Contains(w.Reason, "corners past") || d.Refusal != "" || len(d.Calls) != 1 {
			t.Fatalf("decision %+v", d)
		}
		if got := l.Waiver(oob.Key); got == nil || got.Quote != "by 45 degrees" {
			t.Fatalf("waiver not in the ledger: %+v", l.Waivers)
		}
		// The model saw the instruction, the violation and the touched nodes.
		user := srv.Requests()[0].Chat.Messages[1].Content
		for _, want := range []string{rotateInstruction, "VIOLATION: out_of_bounds on slide s4", "Nodes: s4/97", "NODES THE EDIT TOUCHED: s4/97", "outside the 960x540 slide"} {
			if !strings.Contains(user, want) {
				t.Fatalf("waiver request lacks %q:\n%s", want, user)
			}
		}
	})

	t.Run("a paraphrase is refused", func(t *testing.T) {
		var fresh Ledger
		d, err := c.Waive(ctx, &fresh, WaiverInput{Instruction: rotateInstruction, Violation: oob, Touched: touched})
		if err != nil {
			t.Fatal(err)
		}
		if d.Waiver != nil || !strings.Contains(d.Refusal, `"turn the pictures forty-five degrees" is not in the instruction word for word`) || len(fresh.Waivers) != 0 {
			t.Fatalf("decision %+v, ledger waivers %v", d, fresh.Waivers)
		}
	})

	t.Run("a node the edit did not touch is refused without a model call", func(t *testing.T) {
		n := len(srv.Requests())
		d, err := c.Waive(ctx, &l, WaiverInput{Instruction: rotateInstruction, Violation: oob, Touched: []string{"s5/103"}})
		if err != nil {
			t.Fatal(err)
		}
		if d.Waiver != nil || !strings.Contains(d.Refusal, "s4/97 was not touched by the edit") || len(srv.Requests()) != n || len(d.Calls) != 0 {
			t.Fatalf("decision %+v after %d requests", d, len(srv.Requests())-n)
		}
	})

	// "Put the picture behind the title": the overlap names the picture
	// (moved and restacked) and the title (untouched); one touched node of
	// an overlap is enough. The same move also covers the body text, which
	// the instruction does not ask for: the model declines that one.
	behind := "On slide 10, put the picture behind the title, at the left edge."
	moved, touched10 := edit(t, origin,
		call("move_node", map[string]any{"nodeId": "s10/175", "x": 0, "y": 48}),
		call("set_z_order", map[string]any{"nodeId": "s10/175", "action": "BEHIND", "relativeToId": "s10/173"}))
	in10 := turnInput(t, 1, behind, origin, origin, moved)

	t.Run("an overlap the instruction asks for is granted", func(t *testing.T) {
		v := violationOn(t, in10.Violations, "overlap|s10|s10/173,s10/175")
		d, err := c.Waive(ctx, &l, WaiverInput{Instruction: behind, Violation: v, Touched: touched10, Diff: in10.Diff})
		if err != nil {
			t.Fatal(err)
		}
		if d.Waiver == nil || d.Waiver.Quote != "behind the title" {
			t.Fatalf("decision %+v", d)
		}
	})

	t.Run("an overlap the instruction does not ask for is refused", func(t *testing.T) {
		v := violationOn(t, in10.Violations, "overlap|s10|s10/174,s10/175")
		d, err := c.Waive(ctx, &l, WaiverInput{Instruction: behind, Violation: v, Touched: touched10, Diff: in10.Diff})
		if err != nil {
			t.Fatal(err)
		}
		if d.Waiver != nil || !strings.Contains(d.Refusal, "no words of the instruction") || !strings.Contains(d.Refusal, "body text") {
			t.Fatalf("decision %+v", d)
		}
	})
	if len(l.Waivers) != 2 || srv.Unserved() != 0 {
		t.Fatalf("ledger waivers %+v, %d script steps unused", l.Waivers, srv.Unserved())
	}
	// The gate counts what is left: the picture over the body text.
	left := l.Unwaived(in10.Violations)
	if len(left) != 1 || left[0].Key != "overlap|s10|s10/174,s10/175" {
		t.Fatalf("unwaived %+v", left)
	}
	if ok, _ := render.Gate(left, in10.Baseline); ok {
		t.Fatal("the gate must still fail on the overlap nobody asked for")
	}
	if ok, _ := render.Gate(l.Unwaived(in.Violations), in.Baseline); !ok {
		t.Fatal("the waived rotation must pass the gate")
	}

	// A waived violation no longer counts: the next geometry pass resolves
	// its issue and records the quote.
	t.Run("the waived violation resolves its issue", func(t *testing.T) {
		client, _ := llm.New(llm.Config{}) // geometry only
		geo := &Critic{LLM: client}
		var gl Ledger
		if _, err := geo.Turn(ctx, &gl, in); err != nil {
			t.Fatal(err)
		}
		if statuses(&gl) != "I1:open" {
			t.Fatalf("before the waiver: %s", statuses(&gl))
		}
		gl.Waivers = append(gl.Waivers, *l.Waiver(oob.Key))
		in2 := in
		in2.Turn = 2
		if _, err := geo.Turn(ctx, &gl, in2); err != nil {
			t.Fatal(err)
		}
		if is := gl.Issue("I1"); is.Status != StatusResolved || is.Waived != "by 45 degrees" {
			t.Fatalf("I1 %+v", *is)
		}
		if strings.Contains(Feedback(nil, &gl, ""), "I1") {
			t.Fatal("a waived issue is not a fix to keep")
		}
	})
}

func TestVerifyQuote(t *testing.T) {
	instr := "Rotate the first picture on slides 4-7 by 45 degrees,\n  then put it  behind the title."
	cases := []struct {
		quote, want, err string
	}{
		{"by 45 degrees", "by 45 degrees", ""},
		{"  “by 45 degrees”  ", "by 45 degrees", ""},
		{"then put it behind the title", "then put it behind the title", ""}, // white space runs count as one
		{"degrees, then put", "degrees, then put", ""},
		{"By 45 degrees", "", "not in the instruction"}, // case kept
		{"by 45°", "", "not in the instruction"},
		{"by forty-five degrees", "", "not in the instruction"},
		{"rotate", "", "single word"},
		{"Rotate", "", "single word"},
		{"", "", "without quoting"},
	}
	for _, c := range cases {
		got, err := VerifyQuote(instr, c.quote)
		if c.err == "" && (err != nil || got != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("VerifyQuote(%q) = %q, %v; want %q, %q", c.quote, got, err, c.want, c.err)
		}
	}
}

func TestParseWaiverAnswer(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{`{"waive": true, "quote": "by 45 degrees", "reason": "asked"}`, ""},
		{"```json\n{\"waive\": false, \"reason\": \"nothing asks for it\"}\n```", ""},
		{`{"waive": true, "quote": "", "reason": "asked"}`, "quote"},
		{`{"quote": "x", "reason": "y"}`, `"waive" is missing`},
		{`{"waive": "yes", "quote": "x", "reason": "y"}`, "not a JSON object"},
		{`{"waive": false}`, `"reason"`},
		{`sure`, "not a JSON object"},
	} {
		_, err := parseWaiverAnswer(c.in)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.err)
		}
	}
}
