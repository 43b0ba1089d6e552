// Package randprog generates small random pthreads C programs for
// differential testing: every explorer (dfs, rf, rvf, mcr, ...) must find the
// same outcomes and findings on them, and rf must explore one execution per
// reads-from class that dfs sees.
//
// A program has 1 to 3 shared globals (plain int and/or atomic_int), at most
// one mutex, 2 or 3 threads created by main with 1 to 4 operations each, and a
// few accesses by main itself. Operations are loads into locals, stores of a
// constant or of a local plus a constant, increments, atomic_fetch_add,
// atomic_compare_exchange_strong, lock/unlock pairs around a few simple
// operations, an if on a loaded value, and rarely a for-loop with a constant
// bound of 2. At its end main may join all threads and assert a random
// predicate over the globals, so some programs fail. There are no unbounded
// loops: every execution terminates.
//
// With Options.Blocking, executions can also block (issue 12): threads
// __VERIFIER_assume conditions on shared values (directly, or on a loaded
// local: an assume-based await) or call exit or abort on them, sometimes
// while holding the mutex, a
// thread may join the thread created before it (which may itself be stuck
// at a failed assumption), and main may assume a condition after its joins.
//
// With Options.Sync, programs may also use the POSIX synchronisation
// objects of issue 15 (sync.go): a reader-writer lock around a few simple
// operations, a semaphore that threads post, wait on and try, and a
// barrier that every thread (and maybe main) waits at once.
//
// With Options.Spin, a thread may busy-wait: a loop that loads a global
// until it has some value, maybe doing a simple operation on iterations
// where another loaded value matches (so that some iterations have an
// effect and others only read: the idle iterations that the interpreter
// stops at, program/cfront/idle.go).
//
// With Options.Requests, programs take the shape of Nidhugg's dispatcher
// benchmark (requests.go): a lock per global, threads working on a global
// under its lock, and main making requests in a loop, each creating and
// joining a helper thread.
//
// The output stays within the C subset of testdata/c: <pthread.h>,
// <semaphore.h>, <stdatomic.h> (seq_cst operations only), <assert.h>, int
// arithmetic on small constants, no stdio, no floating point.
package randprog

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Options shape the generated programs. The zero value gives plain-int
// programs with a random number of threads and globals, up to 4 operations
// per thread, no mutex and no assertion; DefaultOptions enables everything.
type Options struct {
	// Threads is the number of threads main creates; 0 means 2 or 3 at random.
	Threads int
	// Ops is the maximum number of operations per thread (each has at least
	// one); a compound operation (lock block, if, loop) counts as one. 0 means 4.
	Ops int
	// Globals is the number of shared globals; 0 means 1 to 3 at random.
	Globals int
	// Mutex lets the program declare one mutex and lock it around a few
	// simple operations.
	Mutex bool
	// Atomics lets globals be atomic_int, accessed with atomic_load,
	// atomic_store, atomic_fetch_add and atomic_compare_exchange_strong.
	Atomics bool
	// Asserts lets main join all threads and assert a predicate over the
	// globals at its end.
	Asserts bool
	// Blocking lets executions block: assumes on shared values (awaits),
	// assumes inside critical sections, joins between threads, and an
	// assume in main after its joins. Without it no random draw differs
	// from earlier versions, so old seeds give the same programs.
	Blocking bool
	// Sync lets the program use a reader-writer lock, a semaphore and a
	// barrier (sync.go). Like Blocking, without it no draw differs.
	Sync bool
	// Spin lets threads busy-wait in loops that exit when a global has
	// some value (they may never exit). Like Blocking, without it no draw
	// differs.
	Spin bool
	// Inputs lets threads read nondeterministic inputs (a _Bool, or a char
	// assumed in [-1, 2]) into locals that flow into stores and decide
	// branches. Like Blocking, without it no draw differs.
	Inputs bool
	// Fences lets threads execute __sync_synchronize() (a full fence,
	// which drains the store buffers under TSO and PSO) between
	// operations. Like Blocking, without it no draw differs.
	Fences bool
	// Trylock lets a mutex block be a pthread_mutex_trylock that runs
	// the block if it succeeds and another operation if it fails (issue
	// 15: both outcomes). Like Blocking, without it no draw differs.
	Trylock bool
	// Requests, if positive, gives every global a lock of its own, lets
	// threads work on a global under its lock, and has main make that
	// many requests in a loop, each creating and joining a helper thread
	// (requests.go). Like Blocking, without it no draw differs.
	Requests int
}

