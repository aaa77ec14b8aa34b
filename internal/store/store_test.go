package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// localNATS is the JetStream server the project machines run; tests that
// need it fail (not skip) when it is down, because CI must exercise it.
const localNATS = "nats://127.0.0.1:4222"

func randomBytes(t testing.TB, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// contract runs the Store behaviour every implementation must have.
func contract(t *testing.T, s Store) {
	ctx := context.Background()
	t.Run("put then get returns the same bytes under their sha256", func(t *testing.T) {
		data := randomBytes(t, 1000)
		ref, err := s.Put(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		if ref != scenegraph.HashBytes(data) {
			t.Fatalf("ref %s is not the sha256 of the data", ref)
		}
		got, err := s.Get(ctx, ref)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("get: %v, equal=%v", err, bytes.Equal(got, data))
		}
		if ok, err := s.Has(ctx, ref); err != nil || !ok {
			t.Fatalf("has = %v, %v", ok, err)
		}
	})
	t.Run("put is idempotent", func(t *testing.T) {
		data := randomBytes(t, 64)
		r1, err1 := s.Put(ctx, data)
		r2, err2 := s.Put(ctx, data)
		if err1 != nil || err2 != nil || r1 != r2 {
			t.Fatalf("refs %s %s errs %v %v", r1, r2, err1, err2)
		}
	})
	t.Run("missing ref wraps ErrNotFound", func(t *testing.T) {
		ref := scenegraph.HashBytes(randomBytes(t, 16))
		if _, err := s.Get(ctx, ref); !errors.Is(err, ErrNotFound) {
			t.Fatalf("want ErrNotFound, got %v", err)
		}
		if ok, err := s.Has(ctx, ref); err != nil || ok {
			t.Fatalf("has = %v, %v", ok, err)
		}
	})
	t.Run("malformed ref is rejected with a clear error", func(t *testing.T) {
		for _, ref := range []string{"", "abc", "../../etc/passwd", string(bytes.Repeat([]byte("G"), 64))} {
			if _, err := s.Get(ctx, ref); err == nil {
				t.Fatalf("Get(%q) succeeded", ref)
			}
		}
	})
	t.Run("empty and multi-megabyte blobs", func(t *testing.T) {
		for _, n := range []int{0, 5 << 20} {
			data := randomBytes(t, n)
			ref, err := s.Put(ctx, data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(ctx, ref)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%d bytes: %v", n, err)
			}
		}
	})
	t.Run("concurrent puts of the same bytes agree", func(t *testing.T) {
		data := randomBytes(t, 4096)
		var wg sync.WaitGroup
		refs := make([]string, 8)
		errs := make([]error, 8)
		for i := range refs {
			wg.Add(1)
			go func() { defer wg.Done(); refs[i], errs[i] = s.Put(ctx, data) }()
		}
		wg.Wait()
		for i := range refs {
			if errs[i] != nil || refs[i] != refs[0] {
				t.Fatalf("put %d: %s %v", i, refs[i], errs[i])
			}
		}
	})
	t.Run("deck snapshot round trip", func(t *testing.T) {
		d := &scenegraph.Deck{ID: "d1", Width: 1280, Height: 720, Slides: []*scenegraph.Node{
			{ID: "s1", Type: scenegraph.TypeSlide, Transform: scenegraph.Identity, Size: scenegraph.Vector{X: 1280, Y: 720}},
		}}
		ref, err := PutDeck(ctx, s, d)
		if err != nil {
			t.Fatal(err)
		}
		if h, _ := scenegraph.Hash(d); h != ref {
			t.Fatalf("snapshot ref %s != deck hash %s", ref, h)
		}
		back, err := GetDeck(ctx, s, ref)
		if err != nil || back.Slides[0].ID != "s1" {
			t.Fatalf("GetDeck: %v", err)
		}
	})
}

func TestMemory(t *testing.T) { contract(t, NewMemory()) }

func TestFS(t *testing.T) {
	dir := t.TempDir()
	s, err := NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	contract(t, s)

	t.Run("corruption on disk is reported, not returned", func(t *testing.T) {
		ctx := context.Background()
		ref, _ := s.Put(ctx, []byte("original"))
		if err := os.WriteFile(filepath.Join(dir, ref[:2], ref), []byte("tampered"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, ref); err == nil || errors.Is(err, ErrNotFound) {
			t.Fatalf("want a corruption error, got %v", err)
		}
	})
	t.Run("empty directory is refused", func(t *testing.T) {
		if _, err := NewFS(""); err == nil {
			t.Fatal("NewFS(\"\") succeeded")
		}
	})
}

// startEmbeddedNATS runs an in-process nats-server with JetStream in a
// temporary directory, the way the embedded default stack does.
func startEmbeddedNATS(t testing.TB) string {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("embedded nats-server did not start")
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

func openNATS(t testing.TB, url string) *NATS {
	nc, err := nats.Connect(url, nats.Timeout(3*time.Second))
	if err != nil {
		t.Fatalf("connect %s: %v (the local NATS server must run with JetStream; see scripts/setup)", url, err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	bucket := fmt.Sprintf("ACE_TEST_%d", time.Now().UnixNano())
	ctx := context.Background()
	s, err := NewNATS(ctx, js, bucket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = js.DeleteObjectStore(context.Background(), bucket) })
	return s
}

func TestNATSLocalServer(t *testing.T) { contract(t, openNATS(t, localNATS)) }

func TestNATSEmbeddedServer(t *testing.T) { contract(t, openNATS(t, startEmbeddedNATS(t))) }

func TestNATSReopenExistingBucket(t *testing.T) {
	url := startEmbeddedNATS(t)
	s := openNATS(t, url)
	ctx := context.Background()
	ref, err := s.Put(ctx, []byte("kept"))
	if err != nil {
		t.Fatal(err)
	}
	nc, _ := nats.Connect(url)
	defer nc.Close()
	js, _ := jetstream.New(nc)
	again, err := NewNATS(ctx, js, s.bucket)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := again.Get(ctx, ref); err != nil || string(got) != "kept" {
		t.Fatalf("reopened bucket lost the blob: %q %v", got, err)
	}
}

// memoContract checks Memo over s: a value set under a key is read back by
// another Memo over the same store (another process sharing it), under that
// key only; an unknown key is a miss.
func memoContract(t *testing.T, s Store) {
	ctx := context.Background()
	val := randomBytes(t, 2048)
	key := fmt.Sprintf("render:%x", randomBytes(t, 32))
	m := Memo(s)
	if m == nil {
		t.Fatalf("%T keeps no index", s)
	}
	if _, ok := m.Get(ctx, key); ok {
		t.Fatal("a key never set was a hit")
	}
	m.Set(ctx, key, val, 0)
	got, ok := Memo(s).Get(ctx, key)
	if !ok || !bytes.Equal(got, val) {
		t.Fatalf("another memo over the same store: hit=%v, equal=%v", ok, bytes.Equal(got, val))
	}
	if _, ok := m.Get(ctx, key+"x"); ok {
		t.Fatal("another key read the value")
	}
	if ok, err := s.Has(ctx, scenegraph.HashBytes(val)); err != nil || !ok {
		t.Fatalf("the value is not a content-addressed blob: %v %v", ok, err)
	}
	if st := m.Stats(); st.Hits != 0 || st.Misses != 2 || st.Sets != 1 || st.Errors != 0 {
		t.Fatalf("stats %+v, want 0 hits, 2 misses, 1 set, 0 errors", st)
	}
	if _, err := s.(Index).Lookup(ctx, "not-a-key"); err == nil {
		t.Fatal("a malformed key was looked up without error")
	}
}

func TestMemoMemory(t *testing.T) { memoContract(t, NewMemory()) }

func TestMemoFS(t *testing.T) {
	s, err := NewFS(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	memoContract(t, s)
}

func TestMemoNATS(t *testing.T) { memoContract(t, openNATS(t, localNATS)) }
