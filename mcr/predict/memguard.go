package predict

// This file implements the memory guard of decider queries. A window's
// tables are linear in its size, but a decider's memory is not: the
// explicit search keeps every state it visits (it reached 7 GB in 30 s on
// one 1400-event query of a random STD trace), and Z3 reached 6.8 GB on
// the queries of a 75,000-event trace. The guard samples, while queries
// run, the Go heap plus the memory Z3 holds (z3.AllocatedBytes: the C heap
// in use, over all Z3 contexts; ~17 MB of tables per live context included)
// and cancels every running query when the sum exceeds
// Options.QueryMemory: the explicit search sees its context end, Z3 is
// interrupted (Z3_interrupt, polled by its search loops). Those queries
// answer "unknown" (their pairs stay undecided, as after a timeout, and
// the result incomplete). Z3Seeder releases a query's formula when it
// returns (it closes the query's Z3 context), so what the count holds
// afterwards is the running queries'; after a query that left Z3 holding
// over 128 MiB it also hands the freed memory back to the system
// (z3.TrimMemory, with glibc's malloc arenas capped at one per CPU),
// without which the resident size kept several freed formulas per worker
// (bubblesort.vals.txt, --decider z3, eager encoding: 1.73 GB peak RSS
// before).
//
// Z3's own hard cap (the global parameter memory_max_size) is not used:
// Z3 then throws out of an allocation anywhere, and closing the context
// afterwards crashed (session 9; again in session 12 with a plain C
// program on Debian's Z3 4.8.12: memory_max_size 60 MB on a 650-event
// seed query gives thousands of Z3_MEMOUT_FAIL errors, and the next
// context after Z3_del_context segfaults). Its soft cap (memory_high_watermark) is
// not polled by the QF_IDL solver of Z3 4.8.12 (measured: no effect), and
// the solver parameter max_memory made a 2-second check run for minutes.
// Between two samples (20 ms) Z3 can allocate beyond the limit, and a
// phase that does not poll for interruption runs on for up to
// abandonGrace of the z3 binding: the limit is a threshold, not a wall.

import (
	"context"
	"errors"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"mcr/encode/z3"
)

// errMemory is the cause of queries cancelled by the guard.
var errMemory = errors.New("query stopped: Go heap and Z3 memory above --query-memory")

// memGuard cancels the running queries when the heap exceeds limit.
type memGuard struct {
	limit   uint64
	z3      bool // count Z3's memory too
	mu      sync.Mutex
	running map[int]context.CancelCauseFunc
	nextID  int
	stop    chan struct{}
	done    chan struct{}
	cancels int64 // queries cancelled
}

// newMemGuard starts a guard over the Go heap, and Z3's memory if withZ3;
// limit 0 returns nil (no guard).
func newMemGuard(limit uint64, withZ3 bool) *memGuard {
	if limit == 0 {
		return nil
	}
	g := &memGuard{limit: limit, z3: withZ3, running: map[int]context.CancelCauseFunc{}, stop: make(chan struct{}), done: make(chan struct{})}
	go g.watch()
	return g
}

func (g *memGuard) watch() {
	defer close(g.done)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-g.stop:
			return
		case <-tick.C:
		}
		g.mu.Lock()
		idle := len(g.running) == 0
		g.mu.Unlock()
		if idle {
			continue
		}
		metrics.Read(sample)
		var used uint64
		if sample[0].Value.Kind() == metrics.KindUint64 {
			used = sample[0].Value.Uint64()
		}
		if g.z3 {
			used += z3.AllocatedBytes()
		}
		if used <= g.limit {
			continue
		}
		g.mu.Lock()
		for id, cancel := range g.running {
			cancel(errMemory)
			delete(g.running, id)
			g.cancels++
		}
		g.mu.Unlock()
		runtime.GC() // the count includes dead objects until a collection
	}
}

// query returns a context for one query under the guard and its release.
func (g *memGuard) query(ctx context.Context) (context.Context, func()) {
	if g == nil {
		return ctx, func() {}
	}
	qctx, cancel := context.WithCancelCause(ctx)
	g.mu.Lock()
	id := g.nextID
	g.nextID++
	g.running[id] = cancel
	g.mu.Unlock()
	return qctx, func() {
		g.mu.Lock()
		delete(g.running, id)
		g.mu.Unlock()
		cancel(nil)
	}
}

// close stops the guard and returns the number of queries it cancelled.
func (g *memGuard) close() int64 {
	if g == nil {
		return 0
	}
	close(g.stop)
	<-g.done
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cancels
}