// DefaultOptions returns the options used for differential testing: random
// sizes, with mutexes, atomics and assertions enabled.
func DefaultOptions() Options {
	return Options{Mutex: true, Atomics: true, Asserts: true}
}

// SmallOptions returns options for comparisons against the dfs explorer,
// which enumerates every interleaving: 2 threads of at most 2 operations over
// 2 globals, with mutexes, atomics and assertions enabled. With
// DefaultOptions the largest programs (3 threads of 4 compound operations)
// have far too many interleavings for dfs; use them with the reducing
// explorers only.
func SmallOptions() Options {
	return Options{Threads: 2, Ops: 2, Globals: 2, Mutex: true, Atomics: true, Asserts: true}
}

// SyncOptions returns options for small programs over a reader-writer
// lock, a semaphore or a barrier, for the differential tests of those
// primitives against dfs (their executions can block and deadlock): 2
// threads of at most 2 operations over 1 global, with atomics and
// assertions, no mutex. Every wait or lock operation is two or three
// events, so the programs are kept smaller than SmallOptions'.
func SyncOptions() Options {
	return Options{Threads: 2, Ops: 2, Globals: 1, Atomics: true, Asserts: true, Sync: true}
}

// BlockingOptions returns SmallOptions with Blocking: small programs whose
// executions may block, for the differential tests of blocked executions.
func BlockingOptions() Options {
	o := SmallOptions()
	o.Blocking = true
	return o
}

// TrylockOptions returns SmallOptions with Trylock: small programs whose
// mutex blocks may be trylocks, for the differential tests of failed and
// successful trylocks.
func TrylockOptions() Options {
	o := SmallOptions()
	o.Trylock = true
	return o
}

// SpinOptions returns SmallOptions with Spin: small programs with
// busy-waiting loops, for the differential tests of idle iterations.
func SpinOptions() Options {
	o := SmallOptions()
	o.Spin = true
	return o
}

// Generate returns the C source of the random program for seed. The same seed
// and options always give the same program.
func Generate(seed int64, opts Options) string {
	g := &gen{
		rng:  rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)),
		opts: opts,
		seed: seed,
	}
	return g.program()
}

type global struct {
	name   string
	atomic bool
	init   int
}

// gen holds the state of one generation. Locals of the function being
// generated are declared at its top, so any later statement may use them.
type gen struct {
	rng     *rand.Rand
	opts    Options
	seed    int64
	globals []global
	mutex   bool
	sync    syncObjects // Options.Sync (sync.go)

	body   strings.Builder // body of the function being generated
	indent int
	locals []string // locals declared so far in the current function
	values []string // locals holding a value loaded from shared memory
	inputs []string // locals holding an input (Options.Inputs)
}

