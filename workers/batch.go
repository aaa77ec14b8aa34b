package workers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.temporal.io/sdk/client"
	"golang.org/x/sync/errgroup"
	"google.golang.org/protobuf/proto"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// Job is one deck of a batch, ready to publish.
type Job struct {
	Key     string // subject-safe deck key, unique in the batch
	Path    string
	Request *acev1.EditRequest
	// ImportErr is why the deck could not be read; such a job is reported
	// failed with that reason and never published (the batch goes on).
	ImportErr error
	// Edit is the batch's edit print, recorded with the deck's QUEUED
	// event so a later run under the same batch id can be checked.
	Edit EditPrint
	// RequestRef is the store ref of Request (proto), recorded with the
	// deck's QUEUED event (RequestHeader) so `ace batch retry` can run
	// the deck again with the same edit.
	RequestRef string
}

// EditPrint identifies what a batch does to every deck, part by part, so
// a batch id reused with another edit can be refused with what differs
// instead of resuming the earlier batch. Parts are content hashes (hex
// sha256) or the value itself; "" means the part is absent.
type EditPrint struct {
	Recipe      string // the recipe's store ref (hash of its contents, not its path)
	Instruction string // sha256 of the -i instruction
	Format      string // the export format as given ("" = each deck's own)
	Options     string // sha256 of the deterministic EditOptions encoding ("" = none set)
}

// EditHeader is the NATS header of a QUEUED event that carries the batch's
// EditPrint (query-encoded). Events published before it existed have none.
const EditHeader = "Ace-Edit"

// RequestHeader is the NATS header of a QUEUED event that carries the
// store ref of the deck's EditRequest (proto-encoded): what Retry runs
// again. Events published before it existed have none.
const RequestHeader = "Ace-Request"

// RetryHeader marks a QUEUED event published by Retry (its value is the
// deck's retry number, 1 for the first): the deck's earlier state and
// result are dropped, and the events after it are the new run's.
const RetryHeader = "Ace-Retry"

func newEditPrint(e Edit, recipeRef string) EditPrint {
	p := EditPrint{Recipe: recipeRef, Format: e.Format}
	if e.Instruction != "" {
		sum := sha256.Sum256([]byte(e.Instruction))
		p.Instruction = hex.EncodeToString(sum[:])
	}
	if e.Options != nil {
		if b, err := (proto.MarshalOptions{Deterministic: true}).Marshal(e.Options); err == nil && len(b) > 0 {
			sum := sha256.Sum256(b)
			p.Options = hex.EncodeToString(sum[:])
		}
	}
	return p
}

func (p EditPrint) encode() string {
	return url.Values{"recipe": {p.Recipe}, "instruction": {p.Instruction}, "format": {p.Format}, "options": {p.Options}}.Encode()
}

func parseEditPrint(s string) (EditPrint, bool) {
	v, err := url.ParseQuery(s)
	if err != nil {
		return EditPrint{}, false
	}
	return EditPrint{Recipe: v.Get("recipe"), Instruction: v.Get("instruction"), Format: v.Get("format"), Options: v.Get("options")}, true
}

// Differences names the parts of p that differ from q, in the order
// recipe, instruction, format, options; none when the edits are the same.
func (p EditPrint) Differences(q EditPrint) []string {
	var out []string
	for _, d := range []struct {
		name string
		a, b string
	}{{"recipe", p.Recipe, q.Recipe}, {"instruction", p.Instruction, q.Instruction},
		{"format", p.Format, q.Format}, {"options", p.Options, q.Options}} {
		if d.a != d.b {
			out = append(out, d.name)
		}
	}
	return out
}

// Edit is what a batch does to every deck: an instruction or a recipe.
type Edit struct {
	Instruction string
	RecipePath  string // absolute path the workers can read (asset dir)
	RecipeData  []byte
	Options     *acev1.EditOptions
	Format      string // export format; "" = the deck's own
}

