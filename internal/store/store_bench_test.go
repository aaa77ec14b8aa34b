package store

import (
	"context"
	"encoding/binary"
	"testing"
)

// BenchmarkNATSPut measures Put of distinct 256 KiB blobs (a typical slide
// snapshot) into the local JetStream server; MB/s is the throughput.
func BenchmarkNATSPut(b *testing.B) {
	s := openNATS(b, localNATS)
	data := randomBytes(b, 256<<10)
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		binary.LittleEndian.PutUint64(data, uint64(i)) // distinct bytes: no dedup shortcut
		if _, err := s.Put(ctx, data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNATSGet measures Get (with hash verification) of a 256 KiB blob.
func BenchmarkNATSGet(b *testing.B) {
	s := openNATS(b, localNATS)
	data := randomBytes(b, 256<<10)
	ctx := context.Background()
	ref, err := s.Put(ctx, data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Get(ctx, ref); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFSPut is the filesystem store's Put (with fsync) for comparison.
func BenchmarkFSPut(b *testing.B) {
	s, err := NewFS(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	data := randomBytes(b, 256<<10)
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		binary.LittleEndian.PutUint64(data, uint64(i))
		if _, err := s.Put(ctx, data); err != nil {
			b.Fatal(err)
		}
	}
}
