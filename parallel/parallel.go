// Package parallel runs mcr's independent work items (seed queries,
// executions of seeds) on a fixed set of workers, each with its own state
// (a Z3 context is not thread-safe, so every worker owns one decider).
// It is built on sourcegraph/conc, which also turns a worker's panic into a
// panic of the caller instead of a silent crash. Tree (ordered.go) runs a
// recursion whose subtrees are not independent on any number of workers,
// committing what they do in depth-first order.
package parallel

import (
	"context"
	"runtime"
	"sync/atomic"

	"github.com/sourcegraph/conc/pool"
)

// Workers returns n if positive, else the number of CPUs.
func Workers(n int) int {
	if n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// ForEach calls fn(w, i) for every i in [0, n) on `workers` goroutines; w is
// the worker's index in [0, workers), so fn can use per-worker state. Items
// are handed out in increasing order. It stops handing out items when ctx
// is done; items not run are simply skipped (callers check ctx).
func ForEach(ctx context.Context, workers, n int, fn func(w, i int)) {
	if workers < 1 {
		workers = 1
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n && ctx.Err() == nil; i++ {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	p := pool.New().WithMaxGoroutines(workers)
	for w := 0; w < workers; w++ {
		p.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(w, i)
			}
		})
	}
	p.Wait()
}
