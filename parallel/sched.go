package parallel

// The workers of a Tree and the tasks offered to them (Tree.Go): a
// help-first work-stealing scheme with one shared queue.
//
// A call that sees a free worker (Tree.TrySlot) offers its child task and
// goes on at once; an idle worker takes the oldest offered task (the one
// nearest the root, so usually the largest). Whoever waits for a task
// (Task.Wait) runs it itself if no worker took it yet, and while another
// worker runs it, runs offered tasks meanwhile instead of idling. Before,
// a task was a goroutine started when it was offered, and its caller often
// had to wait for that goroutine to be scheduled when it needed the result:
// on a loaded machine rvf's tasks on lastzero (N=11) started 1 ms after
// the offer on average, when half of them ran for less than 60 µs
// (issue 17).
//
// A waiter that runs another task returns to its own caller only when that
// task ends, even if the one it waits for ended before. No wait can close
// a cycle: a call waits only for its children, and a task run by a waiter
// starts after every call below it on the waiter's stack, so every wait is
// for a call that started later.

import (
	"sync"
	"sync/atomic"
	"time"
)

// sched is the scheduling state of a Tree with more than one worker.
type sched[E any] struct {
	mu       sync.Mutex
	cond     sync.Cond    // on mu: a task offered or done, or the root call returned
	queue    []*Task[E]   // offered tasks, oldest first (some taken by their callers meanwhile)
	busy     atomic.Int32 // goroutines running calls (not waiting for a task)
	queued   atomic.Int32 // offered tasks nobody took yet
	sleeping int          // goroutines in cond.Wait
	closed   bool         // the root call returned
	wg       sync.WaitGroup
	began    time.Time
	stats    Stats // under mu
}

// Stats is what the workers of a search did (Tree.Stats), to tune how
// callers offer tasks.
type Stats struct {
	Workers int
	// Offered counts the tasks offered (Tree.Go with spawned); OwnRun those
	// their callers ran themselves because no worker took them in time.
	Offered, OwnRun int64
	// Helped counts the tasks a caller waiting for another task ran.
	Helped int64
	// Idle is the time the workers had nothing to run, summed over the
	// workers; Wall is the time of Run. 1 - Idle/(Workers·Wall) is the
	// part of the workers' time spent running calls.
	Idle, Wall time.Duration
	// Work and Span are the CPU time of every call and the longest chain
	// of it that had to run in order (span.go; zero unless measured).
	Work, Span time.Duration
}

func (s *sched[E]) start(t *Tree[E]) {
	s.began = time.Now()
	if t.workers == 1 {
		return
	}
	s.cond.L = &s.mu
	s.busy.Store(1) // the root call
	for range t.workers - 1 {
		s.wg.Go(func() {
			defer t.lockThread()()
			s.work(t, nil)
		})
	}
}

// finish ends the search once the root call has returned: the workers run
// what is left (tasks of abandoned nodes, which end at once) and exit.
func (s *sched[E]) finish(t *Tree[E]) {
	if t.workers > 1 {
		s.mu.Lock()
		s.closed = true
		s.cond.Broadcast()
		s.mu.Unlock()
		s.busy.Add(-1)
		s.work(t, nil)
		s.wg.Wait()
	}
	s.stats.Workers = t.workers
	s.stats.Wall = time.Since(s.began)
}

// free reports whether a worker looks free for one more offered task.
func (s *sched[E]) free(workers int) bool {
	return int(s.busy.Load()+s.queued.Load()) < workers
}

// offer queues task for the first worker free.
func (s *sched[E]) offer(task *Task[E]) {
	s.mu.Lock()
	s.queue = append(s.queue, task)
	s.queued.Add(1)
	s.stats.Offered++
	if s.sleeping > 0 {
		s.cond.Signal()
	}
	s.mu.Unlock()
}

// wait returns when task k is done: it runs k if nobody took it, else it
// runs offered tasks until k is done.
func (s *sched[E]) wait(t *Tree[E], k *Task[E]) {
	p := k.node.parent
	t.advance(p)
	defer t.resume(p, p.clock.span) // what ran meanwhile is not p's
	if k.state.CompareAndSwap(taskQueued, taskRunning) {
		s.queued.Add(-1)
		s.mu.Lock()
		s.stats.OwnRun++
		s.mu.Unlock()
		s.run(t, k)
		return
	}
	s.busy.Add(-1)
	s.work(t, k)
	s.busy.Add(1)
}

// work runs offered tasks until awaited is done or, for a worker (awaited
// nil), until the root call has returned and no task is left.
func (s *sched[E]) work(t *Tree[E], awaited *Task[E]) {
	for {
		task := s.next(awaited)
		if task == nil {
			return
		}
		s.busy.Add(1)
		s.run(t, task)
		s.busy.Add(-1)
	}
}

// next takes the oldest offered task for the caller, sleeping until there
// is one; it returns nil when the caller is to stop (see work).
func (s *sched[E]) next(awaited *Task[E]) *Task[E] {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if awaited != nil && awaited.state.Load() == taskDone {
			if len(s.queue) > 0 && s.sleeping > 0 {
				s.cond.Signal() // the wake-up of an offer may have been this one
			}
			return nil
		}
		for len(s.queue) > 0 {
			task := s.queue[0]
			s.queue[0] = nil
			s.queue = s.queue[1:]
			if task.state.CompareAndSwap(taskQueued, taskRunning) {
				s.queued.Add(-1)
				if awaited != nil {
					s.stats.Helped++
				}
				return task
			}
		}
		if awaited == nil && s.closed {
			return nil
		}
		s.sleeping++
		t0 := time.Now()
		s.cond.Wait()
		s.stats.Idle += time.Since(t0)
		s.sleeping--
	}
}

// run runs the taken task; a panic in it stops the search, and Run raises
// it again at the end.
func (s *sched[E]) run(t *Tree[E], task *Task[E]) {
	t.resume(task.node, task.start)
	t.panics.Try(func() { task.stop = task.fn() })
	t.advance(task.node)
	if t.panics.Recovered() != nil {
		t.halted.Store(true)
	}
	task.fn = nil
	task.state.Store(taskDone)
	s.mu.Lock()
	if s.sleeping > 0 {
		s.cond.Broadcast() // its caller may be among the sleepers
	}
	s.mu.Unlock()
}

// Stats returns what the workers did; it is complete once Run returned.
func (t *Tree[E]) Stats() Stats {
	t.sched.mu.Lock()
	defer t.sched.mu.Unlock()
	return t.sched.stats
}
