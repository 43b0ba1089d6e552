// Package program is the trace model shared by every part of mcr: events,
// threads identified by their position in the fork tree, traces with values
// and source positions, partial orders (program order, must-happen-before)
// as vector clocks, reads-from and value functions, and schedules.
//
// The model follows Section 2 of 000_1fb260b9b3a323b2.txt and Section 3.1 of
// 001_aa53da3bf10d3f4e.txt: an event is one access to shared state by one
// thread; a read-modify-write or compare-and-swap is a read immediately
// followed by a write of the same thread (Appendix A of 000_1fb260b9b3a323b2.txt).
//
// Front ends that produce traces live in sub-packages (program/c for C,
// program/tracefile for recorded traces). This package imports none of the
// other mcr packages.
package program

import (
	"fmt"
	"sync"
)

// Kind is the kind of an event.
type Kind uint8

const (
	// Read reads Value from memory location Loc.
	Read Kind = iota
	// Write writes Value to memory location Loc.
	Write
	// Acquire acquires lock Loc (pthread_mutex_lock, a successful trylock).
	Acquire
	// Release releases lock Loc.
	Release
	// Fork creates the thread whose ThreadID is Value.
	Fork
	// Join waits for the end of the thread whose ThreadID is Value.
	Join
	// Begin is the first event of every thread but the main thread.
	Begin
	// End is the last event of a thread that ran to completion.
	End
	// Fence is a memory fence (atomic_thread_fence, __sync_synchronize).
	Fence
	// LockFail is a pthread_mutex_trylock that found Loc held. It orders
	// nothing and exists so that schedules can place it.
	LockFail
	// Flush is the memory-write of a buffered write under TSO or PSO
	// (004_fe58e94b2666f77b.txt Section 2.1): the write event of thread
	// Thread with index ^Index leaves the store buffer and reaches memory
	// (Loc, Value as the write's). It is no event of the thread's program
	// order: its identity is FlushOf(write) and Trace.Index, TraceIndex.At
	// and Trace.Check skip it. It appears only in traces with Model TSO or
	// PSO (DESIGN note in README.md, "Memory models").
	Flush
	numKinds
)

