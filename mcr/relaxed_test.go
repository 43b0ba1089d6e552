package mcr_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"mcr/explicit"
	"mcr/mcr"
	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
	"mcr/program/randprog/randtest"
)

// replayRaces checks that every race finding of res replays under p: its
// schedule runs, each step enabled when it comes.
func replayRaces(t *testing.T, label string, p program.Program, res *explore.Result) {
	t.Helper()
	for _, f := range res.Findings {
		if f.Kind != explore.KindRace {
			continue
		}
		if _, err := program.Replay(randtest.Fresh(p), f.Schedule); err != nil {
			t.Errorf("%s: race %s does not replay: %v", label, f.Message, err)
		}
	}
}

// relaxedAgainstDFS runs dfs, rf and mcr (on the deciders named) on src
// under m and checks that mcr is complete, reaches dfs's outcomes and
// finding kinds, runs exactly as many executions as rf (one per
// reads-from class dfs sees) and that its deciders agreed. It returns
// false if dfs was cut by limit (nothing compared).
func relaxedAgainstDFS(t *testing.T, name, src string, opts0 cfront.Options, m program.MemoryModel, limit int, decider string) bool {
	t.Helper()
	load := func() *cfront.Program { return randtest.LoadModelWith(t, name, src, opts0, m) }
	d, _ := randtest.DFS(load(), limit, explore.Options{KeepGoing: true})
	if d.Stats.Stopped != "" {
		return false
	}
	opts := explore.Options{KeepGoing: true, Validate: true}
	rf := explicit.RFSMCRelaxed(context.Background(), load(), opts, m)
	res := mcr.MCR.Run(context.Background(), load(), opts, explore.Config{Model: m, Decider: decider, Workers: 1})
	label := fmt.Sprintf("%s %v under %s (decider %s)", name, opts0.Defines, m, decider)
	s := res.Stats
	if s.Stopped != "" || s.Complete != d.Stats.Complete || (s.Bounded > 0) != (d.Stats.Bounded > 0) {
		t.Errorf("%s: mcr complete %v, %d bounded (%s), dfs complete %v, %d bounded", label, s.Complete, s.Bounded, s.Stopped, d.Stats.Complete, d.Stats.Bounded)
		return true
	}
	if s.Outcomes != d.Stats.Outcomes || !reflect.DeepEqual(res.FindingKeys(), d.FindingKeys()) {
		t.Errorf("%s: mcr %d outcomes %v, dfs %d outcomes %v", label, s.Outcomes, res.FindingKeys(), d.Stats.Outcomes, d.FindingKeys())
	}
	if !reflect.DeepEqual(rf.FindingKeys(), d.FindingKeys()) {
		t.Errorf("%s: rf finds %v, dfs %v", label, rf.FindingKeys(), d.FindingKeys())
	}
	replayRaces(t, label, load(), res)
	// blocked executions are classes of their own (explore.Stats); dfs's
	// classes leave failed trylocks out (program.RFKey), rf's tell them
	// apart by the acquire holding the lock (explicit's classKey checks
	// rf there), and with trylocks rf and mcr may explore a class twice
	// (rfsmc.go, "Known limits")
	dc := d.Stats.RFClasses + d.Stats.BlockedClasses
	try := rf.Stats.Extra["trylocks"] > 0
	if s.Executions != rf.Stats.Executions || !try && (s.Executions != dc || s.RFClasses+s.BlockedClasses != s.Executions) {
		t.Errorf("%s: mcr %d executions (%d+%d blocked classes), rf %d, dfs sees %d+%d blocked reads-from classes", label, s.Executions, s.RFClasses, s.BlockedClasses, rf.Stats.Executions, d.Stats.RFClasses, d.Stats.BlockedClasses)
	}
	if decider == "both" && (s.Extra["crosscheck_disagreements"] != 0 || s.Extra["crosscheck_invalid"] != 0 || s.Extra["crosscheck_queries"] != s.Extra["seed_queries"]+s.Extra["race_queries"]) {
		t.Errorf("%s: deciders: %v", label, s.Extra)
	}
	return true
}

