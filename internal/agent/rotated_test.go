package agent_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// TestRotatedNodeContextMoveAndResize: the picture on slide 3 of the real
// deck career-tips.pptx is rotated 30 degrees; the agent's context gives
// the rotation and the unrotated box, the model moves and resizes the
// picture by those numbers, and the result (and the exported .pptx) has
// the unrotated box the model asked for and the same rotation.
func TestRotatedNodeContextMoveAndResize(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d0, blobs, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := tools.Apply(d0, []tools.Call{{Tool: "rotate_node", Args: json.RawMessage(`{"nodeId": "s3/87", "angle": 30}`)}}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pic := scenegraph.NewIndex(d).Node("s3/87")
	before := pic.Transform.UnrotatedBox(pic.Size)
	if orig := scenegraph.NewIndex(d0).Node("s3/87"); math.Abs(orig.Transform.X()-before.X) > 0.01 || math.Abs(orig.Transform.Y()-before.Y) > 0.01 {
		t.Fatalf("rotating about the centre moved the unrotated box: %+v -> %+v", orig.Transform, before)
	}
	const instruction = "On slide 3, move the tilted picture to x 560, y 60 and make it 260 x 380 px, keeping its tilt."
	dec := route.Heuristic(instruction, d)
	text, err := route.Context(d, dec)
	if err != nil {
		t.Fatal(err)
	}
	a, srv := newAgent(t, `
steps:
  - tool_calls:
      - {name: move_node, arguments: {nodeId: s3/87, x: 560, y: 60}}
      - {name: resize_node, arguments: {nodeId: s3/87, width: 260, height: 380}}
  - tool_calls: [{name: submit}]
`)
	got, out, _ := drive(t, a, agent.Input{Deck: d, Mode: string(dec.Mode), Context: text, Instruction: instruction}, 3)
	if len(out.Errors) > 0 {
		t.Fatalf("tool errors %+v", out.Errors)
	}
	first := srv.Requests()[0].Chat.Messages
	user := first[len(first)-1].Content
	want := fmt.Sprintf(`{"id":"s3/87","t":"IMAGE","x":%g,"y":%g,"w":%g,"h":%g,"rot":30`, r1(before.X), r1(before.Y), r1(before.Width), r1(before.Height))
	if !strings.Contains(user, want) {
		t.Errorf("the context does not give the rotation and unrotated box %s:\n%s", want, user)
	}
	if !strings.Contains(first[0].Content, "unrotated box") {
		t.Errorf("the mode block does not say how to read a rotated node")
	}
	var moveDesc, resizeDesc string
	for _, tl := range srv.Requests()[0].Chat.Tools {
		switch tl.Function.Name {
		case "move_node":
			moveDesc = tl.Function.Description
		case "resize_node":
			resizeDesc = tl.Function.Description
		}
	}
	if !strings.Contains(moveDesc, "rotated node") || !strings.Contains(resizeDesc, "rotated node") {
		t.Errorf("move_node / resize_node do not say how they treat a rotated node:\n%s\n%s", moveDesc, resizeDesc)
	}
	check := func(where string, n *scenegraph.Node) {
		t.Helper()
		b := n.Transform.UnrotatedBox(n.Size)
		if math.Abs(b.X-560) > 1 || math.Abs(b.Y-60) > 1 || math.Abs(b.Width-260) > 1 || math.Abs(b.Height-380) > 1 || math.Abs(n.Transform.Rotation()-30) > 0.1 {
			t.Errorf("%s: unrotated box %+v rotation %g, want (560,60 260x380) at 30 degrees", where, b, n.Transform.Rotation())
		}
	}
	check("after the edit", scenegraph.NewIndex(got).Node("s3/87"))
	file, err := pptx.Export(got, blobs)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := pptx.Import(file, "edited.pptx")
	if err != nil {
		t.Fatal(err)
	}
	check("in the exported .pptx", scenegraph.NewIndex(back).Node("s3/87"))
}

func r1(v float64) float64 { return math.Round(v*10) / 10 }
