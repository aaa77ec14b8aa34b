package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Read tools return bounded pages: at most MaxPage items per call, with a
// nextCursor to continue, so no read can return a whole large deck (ACE
// issue 4; CARE keeps the agent's context small, §3.2).
const (
	DefaultPage = 50
	MaxPage     = 200
	// MaxTextChars bounds the characters one read returns per node.
	MaxTextChars = 2000
)

type page struct {
	Limit  int    `json:"limit,omitempty" min:"1" max:"200" desc:"Items per page; default 50, at most 200."`
	Cursor string `json:"cursor,omitempty" desc:"nextCursor from the previous page."`
}

func (p page) bounds(total int) (int, int, error) {
	off := 0
	if p.Cursor != "" {
		v, err := strconv.Atoi(p.Cursor)
		if err != nil || v < 0 {
			return 0, 0, fmt.Errorf("cursor %q is not one this tool returned; start without a cursor", p.Cursor)
		}
		off = v
	}
	lim := p.Limit
	if lim <= 0 {
		lim = DefaultPage
	}
	lim = min(lim, MaxPage)
	off = min(off, total)
	return off, min(off+lim, total), nil
}

// paged is the envelope of every list read.
type paged struct {
	Items      any    `json:"items"`
	Total      int    `json:"total"`
	NextCursor string `json:"nextCursor,omitempty"`
}

func pageOf[T any](items []T, p page) (json.RawMessage, error) {
	lo, hi, err := p.bounds(len(items))
	if err != nil {
		return nil, err
	}
	out := paged{Items: items[lo:hi], Total: len(items)}
	if out.Items == nil || hi == lo {
		out.Items = []T{}
	}
	if hi < len(items) {
		out.NextCursor = strconv.Itoa(hi)
	}
	return asData(out), nil
}

// nodeSummary is the short form of a node in lists.
type nodeSummary struct {
	ID       string  `json:"id"`
	Type     string  `json:"type"`
	Name     string  `json:"name,omitempty"`
	SlideID  string  `json:"slideId,omitempty"`
	ParentID string  `json:"parentId,omitempty"`
	Bounds   sg.Rect `json:"bounds"` // slide px, axis-aligned
	// Rotation (degrees clockwise about the centre) and Box, the unrotated
	// box in the parent's px that move_node and resize_node work on, are
	// given for a rotated node only.
	Rotation float64  `json:"rotation,omitempty"`
	Box      *sg.Rect `json:"box,omitempty"`
	Text     string   `json:"text,omitempty"`
	Children int      `json:"children,omitempty"`
}

func (e *Env) summary(n *sg.Node) nodeSummary {
	s := nodeSummary{ID: n.ID, Type: string(n.Type), Name: n.Name, Children: len(n.Children), Text: clip(n.Characters, 120)}
	if sl := e.Index().Slide(n.ID); sl != nil && sl != n {
		s.SlideID = sl.ID
	}
	if p := e.parent(n); p != nil {
		s.ParentID = p.ID
	}
	if n.Type == sg.TypeSlide {
		s.Bounds = sg.Rect{Width: e.Deck.Width, Height: e.Deck.Height}
	} else {
		b := e.absBounds(n)
		s.Bounds = sg.Rect{X: round2(b.X), Y: round2(b.Y), Width: round2(b.Width), Height: round2(b.Height)}
		if r := round2(n.Transform.Rotation()); r != 0 {
			u := n.Transform.UnrotatedBox(n.Size)
			s.Rotation, s.Box = r, &sg.Rect{X: round2(u.X), Y: round2(u.Y), Width: round2(u.Width), Height: round2(u.Height)}
		}
	}
	return s
}

type nodeInfoArgs struct {
	NodeID string `json:"nodeId"`
	page
}

type byTypesArgs struct {
	Types  []string `json:"types" minItems:"1" enum:"SLIDE,FRAME,GROUP,SECTION,COMPONENT,INSTANCE,TEXT,RECTANGLE,ELLIPSE,LINE,VECTOR,IMAGE,TABLE,TABLE_CELL,CHART,MATH,CONNECTOR"`
	NodeID string   `json:"nodeId,omitempty" desc:"Search under this slide or node; default the whole deck."`
	page
}

type scanArgs struct {
	NodeID string `json:"nodeId,omitempty" desc:"Slide or node to scan; default the whole deck."`
	page
}

