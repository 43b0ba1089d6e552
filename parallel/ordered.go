package parallel

// Ordered recursion trees: "run in parallel, commit in order" (Tree).

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc/panics"
)

// Tree is one search over an ordered recursion tree: "run in parallel,
// commit in order".
//
// The explorers this is written for (ReadsFrom-SMC, 002_29f9f830801bf5b9.txt
// Algorithm 1; RVF-SMC, 000_1fb260b9b3a323b2.txt Algorithm 2) are
// recursions whose subtrees are not independent: in ReadsFrom-SMC a call
// adds schedules to positions its ancestors explore later (Algorithm 1
// lines 10-11), and the first schedule proposed for a position (up to ≡)
// is the one kept; in RVF-SMC a call sets the backtrack signals of its
// ancestors (Algorithm 2 lines 3-5), which decide whether they go on. So
// subtrees cannot simply run on separate workers and merge their results
// in any order: what a subtree does outside itself must take effect in the
// order of the sequential (depth-first) search. Tree is the part of that
// scheme that knows nothing about the algorithms:
//
//   - A Tree is one search: a number of workers (sched.go), and a sink
//     that receives the search's externally visible effects (entries of
//     type E: executions, findings, ...) in depth-first order.
//   - A Node is a context in which calls run: the root, or a child made for
//     one child call (Node.Child). A call either runs directly in its
//     parent's node, as the sequential algorithm does, or, as a Task, in a
//     node of its own: offered to the other workers if one is free
//     (Tree.TrySlot), else at once on the caller's (Tree.Go).
//   - Every effect is Put into the node of the call that makes it: the root
//     hands it to the sink at once; any other node appends it to its log.
//   - A parent commits the logs of its finished children (Node.Commit) in
//     the order the sequential algorithm visits them, deciding entry by
//     entry what becomes of it (it may consume an entry addressed to it, or
//     Put it on). The caller runs a child directly only when every child
//     before it is committed, so a node's own entries and its commits come
//     in depth-first order too.
//
// Invariant: the sink sees the same entries in the same order for any
// number of workers, so the counts and findings built from them (and the
// first finding at which the search stops) do not depend on it. With one
// worker TrySlot always fails, every child runs directly in the root and
// the search is the sequential one, on the same code path.
//
// The sink returning true (a finding when only the first is wanted) halts
// the search: every node is then Done, and the calls still running return.
// What calls of several nodes share besides (an outer node's set that an
// inner one looks into) is theirs to guard, with Tree.Lock.
type Tree[E any] struct {
	workers  int
	sink     func(E) bool
	halted   atomic.Bool // the sink returned true, or a task panicked
	panics   panics.Catcher
	rw       sync.RWMutex // Lock, RLock
	running  bool         // Run has started (a Tree runs once)
	sched    sched[E]     // the workers and the offered tasks (sched.go)
	measure  bool         // Measure
	offerAll bool         // Measure
	measured
}

// NewTree returns a search on the given number of workers (below 1: one)
// whose root hands its entries to sink; a true from sink stops the search.
// sink runs on the goroutine of Run.
func NewTree[E any](workers int, sink func(E) bool) *Tree[E] {
	return &Tree[E]{workers: max(workers, 1), sink: sink}
}

// Run runs fn, the root call, on the caller's goroutine (one of the
// workers), and returns when it and every task of the search have ended.
// A panic in a task is raised again here, after that; a panic in fn goes
// on once the tasks have ended.
func (t *Tree[E]) Run(fn func(root *Node[E])) {
	if t.running {
		panic("parallel: Tree.Run called twice")
	}
	t.running = true
	unlock := t.lockThread()
	root := &Node[E]{tree: t}
	t.resume(root, 0)
	t.sched.start(t)
	ended := false
	defer func() {
		if !ended { // fn panicked: let the workers go before the panic goes on
			t.halted.Store(true)
			t.sched.finish(t)
			unlock()
		}
	}()
	fn(root)
	ended = true
	t.advance(root)
	t.sched.finish(t)
	unlock()
	t.sched.stats.Span = root.clock.span
	t.sched.stats.Work = time.Duration(t.work.Load())
	t.panics.Repanic()
}

// Halted reports whether the sink stopped the search.
func (t *Tree[E]) Halted() bool { return t.halted.Load() }

// TrySlot reports whether a worker is free to take a task, and worth()
// says a task is worth it; the caller then offers the task with Go(...,
// true, ...). worth (nil: yes) is asked only when a worker looks free, so
// a costly test costs nothing with one worker, where TrySlot always fails.
// A free worker may still be beaten to the task by its caller (Task.Wait).
func (t *Tree[E]) TrySlot(worth func() bool) bool {
	return t.workers > 1 && (t.offerAll || t.sched.free(t.workers)) && (worth == nil || worth())
}

