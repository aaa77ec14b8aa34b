package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools/assets"
)

// Env is the working state of one batch: the deck copy the tools change, an
// id index kept in step with it, the focused slide, symbolic names and the
// image bytes staged for commit.
type Env struct {
	Deck  *scenegraph.Deck
	Opts  Options
	Focus string

	index   *scenegraph.Index
	names   map[string]string
	deleted map[string]int // id -> 1-based call number that deleted it
	blobs   scenegraph.Blobs
	calls   int
	depth   int // batch_execute nesting
	// paths records, per node with vector paths, the size and first path
	// its paths were last drawn for, so a resize rescales them.
	paths map[*scenegraph.Node]pathState
}

func newEnv(d *scenegraph.Deck, opts Options) *Env {
	e := &Env{Deck: d, Opts: opts, Focus: opts.Focus, names: map[string]string{}, deleted: map[string]int{}, blobs: scenegraph.Blobs{}}
	if e.Focus == "" && len(d.Slides) > 0 {
		e.Focus = d.Slides[0].ID
	}
	e.paths = map[*scenegraph.Node]pathState{}
	for _, s := range d.Slides {
		if s != nil {
			e.recordPaths(s)
		}
	}
	return e
}

// NewEnv returns an Env on d for running tool executors directly (tests,
// the recipe compiler's dry runs). Apply is the atomic entry point; an Env
// changes d in place.
func NewEnv(d *scenegraph.Deck, opts Options) *Env { return newEnv(d, opts) }

// Index returns the id index of the working deck, rebuilding it when a tool
// changed the tree without keeping it in step.
func (e *Env) Index() *scenegraph.Index {
	if e.index == nil {
		e.index = scenegraph.NewIndex(e.Deck)
	}
	return e.index
}

// reindex drops the index; the next lookup rebuilds it.
func (e *Env) reindex() { e.index = nil }

// node looks up an id and explains a miss: deleted earlier in this batch,
// or unknown.
func (e *Env) node(id string) (*scenegraph.Node, error) {
	if id == "" {
		return nil, fmt.Errorf("nodeId is empty; pass the id of a node (see get_page_structure)")
	}
	if n := e.Index().Node(id); n != nil {
		return n, nil
	}
	if k, ok := e.deleted[id]; ok {
		return nil, fmt.Errorf("node %q is stale: command %d of this batch deleted it (or its slide or parent); its id and its children's ids are no longer valid", id, k)
	}
	if strings.HasPrefix(id, "$") {
		return nil, fmt.Errorf("node %q: symbolic names must be bound with \"as\" by an earlier command of the same batch", id)
	}
	return e.Index().Lookup(id)
}

// nodeOf looks up an id and checks its type.
func (e *Env) nodeOf(id string, types ...scenegraph.NodeType) (*scenegraph.Node, error) {
	n, err := e.node(id)
	if err != nil {
		return nil, err
	}
	if len(types) > 0 && !slices.Contains(types, n.Type) {
		want := make([]string, len(types))
		for i, t := range types {
			want[i] = string(t)
		}
		return nil, fmt.Errorf("node %q is a %s; this tool needs a %s", id, n.Type, strings.Join(want, " or "))
	}
	return n, nil
}

// slide looks up a slide id, accepting a 1-based "#3" position too.
func (e *Env) slide(id string) (*scenegraph.Node, error) {
	if strings.HasPrefix(id, "#") {
		var k int
		if _, err := fmt.Sscanf(id, "#%d", &k); err != nil || k < 1 || k > len(e.Deck.Slides) {
			return nil, fmt.Errorf("slide %q: want a slide id or #1..#%d", id, len(e.Deck.Slides))
		}
		return e.Deck.Slides[k-1], nil
	}
	n, err := e.node(id)
	if err != nil {
		return nil, err
	}
	if n.Type != scenegraph.TypeSlide {
		return nil, fmt.Errorf("node %q is a %s, not a SLIDE; slide ids are listed by get_all_slides", id, n.Type)
	}
	return n, nil
}

// parent returns a node's parent (nil for a slide).
func (e *Env) parent(n *scenegraph.Node) *scenegraph.Node { return e.Index().Parent(n.ID) }

