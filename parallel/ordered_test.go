package parallel

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// The tests run a random recursion whose subtrees are not independent, as
// in ReadsFrom-SMC: a call may propose a child to one of its ancestors,
// and the first proposal of a key (in depth-first order) decides the
// label, hence the subtree, of the child it adds. Every call reports its
// visit and its end to the sink. The sequence the sink sees must be the
// same for any number of workers.

// tEntry is an entry of a test log: a visit or end of a call (to < 0), or a
// proposal for the ancestor at depth to.
type tEntry struct {
	label string
	to    int
	key   uint32
}

// tCall is the state of one active call: the keys proposed to it and its
// children, which proposals extend.
type tCall struct {
	seen map[uint32]bool
	kids []string
}

// tCtx is the calls of one node: those at depths base.. on the stack.
type tCtx struct {
	node  *Node[tEntry]
	base  int
	stack []*tCall
}

// tSearch is one random recursion: seed picks the tree, maxDepth bounds it.
type tSearch struct {
	seed     uint64
	maxDepth int
	jitter   bool
	spawned  atomic.Int64 // tasks run on a goroutine of their own
}

func (s *tSearch) hash(label string) uint32 {
	h := fnv.New32a()
	fmt.Fprintf(h, "%d/%s", s.seed, label)
	return h.Sum32()
}

// run runs the search on the given number of workers with the sink
// recording the labels, stopping after stopAt entries if stopAt > 0.
func (s *tSearch) run(workers, stopAt int) []string {
	var got []string
	t := NewTree(workers, func(e tEntry) bool {
		if e.to >= 0 {
			panic("a proposal reached the root")
		}
		got = append(got, e.label)
		return stopAt > 0 && len(got) == stopAt
	})
	t.Run(func(root *Node[tEntry]) { s.call(&tCtx{node: root}, "r", 0) })
	return got
}

func (s *tSearch) call(c *tCtx, label string, depth int) bool {
	if c.node.Done() {
		return true
	}
	if c.node.Put(tEntry{label: "visit " + label, to: -1}) {
		return true
	}
	h := s.hash(label)
	if s.jitter && h%4 == 0 {
		time.Sleep(time.Duration(h%64) * time.Microsecond)
	}
	if depth >= 2 && h%3 == 0 {
		s.propose(c, int(h/3)%depth, (h/7)%3, label)
	}
	me := &tCall{seen: map[uint32]bool{}}
	if depth < s.maxDepth {
		for i := range int(h/11) % 4 {
			me.kids = append(me.kids, label+"/"+strconv.Itoa(i))
		}
	}
	c.stack = append(c.stack, me)
	defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	if s.children(c, me, depth) {
		return true
	}
	return c.node.Put(tEntry{label: "end " + label, to: -1})
}

// propose proposes the child key (from the call label) to the ancestor at
// depth a: directly if that call runs in this node, else through the log.
func (s *tSearch) propose(c *tCtx, a int, key uint32, label string) {
	if a >= c.base {
		c.stack[a-c.base].add(key, label)
		return
	}
	c.node.Put(tEntry{label: label, to: a, key: key})
}

func (m *tCall) add(key uint32, from string) {
	if !m.seen[key] {
		m.seen[key] = true
		m.kids = append(m.kids, from+"+"+strconv.Itoa(int(key)))
	}
}

func (s *tSearch) commit(c *tCtx, k *tCtx) bool {
	return c.node.Commit(k.node, func(e tEntry) bool {
		if e.to >= 0 && e.to >= c.base {
			c.stack[e.to-c.base].add(e.key, e.label)
			return false
		}
		return c.node.Put(e)
	})
}

type tChild struct {
	k *tCtx
	t *Task[tEntry]
}

