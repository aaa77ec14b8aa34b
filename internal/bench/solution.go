package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/acecanvas/ace/internal/deckio"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

// LoadSolution reads a task's hand-written solution: a JSON list of tool
// calls in the agent's tool language (docs/tools.md),
//
//	[{"tool": "set_text_content", "args": {"nodeId": "s1/66", "text": "..."}},
//	 {"tool": "create_slide", "args": {...}, "as": "agenda"}]
//
// applied in order as one batch (tools.Apply). Unknown keys, an empty list
// or a call without a tool are errors naming the file.
func LoadSolution(path string) ([]tools.Call, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("solution %s: %w", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var calls []tools.Call
	if err := dec.Decode(&calls); err != nil {
		return nil, fmt.Errorf("solution %s: want a JSON list of {\"tool\", \"args\"} calls: %w", path, err)
	}
	if len(calls) == 0 {
		return nil, fmt.Errorf("solution %s: no calls", path)
	}
	for i, c := range calls {
		if _, ok := tools.Registry().Get(c.Tool); !ok {
			return nil, fmt.Errorf("solution %s: call %d: unknown tool %q", path, i, c.Tool)
		}
	}
	return calls, nil
}

// Reimport exports d to .pptx the way `ace edit` writes its output
// (deckio.Encode) and imports the bytes again (deckio.Decode), so checks
// see what a user opens: whatever the export drops or changes is gone.
// assets supplies the pictures (the original blobs plus those the edit
// added).
func Reimport(d *sg.Deck, assets sg.AssetSource) (*sg.Deck, error) {
	b, err := deckio.Encode("result.pptx", d, assets)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	out, _, err := deckio.Decode("result.pptx", b)
	if err != nil {
		return nil, fmt.Errorf("import the export again: %w", err)
	}
	return out, nil
}