// container resolves the parent of a new node: parentId, else the focused
// slide. Tables only hold cells, so they are refused.
func (e *Env) container(parentID string) (*scenegraph.Node, error) {
	if parentID == "" {
		parentID = e.Focus
		if parentID == "" {
			return nil, fmt.Errorf("no parentId and no focused slide: pass parentId (a slide or frame id) or call focus_slide first")
		}
	}
	p, err := e.node(parentID)
	if err != nil {
		return nil, fmt.Errorf("parentId: %w", err)
	}
	if !p.Type.IsContainer() || p.Type == scenegraph.TypeTable {
		return nil, fmt.Errorf("parentId %q is a %s, which cannot hold children; use a SLIDE, FRAME or GROUP", parentID, p.Type)
	}
	return p, nil
}

// newNode makes a node with a fresh id.
func (e *Env) newNode(t scenegraph.NodeType, name string) *scenegraph.Node {
	return &scenegraph.Node{ID: e.Deck.NewID(e.Index()), Type: t, Name: name, Transform: scenegraph.Identity}
}

// insert places n under parent at index (clamped; negative appends, which
// is the front of the z-order) and indexes its subtree.
func (e *Env) insert(parent, n *scenegraph.Node, index int) {
	if index < 0 || index > len(parent.Children) {
		index = len(parent.Children)
	}
	parent.Children = slices.Insert(parent.Children, index, n)
	e.Index().Add(n, parent)
}

// detach removes n from its parent (or the slide list) and forgets its
// subtree, remembering the ids so later calls get a stale-id error.
func (e *Env) detach(n *scenegraph.Node) {
	if p := e.parent(n); p != nil {
		p.Children = slices.DeleteFunc(p.Children, func(c *scenegraph.Node) bool { return c == n })
	} else {
		e.Deck.Slides = slices.DeleteFunc(e.Deck.Slides, func(c *scenegraph.Node) bool { return c == n })
	}
	n.Walk(func(c, _ *scenegraph.Node, _ int) bool {
		e.deleted[c.ID] = e.calls
		return true
	})
	e.Index().Remove(n)
}

// reID gives every node of a copied subtree a fresh id, drops import
// provenance (the copy has no source element) and returns old -> new.
func (e *Env) reID(n *scenegraph.Node) map[string]string {
	m := map[string]string{}
	n.Walk(func(c, _ *scenegraph.Node, _ int) bool {
		nid := e.Deck.NewID(e.Index()) // IDSeq only grows: never a repeat
		m[c.ID] = nid
		c.ID = nid
		c.Source = nil
		return true
	})
	// connectors inside the copy follow the copied ends
	n.Walk(func(c, _ *scenegraph.Node, _ int) bool {
		if c.Connector != nil {
			if v, ok := m[c.Connector.Start.NodeID]; ok {
				c.Connector.Start.NodeID = v
			}
			if v, ok := m[c.Connector.End.NodeID]; ok {
				c.Connector.End.NodeID = v
			}
		}
		return true
	})
	return m
}

// reIDKeepingSources is reID for a duplicated slide: every node gets a
// fresh id but keeps the Source of the node it copies, so that export
// writes the copy from the original slide's XML, with what the scene graph
// does not model (SmartArt, placeholders of graphic frames, connector
// ends, extLst data) as the original has it. The ids tell export the copy
// from the imported slide.
func (e *Env) reIDKeepingSources(n *scenegraph.Node) {
	var srcs []*scenegraph.Source
	n.Walk(func(c, _ *scenegraph.Node, _ int) bool { srcs = append(srcs, c.Source); return true })
	e.reID(n)
	i := 0
	n.Walk(func(c, _ *scenegraph.Node, _ int) bool { c.Source = srcs[i]; i++; return true })
}

// assets returns the configured image provider.
func (e *Env) assets() assets.Provider {
	if e.Opts.Assets != nil {
		return e.Opts.Assets
	}
	return assets.FromEnv()
}

// addImage stores image bytes in the deck's asset table and the staged
// blobs, returning the ref and the intrinsic size.
func (e *Env) addImage(img assets.Image) string {
	return e.Deck.AddAsset(e.blobs, img.Data, img.MimeType, img.Name, img.Width, img.Height)
}

// asData marshals a read tool's payload.
func asData(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return b
}

// changed is a Result listing ids as changed.
func changed(ids ...string) Result { return Result{Changed: ids} }
