package predict

// This file checks that the long loops of a prediction look at their
// context (issue 13, case 5: `predict --window 0` ignored --timeout and
// Ctrl-C on long traces): each phase, given a context that is already
// done, stops early, and a whole prediction whose context ends while it
// reads the trace stops there with an incomplete result. No timing is
// asserted: a context that is done is the test.

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mcr/program/tracefile"
)

// countdown is a context that is done from its n-th look on (Err), so a
// test can end a prediction inside a phase without a clock.
type countdown struct {
	context.Context
	left atomic.Int64
	once sync.Once
	done chan struct{}
}

func newCountdown(n int64) *countdown {
	c := &countdown{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

func (c *countdown) Err() error {
	if c.left.Add(-1) >= 0 {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}

func (c *countdown) Done() <-chan struct{} { return c.done }

// synthTrace writes a random STD trace of n events with 4 threads, few
// variables (many conflicting pairs) and a lock.
func synthTrace(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "synthetic.std")
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(fh)
	if err := tracefile.Synthetic(w, tracefile.SynthConfig{Format: tracefile.FormatSTD, Events: n, Threads: 4, Vars: 4, Locks: 1, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStopWhileReading: a context that ends while the only window (--window
// 0) is read stops the reading; the events read so far are counted and the
// result is incomplete. The reader used to read the whole trace first.
func TestStopWhileReading(t *testing.T) {
	const n = 60000
	path := synthTrace(t, n)
	for _, window := range []int{0, 40000} {
		res, err := File(newCountdown(3), path, tracefile.Options{}, Options{Decider: "explicit", Workers: 1, Window: window})
		if err != nil {
			t.Fatal(err)
		}
		if s := res.Stats; s.Complete || !strings.Contains(s.Stopped, "interrupted") || s.Events >= n/2 || s.Windows != 0 {
			t.Errorf("window %d: complete %v (%s), %d of %d events read, %d windows analysed", window, s.Complete, s.Stopped, s.Events, n, s.Windows)
		}
	}
}

// TestStopPhases gives each long loop of one window a context that is
// done and checks that it stops early.
func TestStopPhases(t *testing.T) {
	path := synthTrace(t, 30000)
	bg := context.Background()
	done, cancel := context.WithCancel(bg)
	cancel()
	r, err := tracefile.Open(path, tracefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st := newStream(&fileSource{r: r, name: path, names: r.LocNames()}, true, 0, 0, nil)
	w, err := st.next(bg)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.t.Events) < 4*pollEvery {
		t.Fatalf("window of %d events: too small to test", len(w.t.Events))
	}

	// The window's tables.
	if w2 := (&window{t: w.t, values: w.values, global: w.global}); w2.prepare(done) {
		t.Errorf("prepare ignored its context")
	}

	// The sweep: the first pollEvery events at most.
	k := newKnowledge(w)
	all := w.sweep(bg, k)
	if part := w.sweep(done, newKnowledge(w)); part >= all {
		t.Errorf("sweep: %d pairs with a done context, %d without", part, all)
	}

	// Candidate enumeration over the busiest location.
	var busiest []int32
	for _, acc := range w.locs {
		if len(acc) > len(busiest) {
			busiest = acc
		}
	}
	var pr, prDone pruning
	var total int
	for gen := (&pairGen{acc: busiest, d: 1}); ; {
		out, more := w.candidates(bg, gen, nil, 1<<30, &pr)
		total += len(out)
		if !more {
			break
		}
	}
	out, more := w.candidates(done, &pairGen{acc: busiest, d: 1}, nil, 1<<30, &prDone)
	if !more || prDone.pairs >= pr.pairs || len(out) >= total {
		t.Errorf("candidates: %d pairs looked at (%d candidates, more %v) with a done context, %d (%d) without", prDone.pairs, len(out), more, pr.pairs, total)
	}

	// Witness checks and trimming of the longest schedule the sweep found.
	var g *group
	for _, x := range k.groups {
		if g == nil || x.proof.length() > g.proof.length() {
			g = x
		}
	}
	if g == nil || g.proof.length() < 2*pollEvery {
		t.Fatalf("no long witness found by the sweep")
	}
	sched := g.proof.schedule(g.best)
	if _, err := checkWitness(bg, w.t, w.ids(sched), g.best); err != nil {
		t.Fatalf("the sweep's witness: %v", err)
	}
	if _, err := checkWitness(done, w.t, w.ids(sched), g.best); !stopped(done, err) {
		t.Errorf("checkWitness with a done context: %v", err)
	}
	if _, ok := w.trim(bg, sched, g.best); !ok {
		t.Errorf("trim stopped without reason")
	}
	if _, ok := w.trim(done, sched, g.best); ok {
		t.Errorf("trim ignored its context")
	}

	// The greedy schedule of a pair with a long cone.
	var sc scratch
	tried := 0
	for _, x := range k.groups {
		a, b := x.best.race[0], x.best.race[1]
		if s, ok := w.greedy(bg, &sc, a, b); !ok || len(s) < 2*pollEvery {
			continue
		}
		tried++
		if _, ok := w.greedy(done, &sc, a, b); ok {
			t.Errorf("greedy ignored its context on (%d, %d)", a, b)
		}
		if tried == 3 {
			break
		}
	}
	if tried == 0 {
		t.Errorf("no pair with a long greedy schedule")
	}
}

// TestInterruptedReport: once interrupted, a window still reports the
// races found so far (their witnesses are checked for graceReport), and
// none once the grace is over.
func TestInterruptedReport(t *testing.T) {
	defer func(g time.Duration) { graceReport = g }(graceReport)
	path := synthTrace(t, 3000)
	for _, grace := range []time.Duration{time.Hour, 0} {
		graceReport = grace
		r, err := tracefile.Open(path, tracefile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := newStream(&fileSource{r: r, name: path, names: r.LocNames()}, true, 0, 0, nil)
		w, err := st.next(context.Background())
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		k := newKnowledge(w)
		if w.sweep(context.Background(), k) == 0 {
			t.Fatal("the sweep found no race")
		}
		d := &driver{tally: &tally{stats: &Stats{}, phases: phaseTimer{}, solver: map[string]*SolverStats{}},
			races: map[[2]Site]*Race{}, threads: map[[2]Site]map[string]bool{}, nulls: map[Site]*NullDeref{}, later: map[Site]bool{},
			unresolved: map[[2]Site]bool{}}
		done, cancel := context.WithCancel(context.Background())
		cancel()
		d.collect(done, w, k)
		if d.graceCancel != nil {
			d.graceCancel()
		}
		found := 0
		for _, g := range k.groups {
			if g.found() {
				found++
			}
		}
		switch {
		case grace > 0 && len(d.races) != found:
			t.Errorf("grace %v: %d races reported of %d found", grace, len(d.races), found)
		case grace == 0 && len(d.races) != 0:
			t.Errorf("no grace: %d races reported", len(d.races))
		}
		if d.tally.stats.Invalid != 0 {
			t.Errorf("grace %v: %d invalid witnesses: %v", grace, d.tally.stats.Invalid, d.tally.dis)
		}
	}
}
