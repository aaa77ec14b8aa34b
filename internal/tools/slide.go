package tools

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type createSlideArgs struct {
	Index           *int   `json:"index,omitempty" min:"0" desc:"0-based position in the deck; default after the focused slide (or last)."`
	Name            string `json:"name,omitempty"`
	Layout          string `json:"layout,omitempty" desc:"Layout name to record (e.g. \"Title and Content\")."`
	TemplateSlideID string `json:"templateSlideId,omitempty" desc:"Copy this slide's background, decorations and placeholders (text emptied) so the new slide matches the deck; default the neighbouring slide's background only."`
	Title           string `json:"title,omitempty" desc:"Title text; fills the template's title placeholder or adds a title box."`
	Body            string `json:"body,omitempty" desc:"Body text; fills the template's body placeholder or adds a text box."`
}

type slideIDArg struct {
	SlideID string `json:"slideId" desc:"Slide id (or #N for the N-th slide, 1-based)."`
}

type dupSlideArgs struct {
	SlideID string `json:"slideId"`
	Index   *int   `json:"index,omitempty" min:"0" desc:"Position of the copy; default right after the original."`
}

type reorderArgs struct {
	SlideIDs []string `json:"slideIds" minItems:"1" desc:"Every slide id of the deck, in the new order."`
}

type structureArgs struct {
	SlideID string `json:"slideId,omitempty" desc:"One slide; default every slide."`
	Depth   int    `json:"depth,omitempty" min:"1" max:"8" desc:"Levels below the slide to show; default 3."`
	page
}

// outlineNode is one item of get_page_structure: a node's summary and its
// depth below its slide (0 for the slide).
type outlineNode struct {
	nodeSummary
	Depth int `json:"depth"`
}

// pageStructure lists the outline of one slide or of every slide: the
// nodes down to a.Depth levels below the slide, in document (pre-)order,
// paged by nodes so that a slide or frame with thousands of children
// returns at most a.Limit of them per call (ACE issue 17 item 9: a
// 4,000-child Figma frame came back whole). Summaries are computed for
// the page only.
func pageStructure(e *Env, a *structureArgs) (Result, error) {
	depth := a.Depth
	if depth == 0 {
		depth = 3
	}
	slidesIn := e.Deck.Slides
	if a.SlideID != "" {
		s, err := e.slide(a.SlideID)
		if err != nil {
			return Result{}, err
		}
		slidesIn = []*sg.Node{s}
	}
	type at struct {
		n     *sg.Node
		depth int
	}
	var order []at
	var walk func(n *sg.Node, d int)
	walk = func(n *sg.Node, d int) {
		order = append(order, at{n, d})
		if d < depth {
			for _, c := range n.Children {
				walk(c, d+1)
			}
		}
	}
	for _, s := range slidesIn {
		walk(s, 0)
	}
	lo, hi, err := a.page.bounds(len(order))
	if err != nil {
		return Result{}, err
	}
	items := make([]outlineNode, 0, hi-lo)
	for _, x := range order[lo:hi] {
		items = append(items, outlineNode{nodeSummary: e.summary(x.n), Depth: x.depth})
	}
	pg := paged{Items: items, Total: len(order)}
	if hi < len(order) {
		pg.NextCursor = strconv.Itoa(hi)
	}
	return Result{Data: asData(pg)}, nil
}

type slideSel struct {
	SlideIDs []string `json:"slideIds,omitempty" desc:"Slides to change; default every slide."`
}

type backgroundArgs struct {
	slideSel
	paintArgs
	ImageID string `json:"imageId,omitempty" desc:"Picture background from the asset library."`
}

type transitionArgs struct {
	slideSel
	Type       string  `json:"type" enum:"none,fade,push,wipe,split,reveal,cover,cut,zoom,morph" desc:"Entry transition."`
	DurationMs float64 `json:"durationMs,omitempty" min:"0" max:"60000"`
	Direction  string  `json:"direction,omitempty" enum:"l,r,u,d"`
}

type slidePropsArgs struct {
	SlideID string  `json:"slideId"`
	Name    *string `json:"name,omitempty"`
	Hidden  *bool   `json:"hidden,omitempty" desc:"Hide the slide in the slide show."`
	Notes   *string `json:"notes,omitempty" desc:"Speaker notes text; lines become paragraphs."`
	// NotesMode says what notes does to the notes already there.
	NotesMode string  `json:"notesMode,omitempty" enum:"replace,append" desc:"replace (default): notes become the slide's whole notes (\"\" clears them); append: notes are added as new paragraphs after the existing ones."`
	Layout    *string `json:"layout,omitempty"`
	// MatchSlideID applies a template slide's look (ACE Q.1: match the
	// deck's existing styling).
	MatchSlideID string `json:"matchSlideId,omitempty" desc:"Restyle this slide like that one (a template or master-like slide): its background, and the position, size and text style of placeholders with the same role (title, body, footer, slide number)."`
}

type sectionsArgs struct {
	Sections []struct {
		Name     string   `json:"name" minLength:"1"`
		SlideIDs []string `json:"slideIds"`
	} `json:"sections" desc:"The full list of sections in order; [] removes all."`
}

