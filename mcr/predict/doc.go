// Package predict reports the data races and null dereferences that some
// feasible reordering of one recorded trace exhibits: predictive analysis
// over the maximal causal model (MCM) of 001_aa53da3bf10d3f4e.txt Sections
// 3.2-3.3, the analysis of `mcr predict` (DESIGN.md, use 2).
//
// A race is a pair of conflicting accesses (same location, different
// threads, at least one write, not both atomic) that are both enabled at the
// end of a feasible prefix of a reordering in which every executed read
// returns its traced value (Φ_sync ∧ O_a = O_b ∧ Φ_rw(a) ∧ Φ_rw(b)). A null
// dereference is a read marked program.Deref whose traced value is non-zero
// and that can read 0 (Φ_sync ∧ Φ_rw(r) ∧ value(r) = NULL). Every report
// carries a witness schedule that an independent checker (witness.go) has
// replayed over the trace's events.
//
// # Use
//
//	res, err := predict.File(ctx, "bufwriter.std", tracefile.Options{}, predict.Options{Decider: "z3"})
//
// File streams the trace window by window; Trace runs on a trace in memory.
//
// # Decisions
//
//   - Values. Traces with values (the value format, JSON) use value-based
//     data validity: a read may read any write of its traced value. STD
//     traces record no values; there every write gets a unique synthetic
//     value (1 + its event number in the file; 0 is the initial value) and
//     every read the value of the write it reads from in the trace
//     (program.RF), which turns value-based validity into reads-from
//     preservation. Options.ReadsFrom forces that mode on any trace.
//     Initial values: the value of the last write before the window, else
//     the value the location's first read returns, else 0.
//   - Location pairs. Races are grouped by the pair of sites of their two
//     events: the source position (Pos: the LOC field of STD, line and
//     column of JSON traces from mcr) when it is known, else the variable
//     (the value format records no position, so there a "location pair" is
//     the variable). One witness per pair is reported.
//   - Racy events. Per location pair, the events that race with some event
//     of the pair, and those that race with an earlier one (RAPID's count,
//     as in shared/data/README.md). Counting does not ask one query per
//     pair: a pair is looked at only while one of its events is not yet
//     known to race (the later one: with an earlier event); pairs are tried
//     closest first; sound shortcuts settle most pairs without a decider
//     (co-enabled pairs along the trace and along every witness, sweep.go;
//     must-order, trace-order and greedy schedules over the pair's cone,
//     cone.go); and decider queries per location pair are capped
//     (Options.MaxQueries before its witness, Options.CountQueries after),
//     after which its counts are lower bounds (Race.AtLeast).
//   - Windows. Like RVPredict, the trace is cut into consecutive windows of
//     Options.Window events (a rest of at most half a window joins the
//     last one, so a trace of up to 1.5 windows is analysed whole; the
//     stream reads that far ahead), each analysed as a trace of its own whose
//     initial memory is the memory before it; threads forked earlier start
//     at once, threads joined earlier are over, and a lock held at the
//     window's start is modelled by a synthetic write after its release
//     and a synthetic read before every other thread's acquire of it, so
//     that no reordering takes the lock before it is released (window.go).
//     Windows overlap: each analyses again the last Options.Overlap events
//     of the one before (default half a window), whose pairs among
//     themselves it leaves to that window and whose racy events it does
//     not count twice (overlap.go). Pairs further apart, in no common
//     window, are found while reading against a bounded summary of the
//     accesses that left every window (boundary.go): unless
//     must-happen-before or a common lock rules them out they make their
//     location pair's counts lower bounds, and the result incomplete if
//     no window finds that location pair a witness. Memory is that of one
//     window plus per-location and per-thread tables and the findings.
//   - Queries. A query goes to the decider with the sub-trace of the
//     events a witness can use (subtrace.go: the targets' causal cone,
//     closed under the writes reads may read from and the releases of
//     started critical sections); every witness of the window has a
//     restriction to it, so nothing is lost. Sub-traces above
//     Options.MaxQueryEvents are not asked (the encodings grow
//     quadratically and Z3 can run out of memory on them), running
//     queries are stopped when the Go heap plus Z3's memory exceeds
//     Options.QueryMemory (memguard.go), and a Z3 query that uses more than
//     Options.QueryRlimit resource units gives up; such pairs stay
//     undecided, counted per decider and reason (SolverStats.Reasons), and
//     the result says why it is incomplete.
//   - Trace checks. A trace must be an execution: locks taken only when
//     free and released by their holder (nested acquires of a held lock
//     are dropped: Java monitors are reentrant), no event of a joined
//     thread, no event of a thread before its fork and no second fork of
//     it, forks and joins of existing threads other than their own, reads
//     returning the value last written (value mode). Bad traces are an
//     *InputError naming the line (or event number).
//   - Interruption. A timeout or cancellation of the context stops every
//     long loop within a few thousand iterations (poll.go): reading a
//     window, its tables, the sweep, candidate enumeration, the per-pair
//     shortcuts, witness checks; decider queries get the context too. The
//     result is then incomplete; its statistics count what was read and
//     decided, and the window being analysed still reports the races it
//     found whose witnesses can be checked within graceReport.
//
// # Files
//
//	options.go    Options, the decider registry
//	result.go     Result, Race, NullDeref, Step, Witness, Stats
//	stream.go     reading and checking events, cutting windows
//	window.go     one window as a program.Trace with its tables
//	boundary.go   far pairs: accesses in no common window
//	overlap.go    counting over overlapping windows, settling far pairs
//	forced.go     the forced order as vector clocks (the cheap must-order test)
//	candidates.go conflicting pairs, MHB and lockset pruning
//	knowledge.go  what is known per location pair (racy events, witnesses)
//	sweep.go      co-enabled pairs along the trace and along witnesses
//	cone.go       the per-pair shortcuts: must order, trace order, greedy
//	subtrace.go   the sub-trace a query needs
//	decide.go     asking the deciders, cross-checking, validating
//	memguard.go   stopping queries when Go heap + Z3 exceed Options.QueryMemory
//	poll.go       the cheap context check of long loops
//	witness.go    the independent witness checker and schedule trimming
//	nullderef.go  null-dereference prediction
//	predict.go    the driver
package predict
