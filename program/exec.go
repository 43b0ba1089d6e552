package program

import (
	"fmt"
	"slices"
)

// OutcomeKind classifies how an execution ended.
type OutcomeKind uint8

const (
	// Normal: every thread ran to its end, or a thread called exit or
	// abort and the others ran until each ended, waited or stopped.
	Normal OutcomeKind = iota
	// AssertionFailure: assert, __VERIFIER_assert, __VERIFIER_error,
	// reach_error or abort was reached.
	AssertionFailure
	// NullDereference: a null pointer was dereferenced.
	NullDereference
	// RuntimeError: out-of-bounds access, division by zero, use after free
	// and the like.
	RuntimeError
	// Deadlock: every unfinished thread is blocked.
	Deadlock
	// Bounded: a thread exceeded the event bound; the execution is cut.
	Bounded
	// Blocked: some thread's __VERIFIER_assume failed (that thread is
	// Stuck) and the others ran until each ended, waited or was stuck too;
	// or a thread called exit or abort and others were left waiting (for
	// a lock it holds, for its end).
	// The execution is infeasible past the failed assumption, so it is
	// neither a finding nor a deadlock; but its events are real (each thread's
	// failed assumption is local and could have come last), so explorers
	// take the writes of the other threads as sources of alternatives.
	Blocked
)

var outcomeNames = []string{"normal", "assertion", "null-dereference", "runtime-error", "deadlock", "bounded", "blocked"}

func (k OutcomeKind) String() string {
	if int(k) < len(outcomeNames) {
		return outcomeNames[k]
	}
	return fmt.Sprintf("outcome(%d)", uint8(k))
}

// IsViolation reports whether k is a finding (not normal, bounded or blocked).
func (k OutcomeKind) IsViolation() bool {
	return k == AssertionFailure || k == NullDereference || k == RuntimeError || k == Deadlock
}

// Maximal reports whether an execution that ended with k ran every thread
// as far as it could go (normal end, deadlock, bound), so that its outcome
// (event set, value function) is the same for every execution of its
// reads-from class. A violation stops its thread, which has no end state
// (the others run on, Failer), and a blocked execution is infeasible past
// its failed assumption: explorers compare those by their findings and
// classes, not by their outcomes.
func (k OutcomeKind) Maximal() bool {
	return k == Normal || k == Deadlock || k == Bounded
}

// Outcome is how an execution ended.
type Outcome struct {
	Kind    OutcomeKind
	Thread  ThreadID // thread that failed (violations and Bounded)
	Pos     Pos      // where it failed
	Message string   // e.g. "assertion `x == 2` failed", "division by zero"
}

// ThreadStatus is the state of a thread between two steps.
type ThreadStatus uint8

const (
	// Enabled: the thread's next event can execute now.
	Enabled ThreadStatus = iota
	// Waiting: the next event is an acquire of a held lock or a join of a
	// running thread.
	Waiting
	// Finished: the thread has ended.
	Finished
	// Absent: the thread id is known to the program (another execution
	// created it) but this execution has not created it.
	Absent
	// Stuck: the thread's __VERIFIER_assume failed, it called exit or
	// abort, or it failed (Failer); it never runs again and never ends (a join of it waits
	// forever). It has no pending event.
	Stuck
)

// Execution is one run of a program under external control: the explorer
// asks for the pending event of each thread and executes one at a time. It
// is what the controlled scheduler of DESIGN.md ("Executing programs")
// offers every explorer.
type Execution interface {
	// Threads bounds the thread ids: every thread of this execution has an id
	// below it. Ids are interned per Program, so the same fork-tree position
	// has the same id in every execution; ids of threads this execution has
	// not created report Absent.
	Threads() int
	// Pending returns thread t's next event before it executes (kind,
	// location, value to be written; the value of a read is 0 until it runs)
	// and the thread's status. For a finished thread the event is zero.
	Pending(t ThreadID) (Event, ThreadStatus)
	// Step executes the next event of thread t, which must be Enabled, and
	// runs t's local computation up to its next event. It returns false once
	// the execution is over (a violation, a bound, or every thread done).
	Step(t ThreadID) bool
	// Done reports whether the execution is over, and how it ended. An
	// execution where no thread is enabled is Blocked if some thread is
	// Stuck, else a Deadlock if some thread waits.
	Done() (bool, Outcome)
	// Trace returns the events executed so far (shared; do not modify).
	Trace() *Trace
}

// PendingArgs is implemented by executions whose Pending event of a
// compare-and-swap read (flag CAS) already holds its expected value Arg,
// which Execution only promises once the CAS has run: explorers then need
// not run the CAS to learn it.
type PendingArgs interface {
	PendingArgs() bool
}

// Cloner is implemented by executions that can copy themselves: the copy
// goes on from the same state independently of the original, as a replay
// of the same schedule would. Clone returns nil when it cannot.
type Cloner interface {
	Clone() Execution
}

// Reserver is implemented by executions that can make room for a number
// of events in their trace at once: an explorer that knows about how long
// its executions are (the last one's length) saves the trace's growing.
type Reserver interface {
	Reserve(events int)
}

// Failer is implemented by executions in which a violation (a failed
// assertion, a null dereference, a runtime error) stops only its thread,
// which is then Stuck, while the others run on: Failures returns every such
// violation of the execution so far, in the order they happened. Done's
// outcome is then the first of them (or Bounded, if a bound cut the run).
type Failer interface {
	Failures() []Failure
}

// Failure is one violation of an execution and when it happened.
type Failure struct {
	Outcome
	// Events is the length of the trace when it happened: the trace's first
	// Events events are a schedule that leads to it.
	Events int
}

