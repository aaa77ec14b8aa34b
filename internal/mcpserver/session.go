package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
)

// errNoDeck is the answer of every deck tool before open_deck.
var errNoDeck = errors.New("no deck is open in this session: call open_deck with a .pptx or .json path inside the workspace root first")

// snapshot is one state of a session's working copy: the store ref of its
// scene graph and the slide create_* tools use without a parentId.
type snapshot struct {
	Ref   string
	Focus string
}

// session is one client session's working copy. Each state is a
// snapshot in the store; undo and redo are stacks of them (the newest
// last). deck and origin are the decoded current and original snapshots,
// kept so that a call does not decode the store's JSON again.
type session struct {
	mu sync.Mutex

	path   string // the opened file, resolved inside the root; never written
	name   string // its base name
	origin *scenegraph.Deck
	orig   string // origin's snapshot ref

	deck *scenegraph.Deck
	cur  snapshot
	undo []snapshot
	redo []snapshot
}

// maxUndo bounds a session's undo stack; the oldest states drop out first
// (their snapshots stay in the store).
const maxUndo = 200

// reset makes d (stored as ref), read from path, the session's original
// and working copy, with no undo or redo history. The caller holds mu.
func (s *session) reset(path string, d *scenegraph.Deck, ref, focus string) {
	s.path, s.name = path, filepath.Base(path)
	s.origin, s.orig = d, ref
	s.deck, s.cur = d.Clone(), snapshot{Ref: ref, Focus: focus}
	s.undo, s.redo = nil, nil
}

// open reports whether a deck is open.
func (s *session) open() bool { return s.deck != nil }

// commit makes next (already stored as ref) the current state, pushing the
// old one on the undo stack and clearing redo, as editors do.
func (s *session) commit(next *scenegraph.Deck, ref, focus string) {
	s.undo = append(s.undo, s.cur)
	if len(s.undo) > maxUndo {
		s.undo = s.undo[len(s.undo)-maxUndo:]
	}
	s.redo = nil
	s.deck, s.cur = next, snapshot{Ref: ref, Focus: focus}
}

// step moves one state back (undo) or forward (redo): it loads the
// snapshot on top of from, pushes the current state on to, and returns
// the new current snapshot. ok is false when from is empty.
func (s *session) step(ctx context.Context, st store.Store, from, to *[]snapshot) (snapshot, bool, error) {
	if len(*from) == 0 {
		return s.cur, false, nil
	}
	top := (*from)[len(*from)-1]
	d, err := store.GetDeck(ctx, st, top.Ref)
	if err != nil {
		return s.cur, false, fmt.Errorf("loading snapshot %s: %w", top.Ref, err)
	}
	*from = (*from)[:len(*from)-1]
	*to = append(*to, s.cur)
	s.deck, s.cur = d, top
	return top, true, nil
}
