package predict

// This file implements the memory guard of decider queries. A window's
// tables are linear in its size, but a decider's memory is not: the
// explicit search keeps every state it visits (it reached 7 GB in 30 s on
// one 1400-event query of a random STD trace). The guard samples the Go
// heap while queries run and cancels every running query when it exceeds
// Options.QueryMemory; those queries answer "unknown" (their pairs stay
// undecided, as after a timeout). Z3 allocates outside the Go heap and is
// bounded by the query timeout only.

import (
	"context"
	"errors"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// errMemory is the cause of queries cancelled by the guard.
var errMemory = errors.New("query stopped: heap above --query-memory")

// memGuard cancels the running queries when the heap exceeds limit.
type memGuard struct {
	limit   uint64
	mu      sync.Mutex
	running map[int]context.CancelCauseFunc
	nextID  int
	stop    chan struct{}
	done    chan struct{}
	cancels int64 // queries cancelled
}

// newMemGuard starts a guard; limit 0 returns nil (no guard).
func newMemGuard(limit uint64) *memGuard {
	if limit == 0 {
		return nil
	}
	g := &memGuard{limit: limit, running: map[int]context.CancelCauseFunc{}, stop: make(chan struct{}), done: make(chan struct{})}
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
		if sample[0].Value.Kind() != metrics.KindUint64 || sample[0].Value.Uint64() <= g.limit {
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
