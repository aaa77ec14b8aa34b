package main

import "container/heap"

// A resource is a pool of identical servers with one FIFO queue: a
// Temporal task queue and the workers polling it, the NATS server, the
// model's rate limit (one server whose service time is the limit's
// interval). Service times are seconds.
type resource struct {
	name    string
	servers int
	busy    int
	queue   []int32 // decks waiting, FIFO from head
	head    int
	pending []float64 // service time of each queued deck, parallel to queue
	busyS   float64   // server-seconds spent serving
}

// op is one step of a deck's plan: hold a server of res for service
// seconds, or (res < 0) wait service seconds holding nothing (model
// latency, orchestration round trips).
type op struct {
	res     int
	service float64
}

// planner returns the op at index step of deck's plan, and false past
// its end. It must be deterministic for (deck, step).
type planner func(deck int32, step int) (op, bool)

type event struct {
	at   float64
	deck int32
	res  int // resource finishing a service, or -1 for a delay ending
}

type events []event

func (e events) Len() int           { return len(e) }
func (e events) Less(i, j int) bool { return e[i].at < e[j].at }
func (e events) Swap(i, j int)      { e[i], e[j] = e[j], e[i] }
func (e *events) Push(x any)        { *e = append(*e, x.(event)) }
func (e *events) Pop() any {
	old := *e
	x := old[len(old)-1]
	*e = old[:len(old)-1]
	return x
}

// result is what one simulated batch gives.
type result struct {
	makespanS float64
	util      []float64 // busy share of each resource's servers over the makespan
}

// simulate runs decks through plan over res, every deck started at time
// 0 (a batch published at once), and returns the time the last deck
// finished and each resource's utilisation. It is a discrete-event
// simulation: a deck's next op starts when its previous one ends and a
// server is free, FIFO per resource.
func simulate(res []*resource, decks int, plan planner) result {
	step := make([]int32, decks)
	var q events
	now := 0.0
	var advance func(d int32)
	start := func(r int, d int32, service float64) {
		rs := res[r]
		rs.busy++
		rs.busyS += service
		heap.Push(&q, event{at: now + service, deck: d, res: r})
	}
	advance = func(d int32) {
		o, ok := plan(d, int(step[d]))
		if !ok {
			return
		}
		step[d]++
		if o.res < 0 {
			heap.Push(&q, event{at: now + o.service, deck: d, res: -1})
			return
		}
		rs := res[o.res]
		if rs.busy < rs.servers {
			start(o.res, d, o.service)
			return
		}
		rs.queue = append(rs.queue, d)
		rs.pending = append(rs.pending, o.service)
	}
	for d := range decks {
		advance(int32(d))
	}
	for q.Len() > 0 {
		ev := heap.Pop(&q).(event)
		now = ev.at
		if ev.res >= 0 {
			rs := res[ev.res]
			rs.busy--
			if rs.head < len(rs.queue) {
				nd, ns := rs.queue[rs.head], rs.pending[rs.head]
				rs.head++
				if rs.head > 4096 && rs.head*2 > len(rs.queue) {
					rs.queue = append(rs.queue[:0], rs.queue[rs.head:]...)
					rs.pending = append(rs.pending[:0], rs.pending[rs.head:]...)
					rs.head = 0
				}
				start(ev.res, nd, ns)
			}
		}
		advance(ev.deck)
	}
	out := result{makespanS: now, util: make([]float64, len(res))}
	for i, r := range res {
		if now > 0 {
			out.util[i] = r.busyS / (float64(r.servers) * now)
		}
	}
	return out
}

// pick returns a deterministic, uniformly spread sample of xs for
// (deck, salt): a SplitMix64 hash of the pair picks the index.
func pick(xs []float64, deck int32, salt uint64) float64 {
	z := uint64(deck)*0x9E3779B97F4A7C15 + salt*0xBF58476D1CE4E5B9
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	z ^= z >> 31
	return xs[z%uint64(len(xs))]
}