// children runs the children of me, the call at depth, in order, as the
// explorers do: directly when every child before is committed and no
// worker takes it, else as a task committed in order.
func (s *tSearch) children(c *tCtx, me *tCall, depth int) bool {
	var pending []tChild
	defer func() {
		for _, p := range pending {
			p.t.Abandon()
		}
	}()
	tree := c.node.Tree()
	for i := 0; ; {
		for len(pending) > 0 && pending[0].t.Finished() {
			p := pending[0]
			pending = pending[1:]
			if s.commit(c, p.k) || p.t.Stopped() {
				return true
			}
		}
		if i == len(me.kids) {
			if len(pending) == 0 {
				return false
			}
			pending[0].t.Wait()
			continue
		}
		label := me.kids[i]
		i++
		spawned := tree.TrySlot(func() bool { return i < len(me.kids) })
		if spawned {
			s.spawned.Add(1)
		}
		if !spawned && len(pending) == 0 {
			if s.call(c, label, depth+1) {
				return true
			}
			continue
		}
		k := &tCtx{node: c.node.Child(), base: depth + 1}
		t := tree.Go(k.node, spawned, func() bool { return s.call(k, label, depth+1) })
		pending = append(pending, tChild{k, t})
	}
}

// seqOrder is the sequential (depth-first) order of the test recursion,
// written plainly.
func (s *tSearch) seqOrder() []string {
	var out []string
	var stack []*tCall
	var rec func(label string, depth int)
	rec = func(label string, depth int) {
		out = append(out, "visit "+label)
		h := s.hash(label)
		if depth >= 2 && h%3 == 0 {
			stack[int(h/3)%depth].add((h/7)%3, label)
		}
		me := &tCall{seen: map[uint32]bool{}}
		if depth < s.maxDepth {
			for i := range int(h/11) % 4 {
				me.kids = append(me.kids, label+"/"+strconv.Itoa(i))
			}
		}
		stack = append(stack, me)
		for i := 0; i < len(me.kids); i++ {
			rec(me.kids[i], depth+1)
		}
		stack = stack[:len(stack)-1]
		out = append(out, "end "+label)
	}
	rec("r", 0)
	return out
}

// TestTreeDepthFirstOrder: the sink sees the entries in depth-first order
// for any number of workers, proposals included.
func TestTreeDepthFirstOrder(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		s := &tSearch{seed: seed, maxDepth: 5, jitter: true}
		want := s.seqOrder()
		for _, w := range []int{1, 2, 3, 8} {
			if got := s.run(w, 0); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, %d workers: %d entries, want %d:\n got %v\nwant %v", seed, w, len(got), len(want), got, want)
			}
		}
	}
}

// TestTreeRandom compares 1 worker with 4 on random recursions.
func TestTreeRandom(t *testing.T) {
	n := uint64(60)
	if testing.Short() {
		n = 15
	}
	var entries, spawned int64
	for seed := uint64(100); seed < 100+n; seed++ {
		s := &tSearch{seed: seed, maxDepth: 4 + int(seed%3), jitter: seed%2 == 0}
		one := s.run(1, 0)
		if s.spawned.Load() != 0 {
			t.Fatalf("seed %d: a task spawned with one worker", seed)
		}
		if got := s.run(4, 0); !reflect.DeepEqual(got, one) {
			t.Fatalf("seed %d: 4 workers differ from 1:\n got %v\nwant %v", seed, got, one)
		}
		entries += int64(len(one))
		spawned += s.spawned.Load()
	}
	if spawned == 0 {
		t.Fatal("no task ran on a worker of its own: the test compares nothing")
	}
	t.Logf("%d entries, %d tasks spawned", entries, spawned)
}

// TestTreeStop: a true from the sink stops the search at that entry, on
// any number of workers: the sink sees the same first entries and nothing
// after.
func TestTreeStop(t *testing.T) {
	s := &tSearch{seed: 7, maxDepth: 5, jitter: true}
	all := s.run(1, 0)
	for _, stopAt := range []int{1, 2, len(all) / 3, len(all) - 1} {
		for _, w := range []int{1, 2, 4} {
			if got := s.run(w, stopAt); !reflect.DeepEqual(got, all[:stopAt]) {
				t.Fatalf("stop at %d, %d workers:\n got %v\nwant %v", stopAt, w, got, all[:stopAt])
			}
		}
	}
}

