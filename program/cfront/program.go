package cfront

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"modernc.org/cc/v4"

	"mcr/program"
)

// Program is a compiled C program, ready to be executed any number of times
// (concurrently from several goroutines: executions share only the
// read-only code and the interning tables, which are locked).
type Program struct {
	file    string
	code    []instr
	funcs   []*function
	statics []*static
	// shared holds, by static id, the objects of functions, which every
	// execution shares (nil for the other statics); nfuncs counts them.
	// ownIdx gives, by static id, the index of the others among an
	// execution's own (execution.own), -1 for functions.
	shared     []*object
	nfuncs     int
	ownIdx     []int32
	strs       []string
	mainFn     *function
	exitHook   *function // runs key destructors at thread exit; nil if no key has one (tsd.go)
	mainArgs   []int64   // argc, argv
	maxEvents  int
	maxThreads int // threads of one execution, main included
	// boundHit, if not nil, is set when an execution creates a thread
	// beyond maxThreads (WithMaxThreads, threadbound.go)
	boundHit *atomic.Bool
	// attempted is the most threads an execution tried to have, main
	// included, counted where the bound was hit (ThreadsAttempted)
	attempted *atomic.Int64
	stepLimit int // instructions a thread may run between two events
	// noIdleStop: run idle loop iterations on (Options.NoSpinAwait, idle.go)
	noIdleStop bool
	// stop, if not nil, is closed when the run is cancelled: executions
	// then end at once (StopWhen)
	stop <-chan struct{}

	// threads interns fork-tree names: the one part of a Program that its
	// executions change (Fresh gives a copy a table of its own)
	threads *threadNames

	// hasInputs: the program calls __VERIFIER_nondet_* (concolic.go)
	hasInputs bool
	// hasTrylock: its code has a trylock (HasTrylock)
	hasTrylock bool
	// inputs is the input vector its executions read (WithInputs)
	inputs map[program.InputID]int64
	// undefInputs: an uninitialised integer local starts as an input
	// (WithUndefInputs)
	undefInputs bool
	// model is the memory model executions run under (SetModel, storebuf.go)
	model program.MemoryModel
}

// threadNames is a Program's table of thread names and ids.
type threadNames struct {
	mu    sync.Mutex
	names []string
	ids   map[string]program.ThreadID
	// table is threadTable's snapshot of names, rebuilt when a thread is
	// interned: every execution's Trace shares it (read only). Building
	// it per Trace call was 3% of RVF-SMC's time on lastzero (issue 17).
	table []program.Thread
	// kids[parent][k] is the id of parent's (k+1)-th child, once interned
	// (child): a pthread_create then needs neither the child's name
	// (fmt) nor a string hash, 3% of ReadsFrom-SMC's time on lastzero
	// and readers (issue 17).
	kids [][]program.ThreadID
}

// newThreadNames returns a table holding the main thread as id 0.
func newThreadNames() *threadNames {
	return &threadNames{names: []string{"0"}, ids: map[string]program.ThreadID{"0": 0}}
}

// static is a global variable, string literal or function address.
type static struct {
	name string
	kind objKind
	typ  cc.Type // nil for strings and functions
	data []byte  // initial contents
	fn   *function
	// tls: a thread-local variable (_Thread_local, __thread). The static is
	// the template every thread's copy starts from (tls.go).
	tls bool
	// internal: not nameable from another file (a static global or
	// static local, an extern function's own object; extern.go)
	internal bool
}

var _ program.Program = (*Program)(nil)

// File is the source file the program was compiled from.
func (p *Program) File() string { return p.file }

// SetMaxEvents sets the per-thread event bound (DESIGN.md "Executing
// programs"): an execution in which a thread would execute more events ends
// as program.Bounded. It must be called before executions start.
func (p *Program) SetMaxEvents(n int) { p.maxEvents = n }

// StopWhen makes every execution end (as program.Bounded, with a message
// saying why) soon after ctx is done, even one whose threads never reach
// another event or whose events never end: explorers look at their context
// only between steps or executions. It must be called before executions
// start.
func (p *Program) StopWhen(ctx context.Context) { p.stop = ctx.Done() }