// textRun is one run of get_text_node_info: a range of one paragraph in
// one style (sg.TextContent.ParagraphRuns), numbered as rewrite_text's
// runs argument counts them. Start and End are code points; Text is the
// run's characters (clipped at MaxTextChars); Summary is the effective
// style in short (styleSummary) and Style in full.
type textRun struct {
	Run       int          `json:"run"`
	Paragraph int          `json:"paragraph"`
	Start     int          `json:"start"`
	End       int          `json:"end"`
	Text      string       `json:"text"`
	Field     string       `json:"field,omitempty"` // the field's type (slidenum, datetime1, ...) when the run is one
	Summary   string       `json:"summary"`
	Style     sg.TypeStyle `json:"style"` // effective style of the run
}

func contentReadTools() []Tool {
	return []Tool{
		def(ModuleContent, "get_node_info", true,
			"Read one node's properties (geometry, fills, strokes, effects, text and style, auto-layout, table, chart) with its children listed as a page of summaries (id, type, name, bounds, text). Use it for details the provided context does not show.",
			func(e *Env, a *nodeInfoArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				c := *n
				c.Children = nil
				if len([]rune(c.Characters)) > MaxTextChars {
					c.Characters = clip(c.Characters, MaxTextChars)
					c.CharacterStyleOverrides = nil
				}
				kids := make([]nodeSummary, 0, len(n.Children))
				for _, ch := range n.Children {
					kids = append(kids, e.summary(ch))
				}
				pg, err := pageOf(kids, a.page)
				if err != nil {
					return Result{}, err
				}
				return Result{Data: asData(map[string]any{"node": &c, "summary": e.summary(n), "children": pg})}, nil
			}),
		def(ModuleContent, "get_node_info_by_types", true,
			"List nodes of given types (e.g. TABLE, CHART, IMAGE, TEXT) in the deck, a slide or a subtree, as a page of summaries with slide-space bounds.",
			func(e *Env, a *byTypesArgs) (Result, error) {
				roots, err := e.scope(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				var out []nodeSummary
				for _, r := range roots {
					r.Walk(func(n, _ *sg.Node, _ int) bool {
						if slices.Contains(a.Types, string(n.Type)) {
							out = append(out, e.summary(n))
						}
						return true
					})
				}
				d, err := pageOf(out, a.page)
				return Result{Data: d}, err
			}),
		def(ModuleContent, "get_text_node_info", true,
			"Read a text in detail: characters; its runs (each a part of one paragraph in one style: run index, paragraph, text, a short style summary and the effective style: family per script, size, weight, colour, decoration, link), as rewrite_text addresses them; paragraph styles and text-box settings.",
			func(e *Env, a *nodeInfoArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				rs := []rune(n.Characters)
				var runs []textRun
				for k, r := range n.ParagraphRuns() {
					st := n.StyleAt(r.Start)
					tr := textRun{Run: k, Paragraph: r.Paragraph, Start: r.Start, End: r.End,
						Text: clip(string(rs[r.Start:r.End]), MaxTextChars), Summary: styleSummary(st), Style: st}
					if r.Field >= 0 {
						tr.Field = orStr(n.Fields[r.Field].Type, "field")
					}
					runs = append(runs, tr)
				}
				pg, err := pageOf(runs, a.page)
				if err != nil {
					return Result{}, err
				}
				return Result{Data: asData(map[string]any{
					"id": n.ID, "characters": clip(n.Characters, MaxTextChars), "length": n.RuneCount(),
					"paragraphCount": n.ParagraphCount(), "runs": pg, "paragraphs": n.Paragraphs, "textBox": n.TextBox, "summary": e.summary(n),
				})}, nil
			}),
		def(ModuleContent, "scan_text_nodes", true,
			"List every node holding text (text boxes, shapes with text, table cells) in the deck, a slide or a subtree, in reading order, as a page of {id, slide, text, font, size, bounds}. Pair with set_multiple_text_contents for bulk text edits.",
			func(e *Env, a *scanArgs) (Result, error) {
				roots, err := e.scope(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				type item struct {
					nodeSummary
					FontFamily string  `json:"fontFamily,omitempty"`
					FontSize   float64 `json:"fontSize,omitempty"`
				}
				var out []item
				for _, r := range roots {
					r.Walk(func(n, _ *sg.Node, _ int) bool {
						if n.Type.CanHoldText() && n.Characters != "" {
							st := n.StyleAt(0)
							out = append(out, item{nodeSummary: e.summary(n), FontFamily: st.FontFamily, FontSize: st.FontSize})
						}
						return true
					})
				}
				d, err := pageOf(out, a.page)
				return Result{Data: d}, err
			}),
	}
}