// Failures returns the violations of x other than a deadlock: x.Failures()
// if x is a Failer, else Done's outcome if it is one.
func Failures(x Execution) []Failure {
	if f, ok := x.(Failer); ok {
		return f.Failures()
	}
	if _, out := x.Done(); out.Kind.IsViolation() && out.Kind != Deadlock {
		return []Failure{{Outcome: out, Events: len(x.Trace().Events)}}
	}
	return nil
}

// Unmodelled is implemented by executions that can take a step the
// exploration does not branch on: Unmodelled returns the first such step
// (a read of a value C leaves indeterminate, taken as 0), or "". A search
// that met one is incomplete.
type Unmodelled interface {
	Unmodelled() string
}

// Program is something that can be executed repeatedly under control.
type Program interface {
	// Start begins a new execution: the main thread has run its local
	// computation up to its first event.
	Start() Execution
	// Thread returns the in-process id of the thread with fork-tree name
	// name, creating the identity if needed (ids are stable within one
	// process for a given Program).
	Thread(name string) ThreadID
}

// Replay runs p along prefix exactly, then continues with the default policy
// (the lowest enabled thread id runs next, so executions are deterministic)
// until the execution is over. It returns the execution; an error says where
// the prefix could not be followed (wrong thread, index or disabled thread,
// a flush of a write that is not in a buffer).
func Replay(p Program, prefix Schedule) (Execution, error) {
	x := p.Start()
	done := map[ThreadID]int32{} // events executed per thread
	flushed := map[EventID]bool{}
	seen := 0
	for k, id := range prefix {
		for tr := x.Trace(); seen < len(tr.Events); seen++ {
			if e := &tr.Events[seen]; e.Kind == Flush {
				flushed[e.ID()] = true
			} else {
				done[e.Thread]++
			}
		}
		if id.IsFlush() && flushed[id] || !id.IsFlush() && id.Index < done[id.Thread] {
			continue // executed already: the write half of a read-modify-write, or its flush
		}
		if over, _ := x.Done(); over {
			return x, fmt.Errorf("schedule step %d: execution already over", k)
		}
		if int(id.Thread) >= x.Threads() {
			return x, fmt.Errorf("schedule step %d: thread %d does not exist", k, id.Thread)
		}
		if id.IsFlush() {
			b, ok := x.(Buffered)
			if !ok || !slices.Contains(b.Flushes(nil), id) {
				return x, fmt.Errorf("schedule step %d: thread %s's write %d cannot be flushed now", k, x.Trace().ThreadName(id.Thread), ^id.Index)
			}
			b.Flush(id)
			continue
		}
		e, st := x.Pending(id.Thread)
		if st != Enabled {
			return x, fmt.Errorf("schedule step %d: thread %s is not enabled", k, x.Trace().ThreadName(id.Thread))
		}
		if e.Index != id.Index {
			return x, fmt.Errorf("schedule step %d: thread %s is at event %d, schedule says %d", k, x.Trace().ThreadName(id.Thread), e.Index, id.Index)
		}
		x.Step(id.Thread)
	}
	RunDefault(x)
	return x, nil
}

// RunDefault continues x with the default policy until it is over: the
// lowest enabled thread runs next; when no thread is enabled, the first
// flush Buffered.Flushes lists executes (TSO, PSO).
func RunDefault(x Execution) {
	b, _ := x.(Buffered)
	var fl []EventID
	for {
		if over, _ := x.Done(); over {
			return
		}
		if t, ok := FirstEnabled(x); ok {
			x.Step(t)
			continue
		}
		if b == nil {
			return
		}
		if fl = b.Flushes(fl[:0]); len(fl) == 0 {
			return
		}
		b.Flush(fl[0])
	}
}

// Buffered is implemented by executions under TSO or PSO (004_fe58e94b2666f77b.txt
// Section 2.1): a write enters its thread's store buffer, and its flush to
// memory is a step of its own, scheduled like a thread's next event. The
// flushes of a thread's buffer are the steps of an auxiliary schedulable
// entity beside the thread (as in Nidhugg and seed 004's traces); an
// explorer that wants every behaviour interleaves them with the threads'
// events. An execution is not over while a buffer holds a write.
type Buffered interface {
	// Model is the execution's memory model (TSO or PSO).
	Model() MemoryModel
	// Flushes appends to dst the flushes (FlushOf of a write) that can
	// execute now: under TSO the oldest write of each non-empty thread
	// buffer, under PSO the oldest per thread and location.
	Flushes(dst []EventID) []EventID
	// Flush executes flush f, one of Flushes. It returns false once the
	// execution is over.
	Flush(f EventID) bool
	// Forwards reports whether thread t's pending event is a read its own
	// store buffer answers (it touches no memory).
	Forwards(t ThreadID) bool
}

// Do executes step s of x: the next event of thread s.Thread, or the flush
// s names (s.IsFlush(), x Buffered). It returns false once x is over.
func Do(x Execution, s EventID) bool {
	if s.IsFlush() {
		return x.(Buffered).Flush(s)
	}
	return x.Step(s.Thread)
}

// ResolveSchedule converts named steps to in-process ids of p.
func ResolveSchedule(p Program, steps []ScheduleStep) Schedule {
	s := make(Schedule, len(steps))
	for i, st := range steps {
		s[i] = EventID{Thread: p.Thread(st.Thread), Index: st.Index}
		if st.Flush {
			s[i] = FlushOf(s[i])
		}
	}
	return s
}

// FirstEnabled returns the lowest-numbered enabled thread.
func FirstEnabled(x Execution) (ThreadID, bool) {
	for t := 0; t < x.Threads(); t++ {
		if _, st := x.Pending(ThreadID(t)); st == Enabled {
			return ThreadID(t), true
		}
	}
	return 0, false
}
