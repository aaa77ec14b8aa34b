package pptx

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// memReport runs fn b.N times and reports allocations, and the peak heap
// in use while fn runs (HeapInuse sampled every millisecond by a second
// goroutine), in MB.
func memReport(b *testing.B, inputBytes int, fn func()) {
	b.ReportAllocs()
	b.SetBytes(int64(inputBytes))
	runtime.GC()
	var before, after, base runtime.MemStats
	runtime.ReadMemStats(&before)
	base = before
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fn()
	}
	b.StopTimer()
	close(stop)
	<-done
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "MB-alloc/op")
	b.ReportMetric(float64(peak.Load()-min(peak.Load(), base.HeapInuse))/(1<<20), "MB-peak-heap")
	b.ReportMetric(float64(inputBytes)/(1<<20), "MB-input")
}

// BenchmarkImport: import time and memory of each real deck.
func BenchmarkImport(b *testing.B) {
	for _, rd := range realDecks {
		b.Run(rd.file, func(b *testing.B) {
			data := readDeck(b, rd.file)
			memReport(b, len(data), func() {
				if _, _, err := Import(data, rd.file); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkExport: export of each real deck, unedited (all parts copied
// raw) and with one text edit per slide (every slide part patched).
func BenchmarkExport(b *testing.B) {
	for _, rd := range realDecks {
		data := readDeck(b, rd.file)
		d, blobs, err := Import(data, rd.file)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(rd.file+"/unedited", func(b *testing.B) {
			memReport(b, len(data), func() {
				if _, err := Export(d, blobs); err != nil {
					b.Fatal(err)
				}
			})
		})
		e := d.Clone()
		for _, s := range e.Slides {
			if t := s.Find(func(n *sg.Node) bool { return n.Type == sg.TypeText && n.Characters != "" }); t != nil {
				t.Characters += "!"
			}
		}
		b.Run(rd.file+"/edited", func(b *testing.B) {
			memReport(b, len(data), func() {
				if _, err := Export(e, blobs); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkGenerated1000: a generated 1,000-slide deck written through the
// exporter (fresh package) and read back.
func BenchmarkGenerated1000(b *testing.B) {
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 1000, Seed: 1})
	var out []byte
	b.Run("export", func(b *testing.B) {
		memReport(b, 0, func() {
			var err error
			if out, err = Export(d, blobs); err != nil {
				b.Fatal(err)
			}
		})
		b.ReportMetric(float64(len(out))/(1<<20), "MB-pptx")
	})
	if out == nil {
		var err error
		if out, err = Export(d, blobs); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("import", func(b *testing.B) {
		memReport(b, len(out), func() {
			if _, _, err := Import(out, "generated-1000.pptx"); err != nil {
				b.Fatal(err)
			}
		})
	})
}