var kindNames = [numKinds]string{"read", "write", "acquire", "release", "fork", "join", "begin", "end", "fence", "lockfail", "flush"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// ParseKind is the inverse of Kind.String.
func ParseKind(s string) (Kind, bool) {
	for k, n := range kindNames {
		if n == s {
			return Kind(k), true
		}
	}
	return 0, false
}

// IsAccess reports whether k accesses a memory location (read or write).
func (k Kind) IsAccess() bool { return k == Read || k == Write }

// IsLock reports whether k is a lock operation on Loc.
func (k Kind) IsLock() bool { return k == Acquire || k == Release || k == LockFail }

// ThreadID is a dense thread index within a trace (an index into
// Trace.Threads). Within one process, a Program interns thread identities so
// that the same fork-tree position gets the same ThreadID in every execution
// of that program; Thread.Name is the identity that survives across processes.
type ThreadID int32

// Loc identifies a memory location or a lock. For the C front end it is
// object<<32 | byte offset, with object identities stable across executions;
// trace files use their own dense numbering. Trace.LocName names it.
type Loc uint64

// AtomicSection is the lock a front end takes for SV-COMP's atomic
// sections (__VERIFIER_atomic_begin/end, __VERIFIER_atomic_* functions): a
// location no object can have. Explorers treat it as a lock; SV-COMP
// also forbids other threads to run inside the section, which
// svcomp.Decide checks on a violation's witness.
const AtomicSection = Loc(1<<63 | 1)

// Flags qualify an event.
type Flags uint8

const (
	// Atomic marks a C11/GCC atomic access: two atomic accesses never race.
	Atomic Flags = 1 << iota
	// RMW marks the read half of a read-modify-write or successful
	// compare-and-swap; the next event of the same thread is its write half
	// and the two execute together.
	RMW
	// RMWWrite marks the write half of such a pair.
	RMWWrite
	// Deref marks a read whose value is dereferenced as a pointer (the
	// null-read property of 001_aa53da3bf10d3f4e.txt Section 3.3).
	Deref
	// CAS marks the read of a compare-and-swap (successful or not).
	CAS
	// Try marks the Acquire of a successful trylock (pthread_mutex_trylock);
	// a failed one is a LockFail event.
	Try
	// Drain marks an atomic read that executes only when its thread's
	// store buffers are empty, though it is no read-modify-write: the read
	// of an await, the blocking wait the synchronisation models are built
	// from (cfront/await.go). Under TSO and PSO it orders like a fence
	// (Drains).
	Drain
)

// Event is one access to shared state by one thread.
type Event struct {
	Thread ThreadID // the executing thread
	Index  int32    // position within the thread: 0 for its first event
	Kind   Kind
	Flags  Flags
	Loc    Loc   // location (Read, Write), lock (Acquire, Release, LockFail); 0 otherwise
	Value  int64 // value read or written; the other thread for Fork and Join
	// Arg is the value a compare-and-swap read (flag CAS) expected: the
	// swap happens iff Value == Arg. Zero for other events.
	Arg int64
	Pos Pos // source position of the operation, or zero
}

// ID returns the event's identity (thread, index within the thread).
func (e *Event) ID() EventID { return EventID{e.Thread, e.Index} }

// Is reports whether every flag of f is set.
func (e *Event) Is(f Flags) bool { return e.Flags&f == f }

// EventID identifies an event across executions of one program: by local
// determinism two executions whose reads before the event returned the same
// values contain the same event.
type EventID struct {
	Thread ThreadID
	Index  int32
}

func (id EventID) String() string {
	if id.IsFlush() {
		return fmt.Sprintf("flush %d:%d", id.Thread, ^id.Index)
	}
	return fmt.Sprintf("%d:%d", id.Thread, id.Index)
}

// FlushOf returns the identity of the flush (memory-write) of write w
// under TSO or PSO: w's thread with the complemented index, so that a
// schedule step names either a thread's next event (Index >= 0) or the
// flush of one of its buffered writes (Index < 0).
func FlushOf(w EventID) EventID { return EventID{w.Thread, ^w.Index} }

// IsFlush reports whether id names a flush (FlushOf).
func (id EventID) IsFlush() bool { return id.Index < 0 }

// Flushed returns the write whose flush id names (id.IsFlush()).
func (id EventID) Flushed() EventID { return EventID{id.Thread, ^id.Index} }

// Pos is a source position: Line and Col are 1-based, 0 when unknown.
type Pos struct {
	Line, Col int32
	// File names the source file (FileName) when the front end knows it:
	// a header's code has its own; 0 means the trace's File.
	File int32
}

// files interns source file names for Pos.File, process-wide: positions
// are made at compile time, a few hundred names at most.
var files struct {
	sync.Mutex
	names []string
	index map[string]int32
}

// FileIndex returns the Pos.File of source file name (0 for "").
func FileIndex(name string) int32 {
	if name == "" {
		return 0
	}
	files.Lock()
	defer files.Unlock()
	if i, ok := files.index[name]; ok {
		return i
	}
	if files.index == nil {
		files.index = map[string]int32{}
	}
	files.names = append(files.names, name)
	i := int32(len(files.names))
	files.index[name] = i
	return i
}

// FileName returns the source file name of Pos.File i ("" for 0).
func FileName(i int32) string {
	if i <= 0 {
		return ""
	}
	files.Lock()
	defer files.Unlock()
	if int(i) > len(files.names) {
		return ""
	}
	return files.names[i-1]
}

func (p Pos) String() string {
	if p.Line == 0 {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// MemoryAccess returns e as the memory access it performs, for Conflicts:
// a Flush (TSO, PSO) is a write to memory; every other event is itself.
func MemoryAccess(e Event) *Event {
	if e.Kind == Flush {
		e.Kind = Write
	}
	return &e
}

// Conflicts reports whether a and b access the same location from different
// threads and at least one writes: the candidate condition of a data race
// (001_aa53da3bf10d3f4e.txt Section 3.3). Two atomic accesses never race.
func Conflicts(a, b *Event) bool {
	return a.Thread != b.Thread && a.Kind.IsAccess() && b.Kind.IsAccess() && a.Loc == b.Loc &&
		(a.Kind == Write || b.Kind == Write) && !(a.Is(Atomic) && b.Is(Atomic))
}
