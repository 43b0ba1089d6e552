package cfront

// This file implements program.Cloner: an execution copies itself so that
// an explorer that needs the state after a schedule again (RVF-SMC's
// children of the second and later reads of a call, explicit/rvfsmc.go)
// goes on from a copy instead of replaying the schedule from the start.
// Pointers are (object id, offset) pairs in the machine's words, so a
// copy of the objects, the threads' stacks and frames and the trace is the
// whole state; the only Go pointers into it (an await's word, a store
// buffer's object, the running thread) are mapped to the copies.

import (
	"maps"
	"slices"

	"mcr/program"
)

var _ program.Cloner = (*execution)(nil)

// Clone implements program.Cloner. It returns nil for an execution with
// inputs (the concolic state is not copied).
func (x *execution) Clone() program.Execution {
	if x.sym != nil {
		return nil
	}
	y := &execution{p: x.p, locks: maps.Clone(x.locks), over: x.over, outcome: x.outcome, silent: x.silent,
		failures: slices.Clone(x.failures), arg: x.arg, heapBytes: x.heapBytes, unmodelled: x.unmodelled,
		nthreads: x.nthreads, nsteps: x.nsteps, cancel: x.cancel, imaging: x.imaging,
		attrTypes: maps.Clone(x.attrTypes), mutexTypes: maps.Clone(x.mutexTypes)}
	y.bounded, y.blocked, y.exited = cloneOutcome(x.bounded), cloneOutcome(x.blocked), cloneOutcome(x.exited)
	x.pub.mu.Lock()
	y.pub.m = maps.Clone(x.pub.m) // publications are not modified once made
	x.pub.mu.Unlock()
	var objs map[*object]*object // old to new, for the Go pointers into objects
	for _, t := range x.threads {
		if t != nil && (t.await != nil || len(t.buf) > 0) {
			objs = map[*object]*object{}
			break
		}
	}
	// The statics an execution owns (Start; while the initial image is
	// built, every static): looking at every static's object, most of
	// them functions, was a third of a copy (issue 17).
	statics := x.own
	if x.statics != nil {
		statics = x.statics
	}
	ndyn := 0
	for _, d := range x.dyn {
		ndyn += len(d)
	}
	own := make([]object, 0, len(statics)+ndyn) // the copies, allocated together
	// and their data: one allocation, not one per object (a copied start
	// of rf copies every global, issue 17)
	size := 0
	for _, o := range statics {
		if o != nil && o.kind != kFunc && o.kind != kString {
			size += len(o.data)
		}
	}
	for _, d := range x.dyn {
		for _, o := range d {
			if o != nil && o.kind != kFunc && o.kind != kString {
				size += len(o.data)
			}
		}
	}
	bytes := make([]byte, 0, size)
	cp := func(o *object) *object {
		if o == nil || o.kind == kFunc || o.kind == kString {
			return o // shared by every execution, or read-only (Start shares their data)
		}
		own = append(own, *o)
		c := &own[len(own)-1]
		if o.data != nil {
			k := len(bytes)
			bytes = append(bytes, o.data...)
			c.data = bytes[k:len(bytes):len(bytes)]
		}
		c.undef = slices.Clone(o.undef)
		c.symCells = maps.Clone(o.symCells)
		if objs != nil {
			objs[o] = c
		}
		return c
	}
	y.own = make([]*object, len(x.own))
	for k, o := range x.own {
		y.own[k] = cp(o)
	}
	if x.statics != nil {
		y.statics = make([]*object, len(x.statics))
		for i, o := range x.statics {
			y.statics[i] = cp(o)
		}
	}
	// Room for every thread the program has had, as addThread makes
	// (a copied start has only main's).
	nth := max(len(x.threads), x.p.threadCount())
	y.dyn = make([][]*object, len(x.dyn), max(len(x.dyn), nth))
	dyn := make([]*object, 0, ndyn) // every list, each with its own capacity
	for i, d := range x.dyn {
		if len(d) == 0 {
			continue
		}
		k := len(dyn)
		for _, o := range d {
			dyn = append(dyn, cp(o))
		}
		y.dyn[i] = dyn[k:len(dyn):len(dyn)]
	}
	remap := func(o *object) *object {
		if c, ok := objs[o]; ok {
			return c
		}
		return o
	}
	y.threads = make([]*thread, len(x.threads), nth)
	// as newThread makes them: a copy's first stack, slots and frames in
	// its block
	ths := make([]threadBlock, len(x.threads))
	for i, t := range x.threads {
		if t == nil {
			continue
		}
		b := &ths[i]
		b.th = *t
		c := &b.th
		c.stack, c.slots = cloneInto(b.stack[:0], t.stack), cloneInto(b.slots[:0], t.slots)
		c.frames, c.undef = cloneInto(b.frames[:0], t.frames), slices.Clone(t.undef)
		c.wrlocks = slices.Clone(t.wrlocks)
		c.tls, c.specific = maps.Clone(t.tls), maps.Clone(t.specific)
		c.sstack, c.sslots = slices.Clone(t.sstack), slices.Clone(t.sslots)
		if t.await != nil {
			a := *t.await
			a.o = remap(a.o)
			c.await = &a
		}
		c.buf = slices.Clone(t.buf)
		for k := range c.buf {
			c.buf[k].o = remap(c.buf[k].o)
		}
		c.loops = slices.Clone(t.loops)
		for k := range c.loops {
			l := &c.loops[k]
			l.stack, l.slots, l.undef, l.frames = slices.Clone(l.stack), slices.Clone(l.slots), slices.Clone(l.undef), slices.Clone(l.frames)
			l.sstack, l.sslots = slices.Clone(l.sstack), slices.Clone(l.sslots)
		}
		y.threads[i] = c
		if x.cur == t {
			y.cur = c
		}
	}
	y.trace = x.trace
	// Events are only appended: the copy shares the ones so far, and its
	// first append moves them.
	y.trace.Events = x.trace.Events[:len(x.trace.Events):len(x.trace.Events)]
	y.trace.Init = y.initValue
	return y
}

// cloneInto returns a copy of s in room's storage if it fits, else in a
// new array.
func cloneInto[T any](room, s []T) []T {
	if len(s) <= cap(room) {
		return append(room[:0], s...)
	}
	return slices.Clone(s)
}

func cloneOutcome(o *program.Outcome) *program.Outcome {
	if o == nil {
		return nil
	}
	c := *o
	return &c
}
