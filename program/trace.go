package program

import (
	"fmt"
	"strings"
)

// Thread describes one thread of a trace.
type Thread struct {
	// Name is the thread's identity in the fork tree: "0" for the main thread,
	// parent name + "." + fork index within the parent for the others
	// ("0.1" is the second thread main created). Stable across executions.
	Name string
	// Parent is the forking thread; -1 for the main thread.
	Parent ThreadID
}

// ChildName returns the fork-tree name of the k-th (0-based) thread forked by parent.
func ChildName(parent string, k int) string { return fmt.Sprintf("%s.%d", parent, k) }

// Trace is a sequence of events in execution order with the thread table.
// Events of a thread appear in index order. Locations are named by LocNames
// (may be nil: then Loc numbers are printed).
type Trace struct {
	Events  []Event
	Threads []Thread // indexed by ThreadID; may contain threads with no events
	// File is the source the positions refer to ("" if none).
	File string
	// LocNames names locations for reports; nil means "print the number".
	LocNames func(Loc) string
	// Init gives the initial value of a location (the value a read sees when no
	// write precedes it); nil means 0.
	Init func(Loc) int64
	// Model is the memory model the trace was executed under. Under TSO and
	// PSO a Write event is the buffer-write and a Flush event its
	// memory-write; a read reads its own thread's latest unflushed write to
	// its location, else the last flushed one (TraceIndex.Src).
	Model MemoryModel
}

// FileOf is the source file of position p: its own (a header) or t.File.
func (t *Trace) FileOf(p Pos) string {
	if f := FileName(p.File); f != "" {
		return f
	}
	return t.File
}

// PosText is p for humans in a listing of t's events: "line:col" in
// t.File, "file:line:col" in another file (a header).
func (t *Trace) PosText(p Pos) string {
	if f := t.FileOf(p); f != t.File && p.Line > 0 {
		return f + ":" + p.String()
	}
	return p.String()
}

// LocName names location l for humans.
func (t *Trace) LocName(l Loc) string {
	if t.LocNames != nil {
		return t.LocNames(l)
	}
	return fmt.Sprintf("#%d", l)
}

// InitValue is the value location l holds before any write.
func (t *Trace) InitValue(l Loc) int64 {
	if t.Init != nil {
		return t.Init(l)
	}
	return 0
}

// ThreadName names thread id for humans: "T0.1" for fork-tree names,
// the recorded name ("T1") for threads of trace files.
func (t *Trace) ThreadName(id ThreadID) string {
	if int(id) < len(t.Threads) {
		name := t.Threads[id].Name
		if name != "" && name[0] >= '0' && name[0] <= '9' {
			return "T" + name // fork-tree names are numeric
		}
		return name
	}
	return fmt.Sprintf("T?%d", id)
}

// Describe renders event i for a human: thread, kind, location, value.
func (t *Trace) Describe(i int) string {
	e := &t.Events[i]
	var b strings.Builder
	if e.Kind == Flush {
		// the write's index: "T1 #3 flush x = 1" is write #3 reaching memory
		fmt.Fprintf(&b, "%s #%d flush %s = %d (to memory)", t.ThreadName(e.Thread), ^e.Index, t.LocName(e.Loc), e.Value)
		return b.String()
	}
	fmt.Fprintf(&b, "%s #%d %s", t.ThreadName(e.Thread), e.Index, e.Kind)
	switch {
	case e.Kind.IsAccess():
		fmt.Fprintf(&b, " %s = %d", t.LocName(e.Loc), e.Value)
	case e.Kind.IsLock():
		fmt.Fprintf(&b, " %s", t.LocName(e.Loc))
	case e.Kind == Fork || e.Kind == Join:
		fmt.Fprintf(&b, " %s", t.ThreadName(ThreadID(e.Value)))
	}
	if e.Is(Atomic) {
		b.WriteString(" (atomic)")
	}
	return b.String()
}

// Index returns, per thread, the trace positions of its events:
// pos[t][k] is the position in t.Events of event (t, k). Flushes are
// skipped: they are no events of their thread's program order.
func (t *Trace) Index() [][]int32 {
	pos := make([][]int32, len(t.Threads))
	for i := range t.Events {
		e := &t.Events[i]
		if e.Kind == Flush {
			continue
		}
		if int(e.Thread) >= len(pos) {
			grown := make([][]int32, e.Thread+1)
			copy(grown, pos)
			pos = grown
		}
		pos[e.Thread] = append(pos[e.Thread], int32(i))
	}
	return pos
}

// Schedule returns the trace's order as a schedule.
func (t *Trace) Schedule() Schedule {
	s := make(Schedule, len(t.Events))
	for i := range t.Events {
		s[i] = t.Events[i].ID()
	}
	return s
}

// Check verifies the structural invariants every producer must keep: thread
// ids in range, per-thread indices 0,1,2,... in order, RMW halves adjacent.
// It returns the first violation.
func (t *Trace) Check() error {
	next := make([]int32, len(t.Threads))
	for i := range t.Events {
		e := &t.Events[i]
		if e.Thread < 0 || int(e.Thread) >= len(t.Threads) {
			return fmt.Errorf("event %d: thread %d out of range (%d threads)", i, e.Thread, len(t.Threads))
		}
		if e.Kind == Flush {
			if t.Model == SC || ^e.Index >= next[e.Thread] {
				return fmt.Errorf("event %d: flush of %s's write %d, which has not executed (or the trace is SC)", i, t.ThreadName(e.Thread), ^e.Index)
			}
			continue
		}
		if e.Index != next[e.Thread] {
			return fmt.Errorf("event %d: %s has index %d, want %d", i, t.ThreadName(e.Thread), e.Index, next[e.Thread])
		}
		next[e.Thread]++
		if e.Is(RMW) {
			if i+1 >= len(t.Events) || t.Events[i+1].Thread != e.Thread || !t.Events[i+1].Is(RMWWrite) {
				return fmt.Errorf("event %d: read-modify-write read not immediately followed by its write", i)
			}
		}
	}
	return nil
}