// TestTreeStopReachesTasks: once the sink stops the search, a running task
// sees Done, and Run returns after it.
func TestTreeStopReachesTasks(t *testing.T) {
	finished := make(chan bool)
	go func() {
		tree := NewTree(2, func(int) bool { return true })
		var sawDone atomic.Bool
		tree.Run(func(root *Node[int]) {
			if !tree.TrySlot(nil) {
				t.Error("no free slot for the task")
				return
			}
			k := root.Child()
			tree.Go(k, true, func() bool {
				for !k.Done() {
					runtime.Gosched()
				}
				sawDone.Store(true)
				return true
			})
			if !root.Put(1) || !tree.Halted() {
				t.Error("the sink's true did not stop the search")
			}
			if !root.Put(2) {
				t.Error("the root took an entry after the stop")
			}
		})
		finished <- sawDone.Load()
	}()
	select {
	case saw := <-finished:
		if !saw {
			t.Fatal("Run returned before the task ended")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the task never saw the stop")
	}
}

// TestTreeOneWorkerRunsInline: with one worker no slot is ever free, and a
// task runs at once on the caller's goroutine.
func TestTreeOneWorkerRunsInline(t *testing.T) {
	tree := NewTree(1, func(int) bool { return false })
	tree.Run(func(root *Node[int]) {
		if tree.TrySlot(nil) {
			t.Fatal("a free slot with one worker")
		}
		ran := false
		task := tree.Go(root.Child(), false, func() bool { ran = true; return true })
		if !ran || !task.Finished() || !task.Wait() {
			t.Fatal("an inline task did not run at once")
		}
	})
}

// TestTreeTaskPanic: a panic in a task stops the search and is raised by
// Run.
func TestTreeTaskPanic(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic from Run")
		}
	}()
	tree := NewTree(2, func(int) bool { return false })
	tree.Run(func(root *Node[int]) {
		if tree.TrySlot(nil) {
			task := tree.Go(root.Child(), true, func() bool { panic("boom") })
			task.Wait()
			if !root.Done() {
				t.Error("the search goes on after a panic")
			}
		}
	})
}

// TestTreeWaitRunsUntakenTask: a task no worker took runs on its caller's
// goroutine when the caller waits for it, and counts as run by its caller.
func TestTreeWaitRunsUntakenTask(t *testing.T) {
	tree := NewTree(2, func(int) bool { return false })
	block := make(chan struct{})
	tree.Run(func(root *Node[int]) {
		// Keep the only other worker busy, so that nobody takes the
		// second task.
		busy := tree.Go(root.Child(), true, func() bool { <-block; return false })
		for tree.sched.queued.Load() > 0 {
			runtime.Gosched()
		}
		ran := false
		task := tree.Go(root.Child(), true, func() bool { ran = true; return true })
		if task.Finished() || ran {
			t.Fatal("an offered task ran at once")
		}
		if !task.Wait() || !ran {
			t.Fatal("Wait did not run the task")
		}
		close(block)
		busy.Wait()
	})
	if st := tree.Stats(); st.Offered != 2 || st.OwnRun != 1 {
		t.Fatalf("stats %+v, want 2 offered, 1 run by its caller", st)
	}
}

// TestTreeMeasure: work and span are measured, span at most work, and a
// recursion with independent subtrees has a span below its work.
func TestTreeMeasure(t *testing.T) {
	spin := func(d time.Duration) {
		for t0 := threadCPU(); threadCPU()-t0 < d; {
		}
	}
	for _, w := range []int{1, 2} {
		tree := NewTree(w, func(int) bool { return false })
		tree.Measure(true)
		tree.Run(func(root *Node[int]) {
			var tasks []*Task[int]
			for range 4 {
				k := root.Child()
				tasks = append(tasks, tree.Go(k, tree.TrySlot(nil), func() bool { spin(5 * time.Millisecond); return false }))
			}
			for _, k := range tasks {
				k.Wait()
			}
		})
		st := tree.Stats()
		if st.Work < 15*time.Millisecond || st.Span <= 0 || st.Span > st.Work {
			t.Fatalf("%d workers: %v", w, st)
		}
		if w == 2 && st.Span > st.Work*3/4 {
			t.Fatalf("4 independent tasks offered: span %v of work %v", st.Span, st.Work)
		}
		t.Log(st)
	}
}

// TestTreeRootPanicEndsWorkers: a panic in the root call goes on out of
// Run, and the workers end before it does.
func TestTreeRootPanicEndsWorkers(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("no panic from Run")
			}
		}()
		tree := NewTree(4, func(int) bool { return false })
		tree.Run(func(root *Node[int]) {
			tree.Go(root.Child(), true, func() bool {
				for !root.Done() {
					runtime.Gosched()
				}
				return true
			})
			panic("boom")
		})
	}()
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 100 {
			t.Fatalf("%d goroutines left, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
