package explicit

// Tests that a done context stops the work after an execution without
// touching every event again (--timeout must stop within a second, issue 15:
// pthread-lit/fk2012 ran 11.7 s past --timeout 20s on a 3.1M-event trace).

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
)

// countCtx counts Err calls; from the failFrom-th on (if positive) Err says
// the deadline passed.
type countCtx struct {
	context.Context
	calls, failFrom int
}

func (c *countCtx) Err() error {
	c.calls++
	if c.failFrom > 0 && c.calls >= c.failFrom {
		return context.DeadlineExceeded
	}
	return nil
}

// oneReadManyWrites is an SC reads-from instance: T0 writes x n times, T1
// reads x from T0's first write. Saturation's round pairs the read with
// every write.
func oneReadManyWrites(t *testing.T, n int) *program.Instance {
	var b strings.Builder
	b.WriteString(`{"name": "one-read-many-writes", "mm": "sc", "threads": [{"name": "T0", "events": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"kind": "write", "loc": "x", "value": %d}`, i+1)
	}
	b.WriteString(`]}, {"name": "T1", "events": [{"kind": "read", "loc": "x", "rf": "T0:0"}]}]}`)
	inst, err := program.ReadInstance("one-read-many-writes", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestSaturationPollsInRound: saturation looks at the context within a
// round, counting (read, write) pairs (it polled every 256 reads, and one
// read facing 100,000 writes of tas_forever.c ran seconds past --timeout),
// and a cut is an error, never "no witness".
func TestSaturationPollsInRound(t *testing.T) {
	const n = 8192
	inst := oneReadManyWrites(t, n)
	ctx := &countCtx{Context: context.Background()}
	if _, ok, err := (&GetWitness{}).decide(ctx, inst); err != nil || !ok {
		t.Fatalf("decide: ok %v, err %v; want a witness", ok, err)
	}
	if ctx.calls < n/1024 {
		t.Errorf("the context was polled %d times in a round of %d pairs, want at least %d", ctx.calls, n, n/1024)
	}
	for k := 1; k <= ctx.calls; k++ {
		cut := &countCtx{Context: context.Background(), failFrom: k}
		if _, ok, err := (&GetWitness{}).decide(cut, inst); err == nil && !ok {
			t.Fatalf("cut at poll %d: 'no witness' without an error", k)
		}
	}
}

// TestRFStopsAfterExecution: when the deadline passes as an execution is
// recorded, rf stops before making the per-read schedule sets of line 4
// (an allocation per read: what it did for 3.1M events of fk2012 before
// it looked at the context again).
func TestRFStopsAfterExecution(t *testing.T) {
	const reads = 20000
	src := fmt.Sprintf(`#include <pthread.h>
int x;
void *t(void *a) { int s = 0; for (int i = 0; i < %d; i++) s += x; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); x = 1; pthread_join(a, 0); return 0; }
`, reads)
	p, err := cfront.LoadSource("reads.c", []byte(src), cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var at runtime.MemStats
	opts := explore.Options{Kinds: []string{explore.KindAssertion}, Observe: func(program.Execution) {
		cancel()
		runtime.ReadMemStats(&at)
	}}
	res := ReadsFromSMC(ctx, p, opts)
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	if got := end.Mallocs - at.Mallocs; got > reads/4 {
		t.Errorf("%d allocations after the deadline, for %d reads: the work after it grows with the trace", got, reads)
	}
	if res.Stats.Complete || res.Stats.Executions != 1 {
		// (explore.Algorithm would mark it; ReadsFromSMC itself must too)
		t.Errorf("complete %v, %d executions; want an incomplete search of 1", res.Stats.Complete, res.Stats.Executions)
	}
}

// TestClosurePollsInPass: closure under SC looks at the context within a
// pass of its rules, counting (read, write) pairs (it polled once a pass,
// and one pass over the 45,000 reads of a lock word with 16,000 writes of
// pthread-ext/05_tas ran minutes past --timeout under mcr), and a cut is
// an error, never "no closure".
func TestClosurePollsInPass(t *testing.T) {
	const n = 8192
	inst := oneReadManyWrites(t, n)
	v := newView(inst)
	ctx := &countCtx{Context: context.Background()}
	v.ctx = ctx
	if _, ok, err := closureSC(v); err != nil || !ok {
		t.Fatalf("closure: ok %v, err %v; want a closure", ok, err)
	}
	if ctx.calls < n/1024 {
		t.Errorf("the context was polled %d times in a pass of %d pairs, want at least %d", ctx.calls, n, n/1024)
	}
	for k := 1; k <= ctx.calls; k++ {
		cut := newView(inst)
		cut.ctx = &countCtx{Context: context.Background(), failFrom: k}
		if _, ok, err := closureSC(cut); err == nil && !ok {
			t.Fatalf("cut at poll %d: 'no closure' without an error", k)
		}
	}
}