// Fresh returns a program that shares p's compiled code and settings but
// not its thread table: as if just loaded. An exploration grows the table
// as threads appear, so a second explorer on the same Program sees every
// thread from its first execution on; tests give each explorer a fresh
// one, as the CLI does, so that growing tables are exercised too.
func (p *Program) Fresh() *Program {
	q := *p
	q.threads = newThreadNames()
	return &q
}

// MaxThreads is the thread bound of p's executions (Options.MaxThreads).
func (p *Program) MaxThreads() int { return p.maxThreads }

// WithMaxThreads returns a copy of p (Fresh) whose executions have the
// thread bound n; ThreadBoundHit tells whether one of them reached it.
func (p *Program) WithMaxThreads(n int) *Program {
	q := p.Fresh()
	q.maxThreads = n
	q.boundHit, q.attempted = new(atomic.Bool), new(atomic.Int64)
	return q
}

// ThreadsAttempted is the most threads, main included, that an execution
// of a program made by WithMaxThreads tried to have when it reached the
// bound (the creates beyond it counted); 0 if none reached it.
func (p *Program) ThreadsAttempted() int {
	if p.attempted == nil {
		return 0
	}
	return int(p.attempted.Load())
}

// ThreadBoundHit reports whether an execution of a program made by
// WithMaxThreads (or of its copies) created a thread beyond the bound.
func (p *Program) ThreadBoundHit() bool { return p.boundHit != nil && p.boundHit.Load() }

// Thread implements program.Program: it interns fork-tree names.
func (p *Program) Thread(name string) program.ThreadID {
	t := p.threads
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[name]; ok {
		return id
	}
	id := program.ThreadID(len(t.names))
	t.names = append(t.names, name)
	t.ids[name] = id
	return id
}

// child returns the id of the (k+1)-th thread that thread parent (named
// name) creates: Thread(program.ChildName(name, k)), cached per (parent,
// k).
func (p *Program) child(parent program.ThreadID, name string, k int) program.ThreadID {
	t := p.threads
	t.mu.Lock()
	defer t.mu.Unlock()
	if int(parent) < len(t.kids) && k < len(t.kids[parent]) && t.kids[parent][k] >= 0 {
		return t.kids[parent][k]
	}
	cname := program.ChildName(name, k)
	id, ok := t.ids[cname]
	if !ok {
		id = program.ThreadID(len(t.names))
		t.names = append(t.names, cname)
		t.ids[cname] = id
	}
	for int(parent) >= len(t.kids) {
		t.kids = append(t.kids, nil)
	}
	for k >= len(t.kids[parent]) {
		t.kids[parent] = append(t.kids[parent], -1)
	}
	t.kids[parent][k] = id
	return id
}

// threadCount returns the number of threads interned so far.
func (p *Program) threadCount() int {
	t := p.threads
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.names)
}

// threadName returns the name of thread id, "?" if it is unknown.
func (p *Program) threadName(id program.ThreadID) string {
	t := p.threads
	t.mu.Lock()
	defer t.mu.Unlock()
	if int(id) < 0 || int(id) >= len(t.names) {
		return "?"
	}
	return t.names[id]
}

// threadTable snapshots the interned threads with their parents. The
// snapshot is shared until a thread is interned: read only.
func (p *Program) threadTable() []program.Thread {
	t := p.threads
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.table) == len(t.names) {
		return t.table
	}
	out := make([]program.Thread, len(t.names))
	for i, name := range t.names {
		out[i] = program.Thread{Name: name, Parent: -1}
		if k := strings.LastIndexByte(name, '.'); k >= 0 {
			out[i].Parent = t.ids[name[:k]]
		}
	}
	t.table = out
	return out
}

// objName names the object with the given id for messages.
func (p *Program) objName(id uint32) string {
	if id&dynBit == 0 {
		if int(id) < len(p.statics) {
			return p.statics[id].name
		}
		return fmt.Sprintf("object#%d", id)
	}
	tid, n := program.ThreadID(int(id&^dynBit)>>dynThreadShift), int(id&(maxDynPerThr-1))
	return fmt.Sprintf("block(T%s#%d)", p.threadName(tid), n)
}

