package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// DefaultBucket is the JetStream Object Store bucket ACE uses.
const DefaultBucket = "ACE_BLOBS"

// NATS stores blobs as objects named by their ref in a JetStream Object
// Store bucket, so every worker of a cluster reads what any other wrote.
type NATS struct {
	obs    jetstream.ObjectStore
	bucket string
}

// NewNATS opens (creating when missing) the bucket on js. Storage is on
// file, so blobs survive a server restart.
func NewNATS(ctx context.Context, js jetstream.JetStream, bucket string) (*NATS, error) {
	if bucket == "" {
		bucket = DefaultBucket
	}
	obs, err := js.ObjectStore(ctx, bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		obs, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{
			Bucket:      bucket,
			Description: "ACE content-addressed snapshots and assets",
			Storage:     jetstream.FileStorage,
		})
		if errors.Is(err, jetstream.ErrBucketExists) {
			obs, err = js.ObjectStore(ctx, bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: open object store %s: %w (is JetStream enabled on the server?)", bucket, err)
	}
	return &NATS{obs: obs, bucket: bucket}, nil
}

// Put implements Store. An object already present is not written again.
func (s *NATS) Put(ctx context.Context, data []byte) (string, error) {
	ref := scenegraph.HashBytes(data)
	if ok, err := s.Has(ctx, ref); err != nil {
		return "", err
	} else if ok {
		return ref, nil
	}
	if _, err := s.obs.PutBytes(ctx, ref, data); err != nil {
		return "", fmt.Errorf("store: put %s in %s: %w", ref, s.bucket, err)
	}
	return ref, nil
}

// Get implements Store.
func (s *NATS) Get(ctx context.Context, ref string) ([]byte, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	data, err := s.obs.GetBytes(ctx, ref)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("%w: %s in bucket %s", ErrNotFound, ref, s.bucket)
	}
	if err != nil {
		return nil, fmt.Errorf("store: get %s from %s: %w", ref, s.bucket, err)
	}
	if err := verify(ref, data); err != nil {
		return nil, err
	}
	return data, nil
}

// Has implements Store.
func (s *NATS) Has(ctx context.Context, ref string) (bool, error) {
	if err := checkRef(ref); err != nil {
		return false, err
	}
	_, err := s.obs.GetInfo(ctx, ref)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: stat %s in %s: %w", ref, s.bucket, err)
	}
	return true, nil
}