func (g *gen) program() string {
	nthreads := g.opts.Threads
	if nthreads <= 0 {
		nthreads = 2 + g.rng.IntN(2)
	}
	nglobals := g.opts.Globals
	if nglobals <= 0 {
		nglobals = 1 + g.rng.IntN(3)
	}
	for i := range nglobals {
		gl := global{name: fmt.Sprintf("g%d", i), init: g.small()}
		if g.opts.Atomics && g.rng.IntN(2) == 0 {
			gl.atomic = true
		}
		g.globals = append(g.globals, gl)
	}
	g.mutex = g.opts.Mutex && (g.opts.Trylock || g.rng.IntN(2) == 0)
	asserts := g.opts.Asserts && g.rng.IntN(4) != 0
	join := asserts || g.rng.IntN(2) == 0
	if g.opts.Sync {
		g.chooseSync(nthreads)
	}
	requests := ""

	threads := make([]string, nthreads)
	joins := make([]bool, nthreads) // thread i joins thread i-1 (its arg)
	for i := range threads {
		joins[i] = g.opts.Blocking && i > 0 && g.rng.IntN(4) == 0
		threads[i] = g.thread(i, joins[i])
	}
	if g.opts.Requests > 0 {
		requests = g.requestFuncs()
	}
	mainFn := g.mainFunc(nthreads, join, asserts, joins)

	var out strings.Builder
	fmt.Fprintf(&out, "/* randprog seed %d: %s, %s", g.seed, plural(nthreads, "thread"), plural(nglobals, "global"))
	if g.mutex {
		out.WriteString(", a mutex")
	}
	if asserts {
		out.WriteString(", a final assertion")
	}
	if g.opts.Requests > 0 {
		fmt.Fprintf(&out, ", %s", plural(g.opts.Requests, "request"))
	}
	g.sync.describe(&out)
	out.WriteString(". */\n")
	if asserts {
		out.WriteString("#include <assert.h>\n")
	}
	out.WriteString("#include <pthread.h>\n")
	if g.sync.sem {
		out.WriteString("#include <semaphore.h>\n")
	}
	if g.opts.Blocking {
		out.WriteString("#include <stdint.h>\n")
	}
	if g.anyAtomic() {
		out.WriteString("#include <stdatomic.h>\n")
	}
	out.WriteString("#include <stddef.h>\n\n")
	if g.opts.Blocking {
		out.WriteString("extern void __VERIFIER_assume(int cond);\nextern void abort(void);\nextern void exit(int status);\n\n")
	}
	if g.opts.Inputs {
		if !g.opts.Blocking {
			out.WriteString("extern void __VERIFIER_assume(int cond);\n")
		}
		out.WriteString("extern _Bool __VERIFIER_nondet_bool(void);\nextern char __VERIFIER_nondet_char(void);\n\n")
	}
	for _, gl := range g.globals {
		switch {
		case gl.atomic:
			fmt.Fprintf(&out, "atomic_int %s;\n", gl.name)
		case gl.init != 0:
			fmt.Fprintf(&out, "int %s = %d;\n", gl.name, gl.init)
		default:
			fmt.Fprintf(&out, "int %s;\n", gl.name)
		}
	}
	if g.mutex {
		out.WriteString("pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n")
	}
	if g.opts.Requests > 0 {
		for i := range g.globals {
			fmt.Fprintf(&out, "pthread_mutex_t l%d = PTHREAD_MUTEX_INITIALIZER;\n", i)
		}
	}
	g.sync.declare(&out)
	for _, t := range threads {
		out.WriteString("\n")
		out.WriteString(t)
	}
	out.WriteString("\n")
	if requests != "" {
		out.WriteString(requests)
		out.WriteString("\n")
	}
	out.WriteString(mainFn)
	return out.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func (g *gen) anyAtomic() bool {
	for _, gl := range g.globals {
		if gl.atomic {
			return true
		}
	}
	return false
}

// thread returns the function of thread i; with join it first joins the
// thread whose handle main passes as its argument.
func (g *gen) thread(i int, join bool) string {
	g.begin()
	if join {
		g.line("pthread_join((pthread_t)(uintptr_t)arg, NULL);")
	}
	maxOps := g.opts.Ops
	if maxOps <= 0 {
		maxOps = 4
	}
	nops := 1 + g.rng.IntN(maxOps)
	wait := -1 // before which operation the thread waits at the barrier
	if g.sync.barrier {
		wait = g.rng.IntN(nops + 1)
	}
	for k := range nops {
		if k == wait {
			g.barrierWait()
		}
		g.op()
	}
	if wait == nops {
		g.barrierWait()
	}
	var f strings.Builder
	fmt.Fprintf(&f, "void *thread%d(void *arg)\n{\n", i)
	if g.declare(&f) {
		f.WriteString("\n")
	}
	f.WriteString("\t(void)arg;\n")
	f.WriteString(g.body.String())
	g.unused(&f)
	f.WriteString("\treturn NULL;\n}\n")
	return f.String()
}

// mainFunc returns main: initialise the atomics, create the threads with a
// few accesses of its own in between, then optionally join and assert.
func (g *gen) mainFunc(nthreads int, join, asserts bool, joins []bool) string {
	g.begin()
	for _, gl := range g.globals {
		if gl.atomic && gl.init != 0 {
			g.line("atomic_init(&%s, %d);", gl.name, gl.init)
		}
	}
	g.syncInit()
	mainOps := g.rng.IntN(3)
	for i := range nthreads {
		arg := "NULL"
		if joins[i] {
			arg = fmt.Sprintf("(void *)(uintptr_t)t[%d]", i-1)
		}
		g.line("pthread_create(&t[%d], NULL, thread%d, %s);", i, i, arg)
		if mainOps > 0 && g.rng.IntN(2) == 0 {
			g.simple()
			mainOps--
		}
	}
	for ; mainOps > 0; mainOps-- {
		g.simple()
	}
	if g.sync.mainWaits {
		g.barrierWait()
	}
	if g.opts.Requests > 0 {
		g.line("for (int q = 0; q < %d; q++)", g.opts.Requests)
		g.line("\trequest();")
	}
	if join {
		for i := range nthreads {
			g.line("pthread_join(t[%d], NULL);", i)
		}
	}
	if g.opts.Blocking && g.rng.IntN(4) == 0 {
		g.line("__VERIFIER_assume(%s);", g.predicate())
	}
	if asserts {
		g.line("assert(%s);", g.predicate())
	}
	var f strings.Builder
	f.WriteString("int main(void)\n{\n")
	fmt.Fprintf(&f, "\tpthread_t t[%d];\n", nthreads)
	g.declare(&f)
	f.WriteString("\n")
	f.WriteString(g.body.String())
	g.unused(&f)
	f.WriteString("\treturn 0;\n}\n")
	return f.String()
}

// begin starts a new function.
func (g *gen) begin() {
	g.body.Reset()
	g.indent = 1
	g.locals = g.locals[:0]
	g.values = g.values[:0]
	g.inputs = g.inputs[:0]
	if g.opts.Inputs && g.rng.IntN(3) != 0 {
		g.input()
	}
}

// input reads an input into a new local: a _Bool, or a char assumed in
// [-1, 2].
func (g *gen) input() {
	v := g.local()
	g.inputs = append(g.inputs, v)
	if g.rng.IntN(2) == 0 {
		g.line("%s = __VERIFIER_nondet_bool();", v)
		return
	}
	g.line("%s = __VERIFIER_nondet_char();", v)
	g.line("__VERIFIER_assume(%s >= -1 && %s <= 2);", v, v)
}

// declare writes the declarations of the locals and reports whether there
// were any.
func (g *gen) declare(f *strings.Builder) bool {
	for _, l := range g.locals {
		fmt.Fprintf(f, "\tint %s = 0;\n", l)
	}
	return len(g.locals) > 0
}

// unused marks every local as used, so that gcc -Wall stays quiet about
// locals that are only written.
func (g *gen) unused(f *strings.Builder) {
	for _, l := range g.locals {
		fmt.Fprintf(f, "\t(void)%s;\n", l)
	}
}

func (g *gen) line(format string, args ...any) {
	g.body.WriteString(strings.Repeat("\t", g.indent))
	fmt.Fprintf(&g.body, format, args...)
	g.body.WriteString("\n")
}

// local declares a new local that will hold a value read from shared memory.
func (g *gen) local() string {
	name := fmt.Sprintf("r%d", len(g.locals))
	g.locals = append(g.locals, name)
	g.values = append(g.values, name)
	return name
}

// small returns a small constant.
func (g *gen) small() int { return g.rng.IntN(4) }

func (g *gen) pick() global { return g.globals[g.rng.IntN(len(g.globals))] }

func (g *gen) pickAtomic() (global, bool) {
	var atomics []global
	for _, gl := range g.globals {
		if gl.atomic {
			atomics = append(atomics, gl)
		}
	}
	if len(atomics) == 0 {
		return global{}, false
	}
	return atomics[g.rng.IntN(len(atomics))], true
}

// load returns an expression reading gl.
func load(gl global) string {
	if gl.atomic {
		return "atomic_load(&" + gl.name + ")"
	}
	return gl.name
}

// store emits a statement writing expr to gl.
func (g *gen) store(gl global, expr string) {
	if gl.atomic {
		g.line("atomic_store(&%s, %s);", gl.name, expr)
	} else {
		g.line("%s = %s;", gl.name, expr)
	}
}

// value returns a constant or a loaded local plus a constant.
func (g *gen) value() string {
	if len(g.values) > 0 && g.rng.IntN(2) == 0 {
		return fmt.Sprintf("%s + %d", g.values[g.rng.IntN(len(g.values))], 1+g.rng.IntN(2))
	}
	return fmt.Sprint(g.small())
}

// op emits one top-level operation of a thread: a simple one or a compound
// one (lock block, if, bounded loop) around one or two simple ones.
func (g *gen) op() {
	r := g.rng.IntN(10)
	if g.opts.Fences && g.rng.IntN(4) == 0 {
		g.line("__sync_synchronize();")
		return
	}
	if g.opts.Blocking && g.rng.IntN(4) == 0 {
		g.await()
		return
	}
	if g.opts.Sync && g.syncOp() {
		return
	}
	if g.opts.Requests > 0 && g.rng.IntN(2) == 0 {
		g.channelBlock(g.rng.IntN(len(g.globals)))
		return
	}
	if g.opts.Spin && g.rng.IntN(3) == 0 {
		g.spin()
		return
	}
	if len(g.inputs) > 0 && g.rng.IntN(3) == 0 {
		g.line("if (%s %s %d) {", g.inputs[g.rng.IntN(len(g.inputs))], g.cmp(), g.small()-1)
		g.nested()
		if g.rng.IntN(2) == 0 {
			g.line("} else {")
			g.nested()
		}
		g.line("}")
		return
	}
	switch {
	case (r < 2 || r < 5 && g.opts.Trylock) && g.mutex && g.opts.Trylock && g.rng.IntN(3) != 0:
		g.line("if (pthread_mutex_trylock(&m) == 0) {")
		for range 1 + g.rng.IntN(2) {
			g.simple()
		}
		g.line("pthread_mutex_unlock(&m);")
		g.line("} else {")
		g.simple()
		g.line("}")
	case r < 2 && g.mutex:
		g.line("pthread_mutex_lock(&m);")
		for range 1 + g.rng.IntN(2) {
			g.simple()
		}
		if g.opts.Blocking && g.rng.IntN(3) == 0 {
			g.await() // blocks while holding the mutex
		}
		g.line("pthread_mutex_unlock(&m);")
	case r < 4:
		v := g.local()
		g.line("%s = %s;", v, load(g.pick()))
		g.line("if (%s %s %d) {", v, g.cmp(), g.small())
		g.nested()
		if g.rng.IntN(2) == 0 {
			g.line("} else {")
			g.nested()
		}
		g.line("}")
	case r == 4:
		g.line("for (int k = 0; k < 2; k++) {")
		g.nested()
		g.line("}")
	default:
		g.simple()
	}
}

// await emits an assumption on shared memory: on a load directly, or on a
// loaded local (an assume-based await, as Nidhugg's spin-assume
// transformation writes a spin loop).
//
// One time in six it ends the program instead when a loaded value matches:
// exit(0) or abort(), which stop their thread while the others run on
// (the interpreter executes the exit last) and end the execution normally.
func (g *gen) await() {
	gl := g.pick()
	if g.rng.IntN(6) == 0 {
		end := "abort()"
		if g.rng.IntN(2) == 0 {
			end = "exit(0)"
		}
		g.line("if (%s %s %d) %s;", load(gl), g.cmp(), g.small(), end)
		return
	}
	if g.rng.IntN(2) == 0 {
		g.line("__VERIFIER_assume(%s %s %d);", load(gl), g.cmp(), g.small())
		return
	}
	v := g.local()
	g.line("%s = %s;", v, load(gl))
	g.line("__VERIFIER_assume(%s %s %d);", v, g.cmp(), g.small())
}

// spin emits a busy-waiting loop: load a global until it compares to a
// constant; on some iterations, when a second loaded value matches, do a
// simple operation (an iteration with an effect).
func (g *gen) spin() {
	v := g.local()
	g.line("while (1) {")
	g.indent++
	if g.mutex && g.rng.IntN(3) == 0 {
		// read under the mutex: an idle iteration takes and releases it
		g.line("pthread_mutex_lock(&m);")
		g.line("%s = %s;", v, load(g.pick()))
		g.line("pthread_mutex_unlock(&m);")
	} else {
		g.line("%s = %s;", v, load(g.pick()))
	}
	g.line("if (%s %s %d) break;", v, g.cmp(), g.small())
	if g.rng.IntN(2) == 0 {
		w := g.local()
		g.line("%s = %s;", w, load(g.pick()))
		g.line("if (%s %s %d) {", w, g.cmp(), g.small())
		g.nested()
		g.line("}")
	}
	g.indent--
	g.line("}")
}

// nested emits one simple operation one level deeper.
func (g *gen) nested() {
	g.indent++
	g.simple()
	g.indent--
}

// simple emits one simple operation: a load, a store, an increment, or on an
// atomic global a fetch_add or a compare-exchange.
func (g *gen) simple() {
	gl := g.pick()
	kind := g.rng.IntN(6)
	if kind >= 4 {
		a, ok := g.pickAtomic()
		if !ok {
			kind = g.rng.IntN(4)
		} else {
			gl = a
		}
	}
	switch kind {
	case 0:
		g.line("%s = %s;", g.local(), load(gl))
	case 1, 2:
		g.store(gl, g.value())
	case 3:
		g.store(gl, fmt.Sprintf("%s + %d", load(gl), 1+g.rng.IntN(2)))
	case 4:
		g.line("%s = atomic_fetch_add(&%s, %d);", g.local(), gl.name, 1+g.rng.IntN(2))
	case 5:
		// The expected value lives in its own local, which the
		// compare-exchange overwrites with the current value on failure.
		desired := g.value()
		expected := g.local()
		g.line("%s = %d;", expected, g.small())
		ok := g.local()
		g.line("%s = atomic_compare_exchange_strong(&%s, &%s, %s);", ok, gl.name, expected, desired)
	}
}

func (g *gen) cmp() string {
	return [...]string{"==", "!=", "<", "<=", ">", ">="}[g.rng.IntN(6)]
}

// predicate returns a random condition over one or two globals.
func (g *gen) predicate() string {
	atom := func() string {
		return fmt.Sprintf("%s %s %d", load(g.pick()), g.cmp(), g.rng.IntN(5))
	}
	if g.rng.IntN(2) == 0 {
		return atom()
	}
	op := "&&"
	if g.rng.IntN(2) == 0 {
		op = "||"
	}
	return fmt.Sprintf("(%s) %s (%s)", atom(), op, atom())
}
