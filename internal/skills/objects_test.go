package skills

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// localNATS is the JetStream server the project machines run.
const localNATS = "nats://127.0.0.1:4222"

// objectsContract is the behaviour every Objects must have.
func objectsContract(t *testing.T, obj Objects) {
	ctx := context.Background()
	t.Run("missing key wraps ErrNotFound", func(t *testing.T) {
		if _, err := obj.Get(ctx, "stats/nobody"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("want ErrNotFound, got %v", err)
		}
	})
	t.Run("put overwrites, get returns the last bytes", func(t *testing.T) {
		for _, v := range []string{"one", "two"} {
			if err := obj.Put(ctx, "stats/a", []byte(v)); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := obj.Get(ctx, "stats/a"); err != nil || string(got) != "two" {
			t.Fatalf("get = %q, %v", got, err)
		}
	})
	t.Run("create is exclusive and idempotent for the same bytes", func(t *testing.T) {
		if err := obj.Create(ctx, "skill/x/v1", []byte("first")); err != nil {
			t.Fatal(err)
		}
		if err := obj.Create(ctx, "skill/x/v1", []byte("first")); err != nil {
			t.Fatalf("same bytes again: %v", err)
		}
		if err := obj.Create(ctx, "skill/x/v1", []byte("other")); !errors.Is(err, ErrExists) {
			t.Fatalf("other bytes: want ErrExists, got %v", err)
		}
		if got, _ := obj.Get(ctx, "skill/x/v1"); string(got) != "first" {
			t.Fatalf("a refused create changed the value to %q", got)
		}
	})
	t.Run("list is sorted and filtered by prefix", func(t *testing.T) {
		for _, k := range []string{"skill/x/v2", "skill/x/v10", "skill/xy/v1", "change/x/v1", "record/a.b"} {
			if err := obj.Put(ctx, k, []byte(k)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := obj.List(ctx, "skill/x/")
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"skill/x/v1", "skill/x/v10", "skill/x/v2"}; !slices.Equal(got, want) {
			t.Fatalf("List(skill/x/) = %v, want %v", got, want)
		}
		got, _ = obj.List(ctx, "skill/x")
		if want := []string{"skill/x/v1", "skill/x/v10", "skill/x/v2", "skill/xy/v1"}; !slices.Equal(got, want) {
			t.Fatalf("List(skill/x) = %v, want %v", got, want)
		}
		if got, _ = obj.List(ctx, "record/"); !slices.Equal(got, []string{"record/a.b"}) {
			t.Fatalf("List(record/) = %v", got)
		}
		if got, err = obj.List(ctx, "coverage/"); err != nil || len(got) != 0 {
			t.Fatalf("empty namespace: %v, %v", got, err)
		}
		all, _ := obj.List(ctx, "")
		if !slices.Contains(all, "stats/a") || !slices.Contains(all, "record/a.b") || !slices.IsSorted(all) {
			t.Fatalf("List(\"\") = %v", all)
		}
	})
	t.Run("bad keys are refused by name", func(t *testing.T) {
		for _, k := range []string{"../etc/passwd", "skill/../x", "", "skill/a b"} {
			if err := obj.Put(ctx, k, nil); err == nil {
				t.Fatalf("Put(%q) succeeded", k)
			}
			if _, err := obj.Get(ctx, k); err == nil || errors.Is(err, ErrNotFound) {
				t.Fatalf("Get(%q) = %v, want a bad-key error", k, err)
			}
		}
	})
	t.Run("8 concurrent creators of one version: exactly one wins", func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() { errs[i] = obj.Create(ctx, "skill/race/v1", fmt.Appendf(nil, "writer %d", i)) })
		}
		wg.Wait()
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Fatalf("writers %d and %d both won", won, i)
			case err == nil:
				won = i
			case !errors.Is(err, ErrExists):
				t.Fatalf("writer %d: %v", i, err)
			}
		}
		if won < 0 {
			t.Fatal("no writer won")
		}
		if got, _ := obj.Get(ctx, "skill/race/v1"); string(got) != fmt.Sprintf("writer %d", won) {
			t.Fatalf("stored %q, winner was %d", got, won)
		}
	})
	t.Run("8 concurrent creators with the same bytes all succeed", func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() { errs[i] = obj.Create(ctx, "skill/same/v1", []byte("same")) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("writer %d: %v", i, err)
			}
		}
	})
}

func TestDirObjects(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	objectsContract(t, DirObjects(dir))
	for _, p := range []string{dir, filepath.Join(dir, "skill", "x")} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("folder %s: %v, mode %v", p, err, fi.Mode().Perm())
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "skill", "x", "v1"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, %v", fi.Mode().Perm(), err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "skill", "*", ".tmp-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}

func TestNATSObjects(t *testing.T) {
	conn, err := net.DialTimeout("tcp", "127.0.0.1:4222", 2*time.Second)
	if err != nil {
		t.Skipf("NATS JetStream at %s is unreachable (%v): NATSObjects not tested", localNATS, err)
	}
	conn.Close()
	nc, err := nats.Connect(localNATS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close) // runs after the bucket's deletion below (cleanups run last first)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	suffix := make([]byte, 6)
	rand.Read(suffix)
	bucket := "ace-skills-test-" + hex.EncodeToString(suffix)
	kv, err := OpenBucket(ctx, js, bucket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := js.DeleteKeyValue(context.Background(), bucket); err != nil {
			t.Errorf("delete test bucket %s: %v", bucket, err)
		}
	})
	objectsContract(t, NATSObjects(kv))
	// A second open finds the bucket instead of failing.
	if _, err := OpenBucket(ctx, js, bucket); err != nil {
		t.Fatal(err)
	}
}
