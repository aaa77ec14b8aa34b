package store

import (
	"context"
	"fmt"
	"sync"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Memory is an in-process Store for tests and one-shot CLI runs.
type Memory struct {
	mu    sync.RWMutex
	blobs map[string][]byte
	index map[string]string // Index: key -> ref
}

// NewMemory returns an empty in-process store.
func NewMemory() *Memory { return &Memory{blobs: map[string][]byte{}} }

// Put implements Store.
func (m *Memory) Put(_ context.Context, data []byte) (string, error) {
	ref := scenegraph.HashBytes(data)
	m.mu.Lock()
	if _, ok := m.blobs[ref]; !ok {
		m.blobs[ref] = append([]byte(nil), data...)
	}
	m.mu.Unlock()
	return ref, nil
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, ref string) ([]byte, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	m.mu.RLock()
	data, ok := m.blobs[ref]
	m.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, ref)
	}
	return data, nil
}

// Has implements Store.
func (m *Memory) Has(_ context.Context, ref string) (bool, error) {
	if err := checkRef(ref); err != nil {
		return false, err
	}
	m.mu.RLock()
	_, ok := m.blobs[ref]
	m.mu.RUnlock()
	return ok, nil
}