// LocName names a location: the variable, then array indices and field
// names as far as the static type tells ("array[2]", "s.next").
func (p *Program) LocName(l program.Loc) string {
	if l == atomicLock {
		return "__VERIFIER_atomic"
	}
	id, off := objOf(int64(l)), int64(offOf(int64(l)))
	name := p.objName(id)
	if id&dynBit == 0 && int(id) < len(p.statics) && p.statics[id].typ != nil {
		return name + pathAt(p.statics[id].typ, off)
	}
	if off != 0 {
		return fmt.Sprintf("%s+%d", name, off)
	}
	return name
}

// pathAt renders the access path to byte offset off of type t.
func pathAt(t cc.Type, off int64) string {
	switch t.Kind() {
	case cc.Array:
		et := t.(*cc.ArrayType).Elem()
		if sz := et.Size(); sz > 0 {
			return fmt.Sprintf("[%d]", off/sz) + pathAt(et, off%sz)
		}
	case cc.Struct, cc.Union:
		st, ok := t.(*cc.StructType)
		if !ok {
			break
		}
		if b, names, ok := unitAt(st, off); ok {
			// the unit of a run of bit-fields (bitfield.go): name them all
			path := "." + strings.Join(names, "|")
			if off != b.unit {
				path += fmt.Sprintf("+%d", off-b.unit)
			}
			return path
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.FieldByIndex(i)
			if !f.IsBitfield() && f.Offset() <= off && off < f.Offset()+f.Type().Size() {
				return "." + f.Name() + pathAt(f.Type(), off-f.Offset())
			}
		}
	}
	if off != 0 {
		return fmt.Sprintf("+%d", off)
	}
	return ""
}

// initValue is the value location l holds when an execution starts.
func (p *Program) initValue(l program.Loc) int64 {
	id, off := objOf(int64(l)), int64(offOf(int64(l)))
	if id&dynBit != 0 || int(id) >= len(p.statics) {
		return 0 // heap and stack blocks start zeroed
	}
	s := p.statics[id]
	w, signed := scalarAt(s.typ, off)
	if w == 0 || off+int64(w) > int64(len(s.data)) {
		return 0
	}
	return load(s.data[off:], w, signed)
}

// scalarAt returns the width and signedness of the scalar at offset off of t.
func scalarAt(t cc.Type, off int64) (uint8, bool) {
	if t == nil {
		return 0, false
	}
	switch t.Kind() {
	case cc.Array:
		et := t.(*cc.ArrayType).Elem()
		if sz := et.Size(); sz > 0 {
			return scalarAt(et, off%sz)
		}
		return 0, false
	case cc.Struct, cc.Union:
		if st, ok := t.(*cc.StructType); ok {
			if b, _, ok := unitAt(st, off); ok {
				// a bit-field unit is loaded unsigned, whole (bitfield.go)
				if off != b.unit {
					return 0, false
				}
				return b.w, false
			}
			for i := 0; i < st.NumFields(); i++ {
				f := st.FieldByIndex(i)
				if !f.IsBitfield() && f.Offset() <= off && off < f.Offset()+f.Type().Size() {
					return scalarAt(f.Type(), off-f.Offset())
				}
			}
		}
		return 0, false
	}
	return uint8(t.Size()), cc.IsSignedInteger(t)
}

// funcObjects returns the objects of the function statics, by static id
// (nil for the others), and how many there are. Executions share them: an access to a function's
// object as data fails in resolve before it touches the object, and free
// refuses it, so no execution changes one. A program declares hundreds of
// functions (every prototype of the system headers), and copying their
// objects was most of the memory a run of a small program allocated per
// execution (issue 17).
func funcObjects(statics []*static) (objs []*object, n int) {
	objs = make([]*object, len(statics))
	for i, s := range statics {
		if s.kind == kFunc {
			objs[i] = &object{data: s.data, kind: kFunc, fn: s.fn}
			n++
		}
	}
	return objs, n
}

// ownIndex numbers the statics that are not functions, which every
// execution has its own objects of, in id order (-1 for functions).
func ownIndex(statics []*static) []int32 {
	idx := make([]int32, len(statics))
	k := int32(0)
	for i, s := range statics {
		idx[i] = -1
		if s.kind != kFunc {
			idx[i], k = k, k+1
		}
	}
	return idx
}