// Lock and Unlock (and RLock, RUnlock) guard state that calls of several
// nodes share, such as a set of an outer node that an inner one looks
// into: a sync.RWMutex with several workers, nothing with one (then no
// two calls ever run at the same time).
func (t *Tree[E]) Lock() {
	if t.workers > 1 {
		t.rw.Lock()
	}
}

// Unlock undoes Lock.
func (t *Tree[E]) Unlock() {
	if t.workers > 1 {
		t.rw.Unlock()
	}
}

// RLock locks for reading (see Lock).
func (t *Tree[E]) RLock() {
	if t.workers > 1 {
		t.rw.RLock()
	}
}

// RUnlock undoes RLock.
func (t *Tree[E]) RUnlock() {
	if t.workers > 1 {
		t.rw.RUnlock()
	}
}

// Node is a context of calls of a search: the root, or the node of one
// child call. It is used by one goroutine at a time: the one running its
// calls, and then the one committing it.
type Node[E any] struct {
	tree   *Tree[E]
	parent *Node[E]
	log    []E
	dead   atomic.Bool // abandoned by its parent
	clock  spanClock   // Measure
}

// Child returns a new node for a child call of n, to be run as a Task.
func (n *Node[E]) Child() *Node[E] { return &Node[E]{tree: n.tree, parent: n} }

// Root reports whether n is the root: its entries go to the sink.
func (n *Node[E]) Root() bool { return n.parent == nil }

// Tree returns the search n belongs to.
func (n *Node[E]) Tree() *Tree[E] { return n.tree }

// Put adds e to what n's calls did, after everything before: the root hands
// it to the sink (true: the search stops, and once stopped the root takes
// nothing more), any other node appends it to its log for its parent to
// commit. It returns true if the search must stop.
func (n *Node[E]) Put(e E) bool {
	if n.parent != nil {
		n.log = append(n.log, e)
		return false
	}
	t := n.tree
	if t.halted.Load() {
		return true
	}
	if t.sink(e) {
		t.halted.Store(true)
		return true
	}
	return false
}

// Commit takes over the log of k, a finished child of n whose work comes
// next in depth-first order: it calls each on the entries in order, which
// decides what becomes of them (typically n.Put, or consuming an entry
// addressed to n). It stops at the first true from each and returns it.
func (n *Node[E]) Commit(k *Node[E], each func(E) bool) bool {
	log := k.log
	k.log = nil
	for _, e := range log {
		if each(e) {
			return true
		}
	}
	return false
}

// Done reports whether the work of n's calls is no longer wanted: the
// search stopped, or n or a node around it was abandoned (Task.Abandon).
func (n *Node[E]) Done() bool {
	if n.tree.halted.Load() {
		return true
	}
	for k := n; k != nil; k = k.parent {
		if k.dead.Load() {
			return true
		}
	}
	return false
}

// Task is a child call running in a node of its own (Tree.Go).
type Task[E any] struct {
	node  *Node[E]
	fn    func() bool
	state atomic.Int32  // taskQueued, taskRunning, taskDone
	stop  bool          // what the call returned, once taskDone
	start time.Duration // Measure: the span at the offer
}

const (
	taskQueued int32 = iota
	taskRunning
	taskDone
)

// Go runs fn, the call of the child node k: if spawned (the caller saw a
// free worker with TrySlot) it offers the call to the other workers and
// returns at once, else it runs it at once on the caller's goroutine. An
// offered call that no worker has taken when its caller waits for it runs
// then, on the caller's (Task.Wait). fn returns true if the search must
// stop.
func (t *Tree[E]) Go(k *Node[E], spawned bool, fn func() bool) *Task[E] {
	task := &Task[E]{node: k, fn: fn}
	t.advance(k.parent)
	if !spawned || t.workers == 1 {
		task.state.Store(taskRunning)
		t.resume(k, k.parent.clock.span)
		task.stop = fn()
		t.advance(k)
		t.resume(k.parent, k.clock.span)
		task.state.Store(taskDone)
		return task
	}
	task.start = k.parent.clock.span
	t.sched.offer(task)
	return task
}

// Node returns the task's node.
func (k *Task[E]) Node() *Node[E] { return k.node }

// Finished reports whether the call returned.
func (k *Task[E]) Finished() bool { return k.state.Load() == taskDone }

// Wait waits for the call to return and returns what it returned. If no
// worker has taken the call yet, the caller runs it; while another worker
// runs it, the caller runs calls offered meanwhile, so that it is not
// idle.
func (k *Task[E]) Wait() bool {
	t := k.node.tree
	if k.state.Load() != taskDone {
		t.sched.wait(t, k)
	}
	t.join(k.node.parent, k.node)
	return k.stop
}

// Stopped returns what the finished call returned: true if the search
// must stop.
func (k *Task[E]) Stopped() bool { return k.stop }

// Abandon tells the task's calls that their work is no longer wanted
// (Node.Done); its log is never committed.
func (k *Task[E]) Abandon() { k.node.dead.Store(true) }
