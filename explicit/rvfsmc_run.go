package explicit

// This file implements how the calls of RVF-SMC (rvfsmc.go, seed 000
// Algorithm 2) get the execution of their σ: a run from the start
// (runSchedule), a copy of the parent's (cloneOf, auxLater), the extension
// of line 1 (extendNoReads), and the CAS expected values a run tells
// (learnCASArgs).

import (
	"mcr/program"
)

// learnCASArgs fills in the expected value (Arg) of the pending CAS reads
// of mutate, which the executor only tells once a CAS runs: it runs them
// on x, which is no longer needed, one after the other, running sigma
// (the schedule of σ̃) again whenever one ended the execution.
//
// An execution that tells them while pending (program.PendingArgs) is not
// run (casrot N=9: 30,000 of 38,486 replays were children that could not
// go on from x because of it); under explore.Options.Validate it is, and
// an expected value that differs from the pending one counts as a replay
// error.
func (s *rvfSMC) learnCASArgs(x program.Execution, sigma program.Schedule, mutate []program.Event) (ran bool) {
	pa, told := x.(program.PendingArgs)
	told = told && pa.PendingArgs()
	if told && !s.cfg.validate {
		return false
	}
	for i := range mutate {
		r := &mutate[i]
		if r.Kind != program.Read || !r.Is(program.CAS) {
			continue
		}
		if over, _ := x.Done(); over {
			var err error
			if x, _, err = runSchedule(s.p, sigma); err != nil {
				s.sink.Extra("replay_errors", 1)
				return true
			}
		}
		x.Step(r.Thread)
		ran = true
		evs := x.Trace().Events
		for j := len(evs) - 1; j >= 0 && j >= len(evs)-2; j-- {
			if evs[j].ID() == r.ID() {
				if told && r.Arg != evs[j].Arg {
					s.sink.Extra("replay_errors", 1)
				}
				r.Arg = evs[j].Arg
			}
		}
	}
	return ran
}

// auxLater reports whether a copy of the execution of σ̃ may serve one of
// the reads of mutate, which the loop of line 13 may still mutate: one of
// them may take the active write of its location (C does not forbid it),
// whose child goes on from σ̃∘r. A copy costs about a quarter of a run of
// σ̃ (lastzero N=11), and is made even when the loop may stop before
// those reads (lines 15-16): on fib_bench (N=4) that saves more runs than
// the copies cost.
func auxLater(tr *program.Trace, mutate []program.Event, C rvfCausal) bool {
	for i := range mutate {
		forbid := C[mutate[i].ID()]
		a := activeOf(tr, &mutate[i])
		if a == program.InitID && forbid == nil || a != program.InitID && !(int(a.Thread) < len(forbid) && a.Index < forbid[a.Thread]) {
			return true
		}
	}
	return false
}

// cloneOf returns a copy of x (program.Cloner), nil if x cannot copy
// itself.
func cloneOf(x program.Execution) program.Execution {
	if c, ok := x.(program.Cloner); ok {
		if y := c.Clone(); y != nil {
			return y
		}
	}
	return nil
}

// runSchedule starts an execution of p and follows sched exactly (the
// write half of an RMW runs with its read and may be left out); it returns
// the execution, stopped right after sched (or where the execution ended,
// if a read of sched made it fail), and the number of events it executed.
// Unlike program.Replay it does not continue.
func runSchedule(p program.Program, sched program.Schedule) (program.Execution, int, error) {
	x := p.Start()
	if err := follow(x, sched, 0, len(sched)); err != nil {
		return x, 0, err
	}
	return x, len(x.Trace().Events), nil
}

// extendNoReads runs x on, lowest thread first, as long as some thread's
// next event is enabled and is not a read or an acquire.
//
// After a write, fence, release or fork of thread t, the next such thread
// is t or a higher one: the lower ones were not, and under SC only the end
// of a thread (a join it enables) makes a lower one so (a release turns a
// failing trylock into an acquire, a fork makes a higher thread). So the
// search goes on from t then, and starts again from 0 only after other
// events: O(threads) per step was a twentieth of rvf's time on indexer.c.
func extendNoReads(x program.Execution) {
	from := 0
	for {
		if over, _ := x.Done(); over {
			return
		}
		stepped := false
		for t := from; t < x.Threads(); t++ {
			if e, st := x.Pending(program.ThreadID(t)); st == program.Enabled && !readLike(&e) {
				x.Step(program.ThreadID(t))
				stepped = true
				switch e.Kind {
				case program.Write, program.Fence, program.Release, program.Fork:
					from = t
				default:
					from = 0
				}
				break
			}
		}
		if !stepped {
			return
		}
	}
}