type footerArgs struct {
	slideSel
	Text        string `json:"text,omitempty" desc:"Footer text; empty keeps existing footer text."`
	SlideNumber bool   `json:"slideNumber,omitempty" desc:"Also show the slide number."`
	Date        string `json:"date,omitempty" desc:"Date text to show."`
	SkipFirst   bool   `json:"skipFirst,omitempty" desc:"Leave the first (title) slide without footer."`
	FontSize    Length `json:"fontSize,omitempty" exclusiveMin:"0" desc:"px; default the smallest readable size (12 px on a 720 px high slide)."`
	Color       Hex    `json:"color,omitempty"`
}

type exportImageArgs struct {
	SlideID string  `json:"slideId"`
	Format  string  `json:"format,omitempty" enum:"PNG,SVG" desc:"PNG needs the renderer; SVG is a wireframe of the slide's boxes, fills and text."`
	Scale   float64 `json:"scale,omitempty" exclusiveMin:"0" max:"4"`
}

func (e *Env) slideSet(sel slideSel) ([]*sg.Node, error) {
	if len(sel.SlideIDs) == 0 {
		return slices.Clone(e.Deck.Slides), nil
	}
	var out []*sg.Node
	for _, id := range sel.SlideIDs {
		s, err := e.slide(id)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (e *Env) newSlide(name string) *sg.Node {
	s := e.newNode(sg.TypeSlide, name)
	s.Size = sg.Vector{X: e.Deck.Width, Y: e.Deck.Height}
	return s
}

// insertSlide places a slide at index and keeps sections in step: the new
// slide joins the section of the slide before it.
func (e *Env) insertSlide(s *sg.Node, index int) {
	if index < 0 || index > len(e.Deck.Slides) {
		index = len(e.Deck.Slides)
	}
	e.Deck.Slides = slices.Insert(e.Deck.Slides, index, s)
	e.Index().Add(s, nil)
	if index > 0 {
		prev := e.Deck.Slides[index-1].ID
		for i := range e.Deck.Sections {
			sec := &e.Deck.Sections[i]
			if j := slices.Index(sec.SlideIDs, prev); j >= 0 {
				sec.SlideIDs = slices.Insert(sec.SlideIDs, j+1, s.ID)
				if s.Slide == nil {
					s.Slide = &sg.SlideProps{}
				}
				s.Slide.Section = sec.Name
				break
			}
		}
	}
}

func placeholderRole(n *sg.Node) string {
	if n.Placeholder == nil {
		return ""
	}
	return n.Placeholder.Role
}

func isTitleRole(r string) bool { return r == "title" || r == "ctrTitle" }

func slideTools() []Tool {
	return []Tool{
		def(ModuleSlide, "create_slide", false,
			"Add a slide. Give a templateSlideId to copy a comparable slide's background, decorations and placeholders (their text emptied) so the new slide matches the deck, and title/body to fill it; a blank slide is never acceptable, so populate it (in the same batch: bind it with \"as\" and use \"$name\" as parentId). Returns the slide id.",
			func(e *Env, a *createSlideArgs) (Result, error) {
				s := e.newSlide(orStr(a.Name, fmt.Sprintf("Slide %d", len(e.Deck.Slides)+1)))
				idx := len(e.Deck.Slides)
				if _, fi := e.Deck.SlideByID(e.Focus); fi >= 0 {
					idx = fi + 1
				}
				if a.Index != nil {
					idx = *a.Index
				}
				if a.Layout != "" {
					s.Slide = &sg.SlideProps{Layout: a.Layout}
				}
				created := []string{s.ID}
				var titleDone, bodyDone bool
				if a.TemplateSlideID != "" {
					t, err := e.slide(a.TemplateSlideID)
					if err != nil {
						return Result{}, fmt.Errorf("templateSlideId: %w", err)
					}
					s.Fills = clonePaintsOf(t.Fills)
					if t.Slide != nil && a.Layout == "" {
						s.Slide = &sg.SlideProps{Layout: t.Slide.Layout}
					}
					for _, c := range t.Children {
						role := placeholderRole(c)
						keep := c.Type != sg.TypeTable && c.Type != sg.TypeChart && (!c.Type.CanHoldText() || c.Characters == "" || role != "")
						if !keep {
							continue
						}
						cp := c.Clone()
						e.reID(cp)
						if cp.Characters != "" {
							text := ""
							switch {
							case isTitleRole(role) && a.Title != "":
								text, titleDone = a.Title, true
							case (role == "body" || role == "subTitle" || role == "obj") && a.Body != "" && !bodyDone:
								text, bodyDone = a.Body, true
							case role == "ftr" || role == "dt":
								text = cp.Characters
							case role == "sldNum":
								text = strconv.Itoa(idx + 1)
							}
							if text == "" {
								continue // empty placeholder: PowerPoint hides it; we drop it
							}
							_ = setCharacters(cp, text)
						}
						s.Children = append(s.Children, cp)
					}
				} else if idx > 0 && idx-1 < len(e.Deck.Slides) {
					s.Fills = clonePaintsOf(e.Deck.Slides[idx-1].Fills)
				} else if len(e.Deck.Slides) > 0 {
					s.Fills = clonePaintsOf(e.Deck.Slides[0].Fills)
				}
				// The slide whose background the new one took (when no
				// template): its title and body colours read on it.
				var neighbour *sg.Node
				if a.TemplateSlideID == "" && len(e.Deck.Slides) > 0 {
					neighbour = e.Deck.Slides[0]
					if idx > 0 && idx-1 < len(e.Deck.Slides) {
						neighbour = e.Deck.Slides[idx-1]
					}
				}
				e.insertSlide(s, idx)
				mk := func(text string, y, size float64, bold bool, role string) {
					t := e.newNode(sg.TypeText, firstWords(text))
					t.Characters = text
					t.Style = &sg.TypeStyle{FontSize: size}
					if col, ok := textColorFor(neighbour, s, role); ok {
						t.Style.Fills = []sg.Paint{sg.Solid(col)}
					}
					if bold {
						t.Style.FontWeight = 700
					}
					fam := e.Deck.Tokens.Fonts.Minor.Latin
					if role == "title" {
						fam = e.Deck.Tokens.Fonts.Major.Latin
					}
					if fam != "" {
						setFamily(t.Style, fam, text, nil)
					}
					t.Placeholder = &sg.Placeholder{Role: role}
					t.Transform = sg.Translate(64, y)
					t.Size = sg.Vector{X: e.Deck.Width - 128}
					t.LayoutSizingVertical = sg.SizingHug
					measureText(t)
					e.insert(s, t, -1)
					created = append(created, t.ID)
				}
				if a.Title != "" && !titleDone {
					mk(a.Title, 48, 40, true, "title")
				}
				if a.Body != "" && !bodyDone {
					mk(a.Body, 160, 24, false, "body")
				}
				e.Focus = s.ID
				return Result{Created: created}, nil
			}),
		def(ModuleSlide, "duplicate_slide", false,
			"Copy a slide with everything on it (fresh ids), placed right after the original unless index is given. Returns the copy's id.",
			func(e *Env, a *dupSlideArgs) (Result, error) {
				s, err := e.slide(a.SlideID)
				if err != nil {
					return Result{}, err
				}
				_, i := e.Deck.SlideByID(s.ID)
				c := s.Clone()
				e.reIDKeepingSources(c)
				at := i + 1
				if a.Index != nil {
					at = *a.Index
				}
				e.insertSlide(c, at)
				return Result{Created: []string{c.ID}}, nil
			}),
		def(ModuleSlide, "delete_slide", false,
			"Delete a slide and everything on it. Its id and every id on it become stale at once: do not batch other commands on that slide after this one. Links to the slide are removed.",
			func(e *Env, a *slideIDArg) (Result, error) {
				s, err := e.slide(a.SlideID)
				if err != nil {
					return Result{}, err
				}
				if len(e.Deck.Slides) == 1 {
					return Result{}, fmt.Errorf("slide %q is the only slide; a deck needs at least one (create another first)", s.ID)
				}
				e.detach(s)
				for i := range e.Deck.Sections {
					e.Deck.Sections[i].SlideIDs = slices.DeleteFunc(e.Deck.Sections[i].SlideIDs, func(id string) bool { return id == s.ID })
				}
				res := Result{Deleted: []string{s.ID}}
				e.Deck.Walk(func(n, _ *sg.Node, _ int) bool {
					if n.Link != nil && n.Link.NodeID == s.ID {
						n.Link = nil
						res.Changed = append(res.Changed, n.ID)
					}
					return true
				})
				if e.Focus == s.ID {
					e.Focus = e.Deck.Slides[0].ID
				}
				return res, nil
			}),
		def(ModuleSlide, "reorder_slides", false,
			"Put the slides in a new order. Pass the complete list of slide ids, each exactly once (create all new slides first, then reorder once).",
			func(e *Env, a *reorderArgs) (Result, error) {
				if len(a.SlideIDs) != len(e.Deck.Slides) {
					return Result{}, fmt.Errorf("slideIds has %d ids, the deck has %d slides; pass every slide id exactly once", len(a.SlideIDs), len(e.Deck.Slides))
				}
				seen := map[string]bool{}
				out := make([]*sg.Node, 0, len(a.SlideIDs))
				for _, id := range a.SlideIDs {
					s, err := e.slide(id)
					if err != nil {
						return Result{}, err
					}
					if seen[s.ID] {
						return Result{}, fmt.Errorf("slide %q is listed twice", s.ID)
					}
					seen[s.ID] = true
					out = append(out, s)
				}
				e.Deck.Slides = out
				return Result{Changed: a.SlideIDs}, nil
			}),
		def(ModuleSlide, "focus_slide", true,
			"Make a slide the current one: create_* calls without parentId land on it. Only needed before creating nodes; existing nodes are changed by id from anywhere.",
			func(e *Env, a *slideIDArg) (Result, error) {
				s, err := e.slide(a.SlideID)
				if err != nil {
					return Result{}, err
				}
				e.Focus = s.ID
				_, i := e.Deck.SlideByID(s.ID)
				return Result{Data: asData(map[string]any{"focused": s.ID, "index": i})}, nil
			}),
		def(ModuleSlide, "get_all_slides", true,
			"List the slides in order as a page of {id, index, name, title, layout, section, hidden, nodes}. Slide ids are what parentId and slide tools take.",
			func(e *Env, a *page) (Result, error) {
				type item struct {
					ID      string `json:"id"`
					Index   int    `json:"index"`
					Name    string `json:"name,omitempty"`
					Title   string `json:"title,omitempty"`
					Layout  string `json:"layout,omitempty"`
					Section string `json:"section,omitempty"`
					Hidden  bool   `json:"hidden,omitempty"`
					Nodes   int    `json:"nodes"`
				}
				out := make([]item, 0, len(e.Deck.Slides))
				for i, s := range e.Deck.Slides {
					it := item{ID: s.ID, Index: i, Name: s.Name, Title: clip(s.SlideTitle(), 120)}
					if s.Slide != nil {
						it.Layout, it.Section, it.Hidden = s.Slide.Layout, s.Slide.Section, s.Slide.Hidden
					}
					s.Walk(func(*sg.Node, *sg.Node, int) bool { it.Nodes++; return true })
					out = append(out, it)
				}
				d, err := pageOf(out, *a)
				return Result{Data: d}, err
			}),
		def(ModuleSlide, "get_page_structure", true,
			"Outline of one slide or the deck: its nodes to a given depth in document order (id, type, name, parentId, depth 0 = the slide, text snippet, slide bounds, child count; drill in with get_node_info), as a page of limit nodes.",
			pageStructure),
		def(ModuleSlide, "set_slide_background", false,
			"Set the background of some or all slides: a solid colour, a theme colour, or a picture from the asset library (for gradients use set_gradient_fill on the slide).",
			func(e *Env, a *backgroundArgs) (Result, error) {
				slidesIn, err := e.slideSet(a.slideSel)
				if err != nil {
					return Result{}, err
				}
				var p sg.Paint
				if a.ImageID != "" {
					ref, _, _, err := e.resolveImage("", a.ImageID, "")
					if err != nil {
						return Result{}, err
					}
					p = sg.Paint{Type: sg.PaintImage, ImageRef: ref, ScaleMode: "FILL"}
				} else if p, err = e.paint(a.paintArgs); err != nil {
					return Result{}, err
				}
				res := Result{}
				for _, s := range slidesIn {
					s.Fills = clonePaintsOf([]sg.Paint{p})
					res.Changed = append(res.Changed, s.ID)
				}
				return res, nil
			}),
		def(ModuleSlide, "set_slide_transition", false,
			"Set the entry transition (fade, push, wipe, ...) with duration and direction on some or all slides; type none removes it.",
			func(e *Env, a *transitionArgs) (Result, error) {
				slidesIn, err := e.slideSet(a.slideSel)
				if err != nil {
					return Result{}, err
				}
				res := Result{}
				for _, s := range slidesIn {
					if s.Slide == nil {
						s.Slide = &sg.SlideProps{}
					}
					if a.Type == "none" {
						s.Slide.Transition = nil
					} else {
						s.Slide.Transition = &sg.Transition{Type: a.Type, DurationMs: a.DurationMs, Direction: a.Direction}
					}
					if *s.Slide == (sg.SlideProps{}) {
						s.Slide = nil
					}
					res.Changed = append(res.Changed, s.ID)
				}
				return res, nil
			}),
		def(ModuleSlide, "set_slide_properties", false,
			"Set a slide's name, speaker notes (replacing them, or appending with notesMode append), layout name, or hide it from the slide show; with matchSlideId restyle it like another slide (background, and placement and text style of its title, body and footer placeholders), as applying a layout or master would.",
			func(e *Env, a *slidePropsArgs) (Result, error) {
				s, err := e.slide(a.SlideID)
				if err != nil {
					return Result{}, err
				}
				if s.Slide == nil {
					s.Slide = &sg.SlideProps{}
				}
				if a.Name != nil {
					s.Name = *a.Name
				}
				if a.Hidden != nil {
					s.Slide.Hidden = *a.Hidden
				}
				switch {
				case a.Notes == nil && a.NotesMode != "":
					return Result{}, fmt.Errorf("notesMode %q needs notes: give the text to %s", a.NotesMode, a.NotesMode)
				case a.Notes == nil:
				case a.NotesMode == "append":
					s.Slide.Notes = appendNotes(s.Slide.Notes, *a.Notes)
				default:
					s.Slide.Notes = *a.Notes
				}
				if a.Layout != nil {
					s.Slide.Layout = *a.Layout
				}
				res := changed(s.ID)
				if a.MatchSlideID != "" {
					t, err := e.slide(a.MatchSlideID)
					if err != nil {
						return Result{}, fmt.Errorf("matchSlideId: %w", err)
					}
					ids, err := matchSlide(s, t)
					if err != nil {
						return Result{}, err
					}
					res.Changed = append(res.Changed, ids...)
				}
				if *s.Slide == (sg.SlideProps{}) {
					s.Slide = nil
				}
				return res, nil
			}),
		def(ModuleSlide, "set_sections", false,
			"Replace the deck's sections (named runs of slides, as in PowerPoint's section manager): the full list in order, each with its slide ids. [] removes all sections.",
			func(e *Env, a *sectionsArgs) (Result, error) {
				var secs []sg.Section
				owner := map[string]string{}
				for _, s := range a.Sections {
					var ids []string
					for _, id := range s.SlideIDs {
						sl, err := e.slide(id)
						if err != nil {
							return Result{}, fmt.Errorf("section %q: %w", s.Name, err)
						}
						if o, dup := owner[sl.ID]; dup {
							return Result{}, fmt.Errorf("slide %q is in sections %q and %q; a slide belongs to one section", sl.ID, o, s.Name)
						}
						owner[sl.ID] = s.Name
						ids = append(ids, sl.ID)
					}
					secs = append(secs, sg.Section{Name: s.Name, SlideIDs: ids})
				}
				e.Deck.Sections = secs
				res := Result{}
				for _, s := range e.Deck.Slides {
					want := owner[s.ID]
					have := ""
					if s.Slide != nil {
						have = s.Slide.Section
					}
					if want != have {
						if s.Slide == nil {
							s.Slide = &sg.SlideProps{}
						}
						s.Slide.Section = want
						if *s.Slide == (sg.SlideProps{}) {
							s.Slide = nil
						}
						res.Changed = append(res.Changed, s.ID)
					}
				}
				return res, nil
			}),
		def(ModuleSlide, "add_footer", false,
			"Add or update the footer on some or all slides: footer text, slide number and date. Existing footer, number and date placeholders are reused (safe to call twice); otherwise the text goes into free space along the bottom edge, clear of text, pictures, tables and charts, at the smallest readable size (12 px on a 720 px slide, scaled with the slide) unless fontSize is given, in the body font and a grey that contrasts with what is behind it (as rendered, layout art and pictures included, when a renderer is available); where no colour reads on all of it (a busy photo), white on a translucent black plate.",
			func(e *Env, a *footerArgs) (Result, error) {
				slidesIn, err := e.slideSet(a.slideSel)
				if err != nil {
					return Result{}, err
				}
				if a.Text == "" && !a.SlideNumber && a.Date == "" {
					return Result{}, fmt.Errorf("give text, slideNumber or date")
				}
				res := Result{}
				// Options.Measure gives what the renderer really paints (text
				// spilling past its box, grown table rows); estimates fill in
				// without it.
				var painted map[string]sg.Rect
				if e.Opts.Measure != nil {
					if painted, err = e.Opts.Measure(e.Deck); err != nil {
						return Result{}, fmt.Errorf("measure the deck for free space: %w", err)
					}
				}
				var fixed *sg.Color
				if a.Color != "" {
					c, err := color(a.Color, nil)
					if err != nil {
						return Result{}, err
					}
					fixed = &c
				}
				// First every new text's box, then its colour from what is
				// painted there before any footer is added, then the nodes.
				type placed struct {
					slide             *sg.Node
					role, text, align string
					box               sg.Rect
					size              float64
					probe             int // its first point among its slide's probes
				}
				var todo []placed
				for _, s := range slidesIn {
					_, idx := e.Deck.SlideByID(s.ID)
					if a.SkipFirst && idx == 0 {
						continue
					}
					obstacles := e.footerObstacles(s, painted)
					put := func(role, text, prefer string) {
						for _, c := range s.Children {
							if placeholderRole(c) == role && c.Type.CanHoldText() {
								_ = setCharacters(c, text)
								if role == "sldNum" {
									c.Fields = []sg.TextField{slideNumberField(c.ID, text)}
								}
								res.Changed = append(res.Changed, c.ID)
								return
							}
						}
						box, size, ok := e.footerSpot(obstacles, text, float64(a.FontSize), prefer)
						if !ok {
							res.Warnings = append(res.Warnings, fmt.Sprintf("slide %s: no free space along the bottom for %q; placed it over the content", s.ID, clip(text, 30)))
						}
						obstacles = append(obstacles, box)
						todo = append(todo, placed{slide: s, role: role, text: text, align: prefer, box: box, size: size})
					}
					if a.Text != "" {
						put("ftr", a.Text, "center")
					}
					if a.SlideNumber {
						put("sldNum", strconv.Itoa(idx+1), "right")
					}
					if a.Date != "" {
						put("dt", a.Date, "left")
					}
				}
				// The text may cross several backgrounds (layout art, bands,
				// pictures): sample along it and pick what reads on all.
				probes := func(b sg.Rect) []sg.Vector {
					pts := make([]sg.Vector, 0, footerProbes)
					for _, fy := range footerProbeRows {
						for _, fx := range footerProbeCols {
							pts = append(pts, sg.Vector{X: b.X + b.Width*fx, Y: b.Y + b.Height*fy})
						}
					}
					return pts
				}
				var seen map[string][]sg.Color
				if fixed == nil && e.Opts.Backdrop != nil && len(todo) > 0 {
					ask := map[string][]sg.Vector{}
					for i := range todo {
						p := &todo[i]
						p.probe = len(ask[p.slide.ID])
						ask[p.slide.ID] = append(ask[p.slide.ID], probes(p.box)...)
					}
					if seen, err = e.Opts.Backdrop(e.Deck, ask); err != nil {
						return Result{}, fmt.Errorf("render the slides to choose a footer colour: %w", err)
					}
				}
				for _, p := range todo {
					var bgs []sg.Color
					if got := seen[p.slide.ID]; len(got) >= p.probe+footerProbes {
						bgs = got[p.probe : p.probe+footerProbes]
					} else {
						for _, f := range []float64{0.05, 0.25, 0.5, 0.75, 0.95} {
							bg, _ := e.paintedBehind(p.slide, sg.Vector{X: p.box.X + p.box.Width*f, Y: p.box.Y + p.box.Height/2}, nil)
							bgs = append(bgs, bg)
						}
					}
					col := readableOnAll(bgs)
					t := e.newNode(sg.TypeText, map[string]string{"ftr": "Footer", "sldNum": "Slide Number", "dt": "Date"}[p.role])
					if fixed != nil {
						col = *fixed
					} else if a, ok := captionPlate(col, bgs); ok {
						// No colour reads on all of it (a busy photo): white
						// on a translucent black plate, 4 px each side.
						col = sg.MustHex("#FFFFFF")
						t.Fills = []sg.Paint{sg.Solid(sg.Color{A: a})}
						t.TextBox = &sg.TextBox{Insets: &sg.Insets{Left: 4, Right: 4}}
					}
					t.Characters = p.text
					align := map[string]string{"center": sg.AlignCenter, "right": sg.AlignRight, "left": sg.AlignLeft}[p.align]
					t.Style = &sg.TypeStyle{FontSize: p.size, TextAlignHorizontal: align, Fills: []sg.Paint{sg.Solid(col)}}
					if f := e.Deck.Tokens.Fonts.Minor.Latin; f != "" {
						setFamily(t.Style, f, p.text, nil)
					}
					t.Placeholder = &sg.Placeholder{Role: p.role}
					if p.role == "sldNum" {
						t.Fields = []sg.TextField{slideNumberField(t.ID, p.text)}
					}
					t.Transform = sg.Translate(round2(p.box.X), round2(p.box.Y))
					t.Size = sg.Vector{X: round2(p.box.Width), Y: round2(p.box.Height)}
					e.insert(p.slide, t, -1)
					res.Created = append(res.Created, t.ID)
				}
				return res, nil
			}),
		def(ModuleSlide, "export_slide_image", true,
			"Render one slide for a visual check: PNG when a renderer is available, else an SVG wireframe of its boxes, fills and text. Use sparingly; the structure is usually enough.",
			func(e *Env, a *exportImageArgs) (Result, error) {
				s, err := e.slide(a.SlideID)
				if err != nil {
					return Result{}, err
				}
				scale := a.Scale
				if scale == 0 {
					scale = 1
				}
				if a.Format != "SVG" && e.Opts.Renderer != nil {
					png, err := e.Opts.Renderer.RenderSlidePNG(e.Deck, s.ID, scale)
					if err != nil {
						return Result{}, fmt.Errorf("render slide %q: %w", s.ID, err)
					}
					return Result{Data: asData(map[string]any{"mimeType": "image/png", "base64": base64.StdEncoding.EncodeToString(png)})}, nil
				}
				res := Result{Data: asData(map[string]any{"mimeType": "image/svg+xml", "svg": e.wireframe(s, scale)})}
				if a.Format == "PNG" {
					res.Warnings = []string{"no renderer configured; returned an SVG wireframe instead of a PNG"}
				}
				return res, nil
			}),
	}
}

func clonePaintsOf(ps []sg.Paint) []sg.Paint {
	if ps == nil {
		return nil
	}
	n := &sg.Node{Fills: ps}
	return n.Clone().Fills
}

// Where add_footer looks at the rendered slide under a new footer: three
// rows by eleven columns of its box (fractions of its height and width).
var (
	footerProbeRows = []float64{0.25, 0.5, 0.75}
	footerProbeCols = []float64{0.02, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.98}
)

var footerProbes = len(footerProbeRows) * len(footerProbeCols)

// wireframe draws a slide as SVG rectangles and text, bounded to the
// first 2,000 nodes.
func (e *Env) wireframe(s *sg.Node, scale float64) string {
	var b strings.Builder
	W, H := e.Deck.Width*scale, e.Deck.Height*scale
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g">`, W, H, e.Deck.Width, e.Deck.Height)
	bg := "#FFFFFF"
	if c, ok := paintColor(s.Fills); ok {
		bg = c.Hex()
	}
	fmt.Fprintf(&b, `<rect width="%g" height="%g" fill="%s"/>`, e.Deck.Width, e.Deck.Height, bg[:7])
	k := 0
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		if n == s {
			return true
		}
		if k++; k > 2000 || !n.IsVisible() {
			return false
		}
		r := e.absBounds(n)
		fill := "none"
		if c, ok := paintColor(n.Fills); ok {
			fill = c.Hex()[:7]
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#999" stroke-width="0.5"/>`, r.X, r.Y, r.Width, r.Height, fill)
		if n.Characters != "" {
			st := n.StyleAt(0)
			size := st.FontSize
			if size == 0 {
				size = 16
			}
			col := "#000000"
			if c, ok := firstSolid(st.Fills); ok {
				col = c.Hex()[:7]
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="%.1f" fill="%s">%s</text>`, r.X+2, r.Y+size, size, col, html.EscapeString(clip(strings.ReplaceAll(n.Characters, "\n", " "), 200)))
		}
		return true
	})
	b.WriteString(`</svg>`)
	return b.String()
}

// textColorFor is the colour for new text of a role ("title", "body") on
// slide s: the colour of the same kind of text on the neighbour slide s
// took its background from, when it reads there (WCAG 4.5:1); else a grey
// that reads on s's background (readableOn); ok is false when s has no
// solid background to go by (the text keeps the default).
func textColorFor(neighbour, s *sg.Node, role string) (sg.Color, bool) {
	bg, ok := paintColor(s.Fills)
	if !ok {
		return sg.Color{}, false
	}
	if neighbour != nil {
		var found *sg.Color
		neighbour.Walk(func(n, _ *sg.Node, _ int) bool {
			if found != nil {
				return false
			}
			if n.Characters != "" && roleGroup(placeholderRole(n)) == roleGroup(role) {
				if c, ok := firstSolid(n.StyleAt(0).Fills); ok {
					found = &c
				}
			}
			return true
		})
		if found != nil && contrast(*found, bg) >= 4.5 {
			return *found, true
		}
	}
	if contrast(sg.MustHex("#000000"), bg) >= 4.5 {
		return sg.Color{}, false // the default black reads
	}
	return readableOn(bg), true
}

// roleGroup folds placeholder roles that play the same part.
func roleGroup(r string) string {
	switch r {
	case "ctrTitle", "title":
		return "title"
	case "subTitle", "body", "obj":
		return "body"
	}
	return r
}

// matchSlide copies t's background and, for every placeholder of s whose
// role t also has, t's placement and base text style (typeface per script,
// size, weight, colour, alignment). Text stays.
func matchSlide(s, t *sg.Node) ([]string, error) {
	if s == t {
		return nil, nil
	}
	s.Fills = clonePaintsOf(t.Fills)
	byRole := map[string]*sg.Node{}
	for _, c := range t.Children {
		if r := roleGroup(placeholderRole(c)); r != "" && byRole[r] == nil {
			byRole[r] = c
		}
	}
	var ids []string
	for _, c := range s.Children {
		src := byRole[roleGroup(placeholderRole(c))]
		if src == nil || roleGroup(placeholderRole(c)) == "" {
			continue
		}
		c.Transform, c.Size = src.Transform, src.Size
		if src.Style != nil && c.Type.CanHoldText() {
			st := *src.Style
			patch := sg.TypeStyle{FontFamily: st.FontFamily, FontFamilyEastAsian: st.FontFamilyEastAsian, FontFamilyComplex: st.FontFamilyComplex,
				FontSize: st.FontSize, FontWeight: st.FontWeight, Italic: st.Italic, Fills: clonePaintsOf(st.Fills), TextAlignHorizontal: st.TextAlignHorizontal}
			if patch.FontFamily != "" && patch.FontFamilyEastAsian == "" {
				ea, _ := hasScript(c.Characters)
				if ea {
					patch.FontFamilyEastAsian = patch.FontFamily
				}
			}
			if err := styleText(c, textRange{}, patch, nil); err != nil {
				return nil, err
			}
		}
		ids = append(ids, c.ID)
	}
	return ids, nil
}

// footerObstacles are the slide-space boxes a footer must stay clear of:
// every visible text, picture, table, chart and formula (decorative shapes
// without text, and backgrounds covering most of the slide, do not count).
func (e *Env) footerObstacles(s *sg.Node, painted map[string]sg.Rect) []sg.Rect {
	var out []sg.Rect
	slideArea := e.Deck.Width * e.Deck.Height
	s.Walk(func(n, _ *sg.Node, depth int) bool {
		if depth == 0 {
			return true
		}
		if !n.IsVisible() {
			return false
		}
		switch {
		case n.Type == sg.TypeTable || n.Type == sg.TypeChart || n.Type == sg.TypeMath:
		case n.Type == sg.TypeImage || imagePaint(n) != nil:
		case n.Type.CanHoldText() && strings.TrimSpace(n.Characters) != "":
		default:
			return true
		}
		r := e.absBounds(n)
		if n.Type.CanHoldText() && n.Characters != "" {
			r = textExtent(n, r)
		}
		if n.Table != nil {
			r.Height = math.Max(r.Height, tableExtent(n))
		}
		// a picture over most of the slide is its background, not content
		if n.Type == sg.TypeTable || n.Type == sg.TypeChart || n.Characters != "" || r.Area() < 0.5*slideArea {
			out = append(out, r)
			if m, ok := painted[n.ID]; ok && m.Area() > 0 {
				out = append(out, m)
			}
		}
		return n.Type != sg.TypeTable
	})
	// The slide's layout and master art that holds text or a picture (a
	// logo, a slide number), as the render measured it: ids under the
	// slide's that are not nodes of the deck (render.Result.Painted).
	ix := e.Index()
	for id, r := range painted {
		if strings.HasPrefix(id, s.ID+"/") && !ix.Has(id) && r.Area() > 0 && r.Area() < 0.5*slideArea {
			out = append(out, r)
		}
	}
	return out
}

// textExtent grows a text box to where its text probably reaches when the
// text is taller than the box (PowerPoint lets it spill): down from a top
// anchor, up from a bottom one, both ways when centred. Shrink-on-overflow
// text is estimated at its stored scale, which is what PowerPoint draws
// (ECMA-376 §21.1.2.1.3), so it may spill too.
func textExtent(n *sg.Node, r sg.Rect) sg.Rect {
	need := textHeight(n, r.Width)
	if need <= r.Height {
		return r
	}
	extra := need - r.Height
	switch n.StyleAt(0).TextAlignVertical {
	case sg.AlignBottom:
		r.Y -= extra
	case sg.AlignCenter:
		r.Y -= extra / 2
	}
	r.Height = need
	return r
}

// textHeight estimates the rendered height of n's text at a box width:
// lines wrapped at an average advance of 0.55 em, paragraph spacing and
// line heights included, PowerPoint's recorded font scale applied.
func textHeight(n *sg.Node, width float64) float64 {
	fs, lh := textMetrics(n)
	if f := n.TextBox.DrawnFontScale(); f < 1 {
		fs, lh = fs*f, lh*f
	}
	in := sg.Insets{Left: 9.6, Right: 9.6, Top: 4.8, Bottom: 4.8} // DrawingML default insets
	if n.TextBox != nil && n.TextBox.Insets != nil {
		in = *n.TextBox.Insets
	}
	inner := math.Max(1, width-in.Left-in.Right)
	h := in.Top + in.Bottom
	for i, l := range strings.Split(n.Characters, "\n") {
		plh := lh
		if i < len(n.Paragraphs) {
			p := n.Paragraphs[i]
			if p.LineHeight > 0 {
				plh = fs * p.LineHeight
			}
			h += p.SpaceBefore + p.SpaceAfter
		}
		h += plh * math.Max(1, math.Ceil(float64(utf8.RuneCountInString(l))*fs*0.55/inner))
	}
	return h
}

// tableExtent estimates a table's rendered height: rows grow to fit the
// text of their cells.
func tableExtent(t *sg.Node) float64 {
	rows := slices.Clone(t.Table.Rows)
	for _, c := range t.Children {
		if c.Cell == nil || c.Cell.Row < 0 || c.Cell.Row >= len(rows) || c.Characters == "" {
			continue
		}
		if rs, _ := c.Cell.Spans(); rs == 1 {
			rows[c.Cell.Row] = math.Max(rows[c.Cell.Row], textHeight(c, c.Size.X))
		}
	}
	total := 0.0
	for _, h := range rows {
		total += h
	}
	return total
}

// footerSpot finds a box for a footer text in the bottom band of the
// slide (its lowest fifth) that overlaps no obstacle, trying the requested
// size (default the smallest readable) down to the smallest readable;
// prefer is "center", "left" or "right".
// It scans upward from the bottom margin in 2 px steps.
func (e *Env) footerSpot(obstacles []sg.Rect, text string, size float64, prefer string) (sg.Rect, float64, bool) {
	W, H := e.Deck.Width, e.Deck.Height
	margin := math.Max(8, math.Round(W*0.02))  // left and right
	bottom := math.Max(4, math.Round(H*0.012)) // below the footer
	// the smallest readable size scales with the slide: 12 px (9 pt) on a
	// 720 px slide, as the renderer's min_font_size check counts it
	minReadable := math.Ceil(12 * H / 720)
	if size == 0 {
		size = minReadable
	}
	sizes := []float64{size}
	for s := size - 1; s >= minReadable; s-- {
		sizes = append(sizes, s)
	}
	for _, lines := range []float64{1, 2} {
		for _, fs := range sizes {
			w := math.Min(math.Ceil(float64(utf8.RuneCountInString(text))*fs*0.55/lines)+8, W-2*margin)
			h := math.Ceil(fs * 1.2 * lines * 1.25)
			for y := H - bottom - h; y >= H*0.8-h; y -= 2 {
				if x, ok := freeX(obstacles, margin, W-margin, y, h, w, prefer); ok {
					return sg.Rect{X: x, Y: y, Width: w, Height: h}, fs, true
				}
			}
		}
	}
	fs := sizes[len(sizes)-1]
	w := math.Min(float64(utf8.RuneCountInString(text))*fs*0.55+8, W-2*margin)
	h := math.Ceil(fs * 1.5)
	x := (W - w) / 2
	if prefer == "right" {
		x = W - margin - w
	} else if prefer == "left" {
		x = margin
	}
	return sg.Rect{X: x, Y: H - bottom - h, Width: w, Height: h}, fs, false
}

// freeX returns the x of a w-wide gap in [lo, hi] within the horizontal
// band [y, y+h] that no obstacle touches (4 px clearance), closest to the
// preferred side.
func freeX(obstacles []sg.Rect, lo, hi, y, h, w float64, prefer string) (float64, bool) {
	const pad = 4
	type span struct{ a, b float64 }
	var blocked []span
	for _, r := range obstacles {
		if r.Y < y+h+pad && r.Bottom() > y-pad {
			blocked = append(blocked, span{r.X - pad, r.Right() + pad})
		}
	}
	slices.SortFunc(blocked, func(p, q span) int { return cmpF(p.a, q.a) })
	var free []span
	cur := lo
	for _, b := range blocked {
		if b.a > cur {
			free = append(free, span{cur, math.Min(b.a, hi)})
		}
		cur = math.Max(cur, b.b)
	}
	if cur < hi {
		free = append(free, span{cur, hi})
	}
	want := (lo + hi - w) / 2
	switch prefer {
	case "left":
		want = lo
	case "right":
		want = hi - w
	}
	best, bestD, found := 0.0, math.Inf(1), false
	for _, f := range free {
		if f.b-f.a < w {
			continue
		}
		x := math.Max(f.a, math.Min(want, f.b-w))
		if d := math.Abs(x - want); d < bestD {
			best, bestD, found = x, d, true
		}
	}
	return best, found
}

// appendNotes adds text to a slide's speaker notes as new paragraphs after
// the existing ones (one paragraph per line, as the notes slide's body
// placeholder holds them; the notes slide part, ECMA-376 Part 1 §13.3.5);
// empty notes take the text as it is.
func appendNotes(notes, text string) string {
	if strings.TrimSpace(notes) == "" {
		return text
	}
	if text == "" {
		return notes
	}
	return strings.TrimRight(notes, "\n") + "\n" + text
}

// slideNumberField makes the whole of text (the slide's number as now
// drawn) a live slide-number field (a:fld type="slidenum", ECMA-376 Part 1
// §21.1.2.2.4), so PowerPoint renumbers it when slides move. Its id, a
// GUID as PowerPoint writes them, is derived from the node id: a tool's
// result must not depend on anything but its input.
func slideNumberField(nodeID, text string) sg.TextField {
	h := sha1.Sum([]byte("ace slide-number field " + nodeID))
	id := fmt.Sprintf("{%X-%X-%X-%X-%X}", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
	return sg.TextField{Start: 0, End: utf8.RuneCountInString(text), Type: sg.FieldSlideNumber, ID: id}
}