// TestRelaxedTestdata: mcr under TSO and PSO against dfs and rf on the
// litmus tests and seed 004 Table 2 shapes of testdata/c/mm, Z3 and
// VerifyTSO/VerifyPSO compared on every query.
func TestRelaxedTestdata(t *testing.T) {
	needZ3(t)
	for _, c := range randtest.ModelCases(t, "../testdata/c/mm") {
		m := c.Model
		if !c.For("dfs") { // too big for dfs: the expected class count
			p := randtest.LoadModelWith(t, c.File, c.Src, c.Load(), m)
			s := mcr.MCR.Run(context.Background(), p, explore.Options{KeepGoing: true}, explore.Config{Model: m, Decider: "explicit"}).Stats
			if c.RFClasses == nil || s.Executions != *c.RFClasses || s.RFClasses != s.Executions || s.Complete == c.Bounded || s.Stopped != "" {
				t.Errorf("%s: mcr %d executions, %d classes (complete %v %s), want %v", c.Name, s.Executions, s.RFClasses, s.Complete, s.Stopped, c.RFClasses)
			}
			continue
		}
		if !relaxedAgainstDFS(t, c.File, c.Src, c.Load(), m, 200_000, "both") {
			t.Errorf("%s: dfs cut", c.Name)
		}
	}
}

// TestRelaxedRandom: mcr under TSO and PSO against dfs and rf on random
// programs with fences and assertions, on both deciders compared.
// MCR_RELAXED_RANDOM sets the number of programs (default 4: about 2 s of
// CPU); the sweep in the README ran 500.
func TestRelaxedRandom(t *testing.T) {
	needZ3(t)
	n := randtest.Count("MCR_RELAXED_RANDOM", 4, 4)
	o := randprog.Options{Threads: 2, Ops: 3, Globals: 2, Asserts: true, Fences: true, Mutex: true}
	// 422: under PSO a read races with the flush of a write its own causal
	// past holds (the race instance's held writes)
	randtest.RelaxedSweep(t, randtest.Seeds(n, 422), o, func(name, src string, m program.MemoryModel) bool {
		return relaxedAgainstDFS(t, name, src, cfront.Options{}, m, 5000, "both")
	})
}

// TestRelaxedRandomRMW: TestRelaxedRandom on programs with atomics
// (atomic_fetch_add, compare-exchanges that succeed or fail) beside the
// fences and the mutex: the read-modify-writes and compare-and-swaps of
// seed 004 Remark 1, Z3 and VerifyTSO/VerifyPSO compared on every query.
// MCR_RELAXED_RANDOM sets the number of programs (default 4).
func TestRelaxedRandomRMW(t *testing.T) {
	needZ3(t)
	n := randtest.Count("MCR_RELAXED_RANDOM", 4, 4)
	o := randprog.Options{Threads: 2, Ops: 3, Globals: 2, Asserts: true, Fences: true, Mutex: true, Atomics: true}
	randtest.RelaxedSweep(t, randtest.Seeds(n), o, func(name, src string, m program.MemoryModel) bool {
		return relaxedAgainstDFS(t, name, src, cfront.Options{}, m, 5000, "both")
	})
}

