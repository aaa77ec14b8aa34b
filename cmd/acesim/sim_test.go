package main

import (
	"math"
	"testing"
)

// Jobs released together on c servers, each one op of s seconds, finish
// at ceil(n/c)*s with every server busy throughout (whole rounds).
func TestSimulateOneQueueMatchesTheClosedForm(t *testing.T) {
	for _, tc := range []struct{ n, c int }{{10, 1}, {10, 3}, {12, 4}, {1000, 7}} {
		const s = 0.25
		res := []*resource{{name: "q", servers: tc.c}}
		r := simulate(res, tc.n, func(_ int32, step int) (op, bool) { return op{0, s}, step == 0 })
		want := math.Ceil(float64(tc.n)/float64(tc.c)) * s
		if math.Abs(r.makespanS-want) > 1e-9 {
			t.Errorf("n=%d c=%d: makespan %g s, want %g", tc.n, tc.c, r.makespanS, want)
		}
		if wantU := float64(tc.n) * s / (float64(tc.c) * want); math.Abs(r.util[0]-wantU) > 1e-9 {
			t.Errorf("n=%d c=%d: utilisation %g, want %g", tc.n, tc.c, r.util[0], wantU)
		}
	}
}

// Two resources in series (a pipeline): n jobs through a 1 s then a 2 s
// single server finish at 1 + 2n s, the slow stage the bottleneck, and a
// delay op holds no server.
func TestSimulatePipelineIsBoundByItsSlowestStage(t *testing.T) {
	res := []*resource{{name: "a", servers: 1}, {name: "b", servers: 1}}
	ops := []op{{0, 1}, {-1, 0.5}, {1, 2}}
	const n = 50
	r := simulate(res, n, func(_ int32, step int) (op, bool) {
		if step >= len(ops) {
			return op{}, false
		}
		return ops[step], true
	})
	if want := 1 + 0.5 + 2.0*n; math.Abs(r.makespanS-want) > 1e-9 {
		t.Errorf("makespan %g s, want %g", r.makespanS, want)
	}
	if r.util[1] <= r.util[0] {
		t.Errorf("utilisation a=%g b=%g: want the 2 s stage the busier", r.util[0], r.util[1])
	}
}
