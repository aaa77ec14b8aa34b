package skills

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// Bucket is the JetStream key/value bucket of a cluster's skill bank.
const Bucket = "ace-skills"

// natsObjects keeps the bank in a JetStream KV bucket. A key's first "/"
// becomes "." in the bucket ("skill/x/v2" is "skill.x/v2"), so listing a
// namespace is a subject filter ("skill.>") instead of a scan of every
// key; ValidKey keeps dots out of the first segment so the mapping is
// reversible.
type natsObjects struct{ kv jetstream.KeyValue }

// NATSObjects is the cluster bank's backend: the KV bucket kv (see
// OpenBucket). Create is kv.Create, which the server refuses when the key
// holds a value, so concurrent creators across machines get exactly one
// winner.
func NATSObjects(kv jetstream.KeyValue) Objects { return natsObjects{kv: kv} }

// OpenBucket opens the bucket named name on js (Bucket when empty),
// creating it on file storage when missing.
func OpenBucket(ctx context.Context, js jetstream.JetStream, name string) (jetstream.KeyValue, error) {
	if name == "" {
		name = Bucket
	}
	kv, err := js.KeyValue(ctx, name)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:      name,
			Description: "ACE skill bank: SKILL.md versions, history, stats, turn records",
			Storage:     jetstream.FileStorage,
		})
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(ctx, name)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("skills: open key/value bucket %s: %w (is JetStream enabled on the server?)", name, err)
	}
	return kv, nil
}

func natsKey(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return strings.Replace(key, "/", ".", 1), nil
}

func bankKey(kvKey string) string {
	top, rest, ok := strings.Cut(kvKey, ".")
	if !ok {
		return kvKey
	}
	return top + "/" + rest
}

// Get implements Objects.
func (n natsObjects) Get(ctx context.Context, key string) ([]byte, error) {
	k, err := natsKey(key)
	if err != nil {
		return nil, err
	}
	e, err := n.kv.Get(ctx, k)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, fmt.Errorf("%w: %s in bucket %s", ErrNotFound, key, n.kv.Bucket())
	}
	if err != nil {
		return nil, fmt.Errorf("skills: get %s from bucket %s: %w", key, n.kv.Bucket(), err)
	}
	return e.Value(), nil
}

// Put implements Objects.
func (n natsObjects) Put(ctx context.Context, key string, data []byte) error {
	k, err := natsKey(key)
	if err != nil {
		return err
	}
	if _, err := n.kv.Put(ctx, k, data); err != nil {
		return fmt.Errorf("skills: put %s in bucket %s: %w", key, n.kv.Bucket(), err)
	}
	return nil
}

// Create implements Objects.
func (n natsObjects) Create(ctx context.Context, key string, data []byte) error {
	k, err := natsKey(key)
	if err != nil {
		return err
	}
	_, err = n.kv.Create(ctx, k, data)
	if err == nil {
		return nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("skills: create %s in bucket %s: %w", key, n.kv.Bucket(), err)
	}
	have, gerr := n.Get(ctx, key)
	if gerr != nil {
		return fmt.Errorf("skills: create %s: it exists but cannot be read: %w", key, gerr)
	}
	if bytes.Equal(have, data) {
		return nil
	}
	return fmt.Errorf("%w: %s in bucket %s holds other bytes", ErrExists, key, n.kv.Bucket())
}

// List implements Objects.
func (n natsObjects) List(ctx context.Context, prefix string) ([]string, error) {
	filter := ">"
	if top, _, ok := strings.Cut(prefix, "/"); ok {
		if !ValidKey(top) {
			return nil, nil
		}
		filter = top + ".>"
	}
	kl, err := n.kv.ListKeysFiltered(ctx, filter)
	if err != nil {
		return nil, fmt.Errorf("skills: list %q in bucket %s: %w", prefix, n.kv.Bucket(), err)
	}
	defer kl.Stop()
	var keys []string
	for k := range kl.Keys() {
		if key := bankKey(k); strings.HasPrefix(key, prefix) {
			keys = append(keys, key)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("skills: list %q in bucket %s: %w", prefix, n.kv.Bucket(), err)
	}
	slices.Sort(keys)
	return keys, nil
}