// TestRelaxedRaces: under TSO and PSO mcr and rf find forward.c's races
// (a read of x against T0's memory-writes of x, as dfs) and their
// schedules replay; without races reported no race query is asked.
func TestRelaxedRaces(t *testing.T) {
	p, err := cfront.Load("../testdata/c/mm/forward.c", cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []program.MemoryModel{program.TSO, program.PSO} {
		q := p.Fresh()
		if err := q.SetModel(m); err != nil {
			t.Fatal(err)
		}
		res := mcr.MCR.Run(context.Background(), q.Fresh(), explore.Options{KeepGoing: true}, explore.Config{Model: m, Decider: "explicit"})
		if !res.Stats.Complete || len(res.Findings) == 0 || res.Findings[0].Kind != explore.KindRace {
			t.Errorf("forward.c under %s: complete %v (%s), findings %v", m, res.Stats.Complete, res.Stats.Stopped, res.FindingKeys())
		}
		replayRaces(t, "forward.c under "+m.String(), q, res)
		res = mcr.MCR.Run(context.Background(), q.Fresh(), explore.Options{KeepGoing: true, Kinds: []string{explore.KindAssertion}}, explore.Config{Model: m, Decider: "explicit"})
		if res.Stats.Extra["race_queries"] != 0 {
			t.Errorf("forward.c under %s: race queries asked though races are not reported", m)
		}
	}
}

// TestRelaxedBlocking: mcr under TSO and PSO against dfs and rf on the
// blocking programs of testdata/c (failed assumes, a condition wait, a
// barrier, lock waits at the end; explicit's TestRFRelaxedBlocking runs rf
// on all of randtest.BlockingFiles), Z3 and VerifyTSO/VerifyPSO compared
// on every query. MCR_RELAXED_ALL=1 runs every program of testdata/c that
// dfs finishes within 20,000 executions.
func TestRelaxedBlocking(t *testing.T) {
	needZ3(t)
	for _, f := range randtest.BlockingFiles(t, "../testdata/c", "MCR_RELAXED_ALL",
		"assume_stuck.c", "assume_locked.c", "barrier_short.c", "cond_if.c", "lock_order_deadlock.c") {
		for _, m := range program.Models[1:] {
			if !relaxedAgainstDFS(t, f[0], f[1], cfront.Options{}, m, 20_000, "both") {
				t.Logf("%s under %s: dfs cut, not compared", f[0], m)
			}
		}
	}
}

// TestRelaxedRandomBlocking: TestRelaxedRandom on programs whose
// executions block (awaits, assumes in critical sections, joins between
// threads), and on three-thread programs with the awaits of reader-writer
// locks and semaphores (seeds 18, 74: awaits drain the buffers,
// program.Drain, for Z3 as for VerifyTSO/VerifyPSO). MCR_RELAXED_RANDOM
// sets the number of programs of each kind (default 4).
func TestRelaxedRandomBlocking(t *testing.T) {
	needZ3(t)
	n := randtest.Count("MCR_RELAXED_RANDOM", 4, 4)
	compare := func(name, src string, m program.MemoryModel) bool {
		return relaxedAgainstDFS(t, name, src, cfront.Options{}, m, 5000, "both")
	}
	o := randprog.Options{Threads: 2, Ops: 3, Globals: 2, Asserts: true, Fences: true, Mutex: true, Blocking: true}
	randtest.RelaxedSweep(t, randtest.Seeds(n), o, compare)
	o.Threads, o.Ops, o.Sync = 3, 2, true
	randtest.RelaxedSweep(t, []int64{18, 74}, o, compare)
}

// TestRelaxedRandomTrylock: TestRelaxedRandom on programs whose mutex
// blocks may be trylocks (randprog.TrylockOptions): both outcomes explored
// by mcr as by rf, Z3 and VerifyTSO/VerifyPSO compared on every query,
// failed trylocks included. MCR_RELAXED_RANDOM sets the number of programs
// (default 4).
func TestRelaxedRandomTrylock(t *testing.T) {
	needZ3(t)
	n := randtest.Count("MCR_RELAXED_RANDOM", 4, 4)
	randtest.RelaxedSweep(t, randtest.Seeds(n), randprog.TrylockOptions(), func(name, src string, m program.MemoryModel) bool {
		return relaxedAgainstDFS(t, name, src, cfront.Options{}, m, 5000, "both")
	})
}
