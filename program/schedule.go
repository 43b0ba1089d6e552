package program

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Schedule is a sequence of event identities: replaying it executes, at step
// k, the next event of thread Schedule[k].Thread, which must have index
// Schedule[k].Index; or, under TSO and PSO, the flush of the buffered write
// Schedule[k].Flushed() when Schedule[k].IsFlush() (FlushOf).
type Schedule []EventID

// ScheduleFile is the JSON form of a schedule saved by --schedule-out and read
// by `mcr replay`: threads are named by their fork-tree names so that the file
// is meaningful in another process.
type ScheduleFile struct {
	Program string            `json:"program,omitempty"` // source file the schedule belongs to
	Defines map[string]string `json:"defines,omitempty"` // -D definitions it was found with
	Finding string            `json:"finding,omitempty"` // what it reproduces, for humans
	// Inputs are the values of the program's nondeterministic inputs the
	// schedule runs with (absent inputs read 0)
	Inputs []InputValue `json:"inputs,omitempty"`
	// UndefInputs: uninitialised integer locals are inputs too (they
	// count among a thread's inputs in execution order)
	UndefInputs bool `json:"undef_inputs,omitempty"`
	// RandInputs: rand() and random() are inputs (check --rand-inputs)
	RandInputs bool `json:"rand_inputs,omitempty"`
	// FailingLocks: a pthread_mutex_lock whose result is used may fail
	// (check --failing-locks, on for SV-COMP tasks)
	FailingLocks bool `json:"failing_locks,omitempty"`
	// SpuriousWakeups: pthread_cond_wait may return without a signal
	// (check --spurious-wakeups, on for SV-COMP tasks); a schedule that
	// takes a spurious wake-up does not replay without it
	SpuriousWakeups bool `json:"spurious_wakeups,omitempty"`
	// NoSpinAwait: spin loops ran as written (check --no-spin-await), so
	// the schedule holds their iterations' events
	NoSpinAwait bool `json:"no_spin_await,omitempty"`
	// Model is the memory model the schedule runs under ("tso", "pso";
	// empty: sc). Under TSO and PSO the steps include flushes.
	Model string         `json:"mm,omitempty"`
	Steps []ScheduleStep `json:"steps"`
}

// ScheduleStep is one step of a ScheduleFile.
type ScheduleStep struct {
	Thread string `json:"thread"` // fork-tree name, "0" = main
	Index  int32  `json:"index"`
	// Flush: the step is the flush (memory-write) of the thread's buffered
	// write Index, not its next event (TSO, PSO).
	Flush bool `json:"flush,omitempty"`
}

// Names converts s to named steps using the trace's thread table.
func (s Schedule) Names(threads []Thread) []ScheduleStep {
	out := make([]ScheduleStep, len(s))
	for i, id := range s {
		out[i] = ScheduleStep{Thread: threads[id.Thread].Name, Index: id.Index}
		if id.IsFlush() {
			out[i].Index, out[i].Flush = ^id.Index, true
		}
	}
	return out
}

// WriteScheduleFile writes f as indented JSON to path.
func WriteScheduleFile(path string, f *ScheduleFile) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadScheduleFile reads a schedule written by WriteScheduleFile.
// Errors name the file and the problem.
func ReadScheduleFile(path string) (*ScheduleFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return DecodeScheduleFile(path, fh)
}

// DecodeScheduleFile decodes a schedule file from r; name is used in errors.
func DecodeScheduleFile(name string, r io.Reader) (*ScheduleFile, error) {
	var f ScheduleFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a schedule file: %v", name, err)
	}
	for i, s := range f.Steps {
		if s.Thread == "" || s.Index < 0 {
			return nil, fmt.Errorf("%s: step %d: bad thread %q or index %d", name, i, s.Thread, s.Index)
		}
	}
	return &f, nil
}

// TraceJSON is the JSON encoding of a trace: threads by name, events with
// thread names, kinds by name, locations by number and name.
type TraceJSON struct {
	File    string      `json:"file,omitempty"`
	Threads []string    `json:"threads"`
	Events  []EventJSON `json:"events"`
}

// EventJSON is one event of a TraceJSON.
type EventJSON struct {
	Thread  string `json:"thread"`
	Index   int32  `json:"index"`
	Kind    string `json:"kind"`
	Loc     Loc    `json:"loc,omitempty"`
	LocName string `json:"loc_name,omitempty"`
	Value   int64  `json:"value"`
	Atomic  bool   `json:"atomic,omitempty"`
	RMW     bool   `json:"rmw,omitempty"`
	RMWW    bool   `json:"rmw_write,omitempty"`
	Deref   bool   `json:"deref,omitempty"`
	CAS     bool   `json:"cas,omitempty"`
	Child   string `json:"child,omitempty"` // the other thread of a fork or join
	Arg     int64  `json:"arg,omitempty"`   // the value a compare-and-swap expected
	Line    int32  `json:"line,omitempty"`
	Col     int32  `json:"col,omitempty"`
	// SrcFile is the file of Line and Col when it is not the trace's File
	// (a header).
	SrcFile string `json:"src_file,omitempty"`
}

// JSON converts t to its JSON form.
func (t *Trace) JSON() *TraceJSON {
	out := &TraceJSON{File: t.File, Threads: make([]string, len(t.Threads)), Events: make([]EventJSON, len(t.Events))}
	for i, th := range t.Threads {
		out.Threads[i] = th.Name
	}
	for i := range t.Events {
		e := &t.Events[i]
		j := EventJSON{Thread: t.Threads[e.Thread].Name, Index: e.Index, Kind: e.Kind.String(), Value: e.Value,
			Atomic: e.Is(Atomic), RMW: e.Is(RMW), RMWW: e.Is(RMWWrite), Deref: e.Is(Deref), CAS: e.Is(CAS),
			Arg: e.Arg, Line: e.Pos.Line, Col: e.Pos.Col}
		if f := t.FileOf(e.Pos); f != t.File {
			j.SrcFile = f
		}
		if e.Kind.IsAccess() || e.Kind.IsLock() {
			j.Loc, j.LocName = e.Loc, t.LocName(e.Loc)
		}
		if (e.Kind == Fork || e.Kind == Join) && e.Value >= 0 && e.Value < int64(len(t.Threads)) {
			j.Value = 0
			j.Child = t.Threads[e.Value].Name
		}
		out.Events[i] = j
	}
	return out
}

// InputID identifies an input: the K-th (from 0) nondeterministic value
// (__VERIFIER_nondet_*) thread Thread asked for. Threads are named by
// their fork-tree names, so the identity is the same in every execution.
type InputID struct {
	Thread string
	K      int
}

// InputValue is one input's value in a schedule file or finding.
type InputValue struct {
	Thread string `json:"thread"`
	K      int    `json:"k"`
	Value  int64  `json:"value"`
}

// InputProgram is implemented by programs that read inputs: an
// exploration runs with one input vector fixed (absent inputs read 0).
type InputProgram interface {
	Program
	// HasInputs reports whether the program can read inputs at all.
	HasInputs() bool
	// WithInputs returns a copy of the program whose executions read the
	// given input values; it shares the thread identities of the original.
	WithInputs(in []InputValue) Program
}

// WithInputs returns p with the input vector in, or p itself if in is
// empty or p reads no inputs.
func WithInputs(p Program, in []InputValue) Program {
	if ip, ok := p.(InputProgram); ok && len(in) > 0 {
		return ip.WithInputs(in)
	}
	return p
}
