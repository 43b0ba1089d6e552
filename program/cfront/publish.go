package cfront

import (
	"slices"
	"sync"

	"modernc.org/cc/v4"

	"mcr/program"
)

// This file keeps the trace model honest about locals that escape. A local
// in memory is private until a pointer to it reaches another thread
// (escape); its accesses before that are no events. Its contents at that
// moment are what other threads first read, so they are the initial values
// of its locations in the trace (Trace.Init), not 0: with 0, the explorers
// took a pointer stored in a local before it escaped for NULL (a predicted
// null dereference that no run shows) and missed the classes in which it
// is read (issue 15).

// publication is a frame variable's contents when it escaped.
type publication struct {
	data []byte
	typ  cc.Type
}

// publications maps the objects that escaped in one execution to their
// contents then. The trace's Init reads it, possibly from another goroutine
// while the execution runs on (parallel explorers), hence the lock.
type publications struct {
	mu sync.Mutex
	m  map[uint32]publication
}

// published records o's contents as it becomes shared.
func (x *execution) published(id uint32, o *object) {
	if o.kind != kStack {
		return // heap blocks are shared from the start: their writes are events
	}
	x.pub.mu.Lock()
	defer x.pub.mu.Unlock()
	if x.pub.m == nil {
		x.pub.m = map[uint32]publication{}
	}
	x.pub.m[id] = publication{data: slices.Clone(o.data), typ: o.typ}
}

// initValue is the execution's Trace.Init: a published local's contents
// when it escaped, else the program's initial values.
func (x *execution) initValue(l program.Loc) int64 {
	id, off := objOf(int64(l)), int64(offOf(int64(l)))
	x.pub.mu.Lock()
	pb, ok := x.pub.m[id]
	x.pub.mu.Unlock()
	if !ok {
		return x.p.initValue(l)
	}
	w, signed := scalarAt(pb.typ, off)
	if w == 0 || off < 0 || off+int64(w) > int64(len(pb.data)) {
		return 0
	}
	return load(pb.data[off:], w, signed)
}
