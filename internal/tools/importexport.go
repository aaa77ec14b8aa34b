package tools

import (
	"bytes"
	"encoding/json"
	"fmt"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// MaxExportBytes bounds export_json's payload; larger subtrees must be read
// in parts (get_page_structure, get_node_info).
const MaxExportBytes = 256 << 10

type clearArgs struct {
	SlideID          string `json:"slideId,omitempty" desc:"Slide to clear; default the focused slide."`
	KeepPlaceholders bool   `json:"keepPlaceholders,omitempty" desc:"Keep title, body and footer placeholders (their text is kept too)."`
}

type exportArgs struct {
	NodeID string `json:"nodeId,omitempty" desc:"Slide or node to export; default the focused slide."`
}

type importArgs struct {
	ParentID string          `json:"parentId,omitempty" desc:"Where to add the nodes; default the focused slide. Ignored for SLIDE nodes, which are added as new slides."`
	Index    *int            `json:"index,omitempty" min:"0"`
	Nodes    json.RawMessage `json:"nodes" desc:"One node or an array of nodes in ACE scene-graph JSON (as export_json returns); ids are replaced with fresh ones."`
	X        *Length         `json:"x,omitempty" desc:"Move the (first) imported node to this x in its parent."`
	Y        *Length         `json:"y,omitempty"`
}

func importExportTools() []Tool {
	return []Tool{
		def(ModuleImportExport, "clear_canvas", false,
			"Remove everything from one slide (optionally keeping its placeholders), leaving the slide and its background. Ids of the removed nodes become stale.",
			func(e *Env, a *clearArgs) (Result, error) {
				id := orStr(a.SlideID, e.Focus)
				s, err := e.slide(id)
				if err != nil {
					return Result{}, err
				}
				res := Result{Changed: []string{s.ID}}
				for _, c := range append([]*sg.Node(nil), s.Children...) {
					if a.KeepPlaceholders && c.Placeholder != nil {
						continue
					}
					if e.Index().Has(c.ID) {
						res.Deleted = append(res.Deleted, e.deleteWithConnectors(c)...)
					}
				}
				return res, nil
			}),
		def(ModuleImportExport, "export_json", true,
			"Export a slide or node subtree as ACE scene-graph JSON (ids, types, geometry, styles, text), at most 256 KiB; export smaller parts of bigger slides. Paste it into import_json to copy content between slides or decks.",
			func(e *Env, a *exportArgs) (Result, error) {
				id := orStr(a.NodeID, e.Focus)
				n, err := e.node(id)
				if err != nil {
					return Result{}, err
				}
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(n); err != nil {
					return Result{}, err
				}
				if buf.Len() > MaxExportBytes {
					return Result{}, fmt.Errorf("node %q is %d bytes of JSON, over the %d-byte limit; export its children one by one (get_page_structure lists them)", id, buf.Len(), MaxExportBytes)
				}
				return Result{Data: json.RawMessage(bytes.TrimSpace(buf.Bytes()))}, nil
			}),
		def(ModuleImportExport, "import_json", false,
			"Add nodes described in ACE scene-graph JSON (one node or an array, e.g. from export_json) under a parent, with fresh ids; SLIDE nodes are added as new slides. Pictures must reference assets already in the deck.",
			func(e *Env, a *importArgs) (Result, error) {
				raw := bytes.TrimSpace(a.Nodes)
				var nodes []*sg.Node
				dec := json.NewDecoder(bytes.NewReader(raw))
				dec.DisallowUnknownFields()
				if len(raw) > 0 && raw[0] == '[' {
					if err := dec.Decode(&nodes); err != nil {
						return Result{}, fmt.Errorf("nodes: %v", err)
					}
				} else {
					var n sg.Node
					if err := dec.Decode(&n); err != nil {
						return Result{}, fmt.Errorf("nodes: %v", err)
					}
					nodes = []*sg.Node{&n}
				}
				if len(nodes) == 0 {
					return Result{}, fmt.Errorf("nodes is empty")
				}
				// check the fragment on its own before it touches the deck
				probe := &sg.Deck{ID: "import", Width: e.Deck.Width, Height: e.Deck.Height, Assets: e.Deck.Assets}
				for i, n := range nodes {
					if n == nil {
						return Result{}, fmt.Errorf("nodes[%d] is null", i)
					}
					if n.Transform.IsZero() {
						n.Transform = sg.Identity
					}
					n.Walk(func(c, _ *sg.Node, _ int) bool {
						if c.Transform.IsZero() {
							c.Transform = sg.Identity
						}
						return true
					})
					s := n
					if n.Type != sg.TypeSlide {
						s = &sg.Node{ID: "import-slide", Type: sg.TypeSlide, Transform: sg.Identity, Children: []*sg.Node{n}}
					}
					probe.Slides = append(probe.Slides, s)
				}
				if err := sg.Validate(probe); err != nil {
					return Result{}, fmt.Errorf("nodes are not valid scene-graph JSON: %w", err)
				}
				res := Result{}
				var parent *sg.Node
				for i, n := range nodes {
					e.reID(n)
					if n.Type == sg.TypeSlide {
						n.Size = sg.Vector{X: e.Deck.Width, Y: e.Deck.Height}
						e.insertSlide(n, -1)
						res.Created = append(res.Created, n.ID)
						continue
					}
					if parent == nil {
						p, err := e.container(a.ParentID)
						if err != nil {
							return Result{}, err
						}
						parent = p
					}
					if i == 0 {
						if a.X != nil {
							n.Transform[0][2] = float64(*a.X)
						}
						if a.Y != nil {
							n.Transform[1][2] = float64(*a.Y)
						}
					}
					at := -1
					if a.Index != nil {
						at = *a.Index + i
					}
					if n.LayoutPositioning == sg.PositioningAbsolute && !parent.HasAutoLayout() {
						n.LayoutPositioning = ""
					}
					e.insert(parent, n, at)
					res.Created = append(res.Created, n.ID)
				}
				return res, nil
			}),
	}
}