// PrepareJobs imports each deck file, puts the snapshot, its images and the
// recipe in the store, and builds one job per deck. The batch id, when
// empty, is derived from the decks' snapshots and the edit, so rerunning
// the same command names the same batch and resumes it.
func PrepareJobs(ctx context.Context, s store.Store, batch string, paths []string, e Edit) (string, []Job, error) {
	if e.Instruction == "" && e.RecipeData == nil {
		return "", nil, fmt.Errorf("give an instruction (-i) or a recipe (--recipe)")
	}
	var recipeRef string
	if e.RecipeData != nil {
		var err error
		if recipeRef, err = s.Put(ctx, e.RecipeData); err != nil {
			return "", nil, fmt.Errorf("store recipe: %w", err)
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", e.Instruction, recipeRef, e.Format)
	if e.Options != nil {
		b, _ := proto.Marshal(e.Options)
		h.Write(b)
	}
	ep := newEditPrint(e, recipeRef)
	distinct := distinctPaths(paths) // a deck named twice is one job
	// The key is the file name as a token, unique in the batch and never
	// another deck's own name (a/deck, b/deck and c/deck-2 get deck,
	// deck-3 and deck-2).
	keys := deckKeys(distinct)
	// The decks are read and stored a core each at a time (importing is
	// CPU-bound); the jobs and the batch id follow the given order.
	refs, errs := make([]string, len(distinct)), make([]error, len(distinct))
	var g errgroup.Group
	g.SetLimit(runtime.NumCPU())
	for i, p := range distinct {
		g.Go(func() error {
			refs[i], errs[i] = putDeck(ctx, s, p)
			return nil
		})
	}
	g.Wait()
	jobs := make([]Job, 0, len(distinct))
	for i, p := range distinct {
		key := keys[i]
		req := &acev1.EditRequest{DeckName: filepath.Base(p), Instruction: e.Instruction, RecipeRef: recipeRef,
			RecipePath: e.RecipePath, Options: e.Options, ExportFormat: e.Format}
		ref, err := refs[i], errs[i]
		if err != nil {
			// One unreadable deck is reported, not fatal to the batch.
			fmt.Fprintf(h, "unreadable\x00%s\x00", p)
			jobs = append(jobs, Job{Key: key, Path: p, Request: req, ImportErr: err, Edit: ep})
			continue
		}
		fmt.Fprintf(h, "%s\x00", ref)
		req.DeckRef = ref
		jobs = append(jobs, Job{Key: key, Path: p, Request: req, Edit: ep})
	}
	if batch == "" {
		batch = "b" + hex.EncodeToString(h.Sum(nil))[:12]
	} else if err := acev1.ValidToken(batch); err != nil {
		return "", nil, fmt.Errorf("batch id: %w", err)
	}
	for i, j := range jobs {
		j.Request.BatchId, j.Request.JobId = batch, acev1.JobID(batch, j.Key)
		ref, err := putRequest(ctx, s, j.Request)
		if err != nil {
			return "", nil, err
		}
		jobs[i].RequestRef = ref
	}
	return batch, jobs, nil
}

// putRequest stores req (proto) and returns its ref.
func putRequest(ctx context.Context, s store.Store, req *acev1.EditRequest) (string, error) {
	b, err := (proto.MarshalOptions{Deterministic: true}).Marshal(req)
	if err != nil {
		return "", err
	}
	ref, err := s.Put(ctx, b)
	if err != nil {
		return "", fmt.Errorf("store the edit request of %s: %w", req.JobId, err)
	}
	return ref, nil
}

// putDeck imports the deck at path and stores its images and snapshot,
// returning the snapshot ref.
func putDeck(ctx context.Context, s store.Store, path string) (string, error) {
	d, blobs, err := deckio.Load(path)
	if err != nil {
		return "", err
	}
	if err := store.PutBlobs(ctx, s, blobs); err != nil {
		return "", fmt.Errorf("store images: %w", err)
	}
	ref, err := store.PutDeck(ctx, s, d)
	if err != nil {
		return "", fmt.Errorf("store snapshot: %w", err)
	}
	return ref, nil
}

// Submit publishes one BatchJob per deck on ACE_JOBS (Nats-Msg-Id
// "<batch>:<deck>": a republished job inside the duplicate window is
// dropped by the stream, after it by the dispatcher) and a QUEUED event
// per deck on ACE_EVENTS, which `ace batch status` counts. A deck that
// could not be read gets a FAILED event with the reason instead of a job.
func Submit(ctx context.Context, js jetstream.JetStream, batch string, jobs []Job) error {
	now := time.Now().UnixMilli()
	for _, j := range jobs {
		publishQueued(ctx, js, &acev1.Progress{BatchId: batch, DeckKey: j.Key, JobId: j.Request.JobId,
			Phase: acev1.Phase_PHASE_QUEUED, Message: j.Path}, j.Edit, j.RequestRef)
		if j.ImportErr != nil {
			publishEvent(ctx, js, &acev1.Progress{BatchId: batch, DeckKey: j.Key, JobId: j.Request.JobId,
				Phase: acev1.Phase_PHASE_FAILED, Message: j.ImportErr.Error(),
				Result: &acev1.EditResult{JobId: j.Request.JobId, BatchId: batch, DeckName: j.Request.DeckName,
					Status: acev1.EditStatus_EDIT_STATUS_FAILED, Outcome: "failed",
					Reason: "could not read the deck: " + j.ImportErr.Error()}}, "unreadable")
			continue
		}
		data, err := proto.Marshal(&acev1.BatchJob{BatchId: batch, DeckKey: j.Key, SourcePath: j.Path,
			Request: j.Request, PublishedUnixMs: now})
		if err != nil {
			return err
		}
		msg := nats.NewMsg(acev1.JobSubject(batch, j.Key))
		msg.Data = data
		msg.Header.Set(nats.MsgIdHdr, j.Request.JobId)
		InjectTrace(ctx, msg.Header)
		if _, err := js.PublishMsg(ctx, msg); err != nil {
			return fmt.Errorf("publish job %s: %w", j.Request.JobId, err)
		}
	}
	return nil
}

// publishQueued publishes a deck's QUEUED event as publishEvent does, with
// the batch's edit print in the EditHeader header and the request's store
// ref in RequestHeader (a zero print or an empty ref, from a Job not built
// by PrepareJobs, is left out).
func publishQueued(ctx context.Context, js jetstream.JetStream, ev *acev1.Progress, ep EditPrint, requestRef string) {
	var hdr []string
	if ep != (EditPrint{}) {
		hdr = append(hdr, EditHeader, ep.encode())
	}
	if requestRef != "" {
		hdr = append(hdr, RequestHeader, requestRef)
	}
	publishEvent(ctx, js, ev, "queued", hdr...)
}

// DeckState is the latest event about one deck.
type DeckState struct {
	Key    string
	Path   string
	Phase  acev1.Phase
	Result *acev1.EditResult
	// Updated is the time of the latest event (unix ms).
	Updated int64
	// RequestRef is the store ref of the deck's EditRequest (RequestHeader;
	// the latest retry's), "" for a batch submitted before it was recorded.
	RequestRef string
	// Retries is how many times `ace batch retry` ran the deck again.
	Retries int
}

// State is a batch as its events tell it.
type State struct {
	Batch   string
	Decks   map[string]*DeckState
	Started int64 // first QUEUED event, unix ms
	// Edit is the edit print recorded with the batch's first QUEUED event
	// that carries one; nil for a batch submitted before prints were
	// recorded (or not yet submitted).
	Edit *EditPrint
}

// Counts returns decks done, failed, running (started) and queued.
func (s *State) Counts() (done, failed, running, queued int) {
	for _, d := range s.Decks {
		switch d.Phase {
		case acev1.Phase_PHASE_DONE:
			done++
		case acev1.Phase_PHASE_FAILED:
			failed++
		case acev1.Phase_PHASE_STARTED, acev1.Phase_PHASE_ITERATION:
			running++
		default:
			queued++
		}
	}
	return
}

// Finished reports whether every deck has a terminal event.
func (s *State) Finished() bool {
	done, failed, _, _ := s.Counts()
	return len(s.Decks) > 0 && done+failed == len(s.Decks)
}

// Keys returns the deck keys in order.
func (s *State) Keys() []string {
	keys := make([]string, 0, len(s.Decks))
	for k := range s.Decks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// apply folds one event (and its NATS headers) into the state.
func (s *State) apply(ev *acev1.Progress, hdr nats.Header) {
	d := s.Decks[ev.DeckKey]
	if d == nil {
		d = &DeckState{Key: ev.DeckKey}
		s.Decks[ev.DeckKey] = d
	}
	if ev.Phase == acev1.Phase_PHASE_QUEUED && hdr.Get(RetryHeader) != "" {
		// A retry: what came before is the earlier run's.
		d.Phase, d.Result, d.Updated = ev.Phase, nil, ev.UnixMs
		d.Retries++
		if v := hdr.Get(RequestHeader); v != "" {
			d.RequestRef = v
		}
		return
	}
	if ev.Phase == acev1.Phase_PHASE_QUEUED {
		if v := hdr.Get(RequestHeader); v != "" && d.RequestRef == "" {
			d.RequestRef = v
		}
		if v := hdr.Get(EditHeader); v != "" && s.Edit == nil {
			if ep, ok := parseEditPrint(v); ok {
				s.Edit = &ep
			}
		}
		if d.Path == "" {
			d.Path = ev.Message
		}
		if s.Started == 0 || ev.UnixMs < s.Started {
			s.Started = ev.UnixMs
		}
	}
	terminal := d.Phase == acev1.Phase_PHASE_DONE || d.Phase == acev1.Phase_PHASE_FAILED
	if !terminal && ev.Phase > d.Phase || ev.Result != nil && d.Result == nil {
		d.Phase, d.Updated = ev.Phase, ev.UnixMs
	}
	if ev.Result != nil && d.Result == nil {
		d.Result = ev.Result
	}
}

// eventsConsumer is the ordered consumer of one batch's events, from the
// first. Each Next of an ordered consumer recreates the server-side
// consumer; with nats.go's default (unlimited attempts, backing off to
// 10 s) a Next on a connection whose server has gone never returns, and
// neither does Follow's loop or its context check: one attempt (a 10 s
// request at most, at once when the connection is closed) hands the error
// back and the caller's loop decides.
func eventsConsumer(batch string) jetstream.OrderedConsumerConfig {
	return jetstream.OrderedConsumerConfig{FilterSubjects: []string{acev1.EventSubject(batch, "*")},
		DeliverPolicy: jetstream.DeliverAllPolicy, MaxResetAttempts: 1}
}

// Follow reads the batch's events from the start of ACE_EVENTS and calls
// onUpdate once it has read every event published so far and after each
// event from then on (so a resumed batch's first progress line counts the
// decks already finished, never 0/N), and once a second while nothing
// comes, until every deck in want (or, when want is empty, every deck
// seen) is finished or ctx is done. Finished is judged only on the whole
// history read: a deck retried after its first result is not finished
// until the retry's result.
func Follow(ctx context.Context, js jetstream.JetStream, batch string, want []string, onUpdate func(*State)) (*State, error) {
	st := &State{Batch: batch, Decks: map[string]*DeckState{}}
	for _, k := range want {
		st.Decks[k] = &DeckState{Key: k}
	}
	cons, err := js.OrderedConsumer(ctx, acev1.StreamEvents, eventsConsumer(batch))
	if err != nil {
		return st, fmt.Errorf("follow batch %s: %w", batch, err)
	}
	for ctx.Err() == nil {
		msg, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if onUpdate != nil {
				onUpdate(st) // tick: redraw the ETA
			}
			continue
		}
		var ev acev1.Progress
		if proto.Unmarshal(msg.Data(), &ev) == nil {
			st.apply(&ev, msg.Headers())
		}
		if md, err := msg.Metadata(); err == nil && md.NumPending > 0 {
			continue // more of the history to read first
		}
		if onUpdate != nil {
			onUpdate(st)
		}
		if st.Finished() {
			return st, nil
		}
	}
	return st, ctx.Err()
}

// Status reads every event of the batch published so far.
func Status(ctx context.Context, js jetstream.JetStream, batch string) (*State, error) {
	st := &State{Batch: batch, Decks: map[string]*DeckState{}}
	stream, err := js.Stream(ctx, acev1.StreamEvents)
	if err != nil {
		return st, err
	}
	info, err := stream.Info(ctx)
	if err != nil {
		return st, err
	}
	if info.State.Msgs == 0 {
		return st, nil
	}
	cons, err := js.OrderedConsumer(ctx, acev1.StreamEvents, eventsConsumer(batch))
	if err != nil {
		return st, err
	}
	for {
		msg, err := cons.Next(jetstream.FetchMaxWait(300 * time.Millisecond))
		if err != nil {
			return st, nil // no more messages
		}
		var ev acev1.Progress
		if proto.Unmarshal(msg.Data(), &ev) == nil {
			st.apply(&ev, msg.Headers())
		}
		if md, err := msg.Metadata(); err == nil && md.NumPending == 0 {
			return st, nil
		}
	}
}

// AwaitClosed waits up to timeout for the jobs' workflows to close (each
// publishes its result just before it completes).
func AwaitClosed(ctx context.Context, c client.Client, jobs []Job, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for _, j := range jobs {
		if j.ImportErr == nil {
			_ = c.GetWorkflow(ctx, j.Request.JobId, "").Get(ctx, nil)
		}
	}
}
