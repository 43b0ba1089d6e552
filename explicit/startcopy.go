package explicit

// This file implements a program whose executions start as copies of one
// started execution (program.Cloner) instead of running the program's
// start again: everything a program does before its first event (main's
// local work) is the same in every execution, and ReadsFrom-SMC starts
// one execution per class. fib_bench computes fib(2+2N) before its first
// event: that start was a fifth of rf's time there (issue 17).

import (
	"sync"
	"sync/atomic"

	"mcr/program"
)

// copyStart is a program.Program whose Start returns a copy of one started
// execution of the program it wraps, made on the first call; a program
// whose executions cannot copy themselves (program.Cloner returns nil:
// an execution with inputs) starts as before. Start may be called from
// several goroutines: the started execution is only read after it is
// made.
type copyStart struct {
	program.Program
	once sync.Once
	x0   program.Execution // nil: no copies
	// events is the length of the last execution's trace (Observe): a
	// copy makes room for about as many events (program.Reserver), as a
	// trace grown an event at a time was a sixth of rf's allocation.
	events atomic.Int64
}

// Observe tells c the length of an execution's trace.
func (c *copyStart) Observe(events int) { c.events.Store(int64(events)) }

// startCopies returns p with copied starts (copyStart).
func startCopies(p program.Program) program.Program {
	if _, ok := p.(*copyStart); ok {
		return p
	}
	return &copyStart{Program: p}
}

// Start implements program.Program.
func (c *copyStart) Start() program.Execution {
	c.once.Do(func() {
		x := c.Program.Start()
		if cl, ok := x.(program.Cloner); ok && cl.Clone() != nil {
			c.x0 = x
		}
	})
	if c.x0 == nil {
		return c.Program.Start()
	}
	x := c.x0.(program.Cloner).Clone()
	if r, ok := x.(program.Reserver); ok {
		if n := int(c.events.Load()); n > 0 {
			r.Reserve(n + n/8 + 4)
		}
	}
	return x
}
