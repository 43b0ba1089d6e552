// Package explicit holds the explicit (non-SMT) consistency deciders of mcr:
// the polynomial-for-fixed-threads algorithms of the seed papers, a naive
// baseline, and the explicit answer to MCR seed queries. Every decider
// implements program.Decider on program.Instance (see program/INSTANCES.md)
// and its answers are meant to pass through program.CheckedDecide, which
// validates every witness.
//
// Use Deciders (registry.go) to list them, Lookup to pick one by name:
//
//	info, _ := explicit.Lookup("verifysc")
//	w, ok, err := program.CheckedDecide(ctx, info.New(), inst)
//
// k is the number of threads, n of events, d of locations.
//
//	decider     file(s)                          SC  TSO PSO  constraint  time
//	verifysc    verifysc.go, closure.go          x            rf, good    O(n^(k+1) k^(d+1))          seed 000 Alg. 1, Thm 1
//	getwitness  saturation.go, getwitness.go     x            rf          P-I, P-II polynomial;       seed 002 Sec. 5, Alg. 2, 3
//	                                                                      P-III O(k n^(k+1))
//	verifytso   verifytso.go, closure.go             x        rf          O(k n^(k+1))                seed 004 Alg. 1, Thm 3.1
//	verifypso   verifypso.go, closure.go                 x    rf          O(k n^(k+1) min(n^(k(k-1)), seed 004 Alg. 2, Thm 3.2
//	                                                                      2^(kd))); exact states
//	                                                                      with RMW pairs
//	naive       naive.go                         x   x   x    rf, good    SC n^k k^d, TSO n^(2k) k^d,  baseline (seed 004 Sec. 3)
//	                                                                      PSO n^(k(d+1)) k^d
//	Seeder      seedsearch.go                    x            seed query  O(n^k |values|^d)            DESIGN.md, seed 000 Alg. 1
//
// Three exploration algorithms (program.Program -> explore.Result) build on them:
//
//	algorithm   file(s)                          decider used           explores                        source
//	rf          rfsmc.go, rfsmc_guide.go         getwitness (+ fast     one execution per reads-from    seed 002 Alg. 1, Sec. 7
//	                                             path)                  class (locks included)
//	rvf         rvfsmc.go                        verifysc, guided by    at most one per reads-value-    seed 000 Alg. 2, App. A
//	                                             the auxiliary trace    from class (RVF)
//	vc          vcdpor.go, apo/                  apo.Closure (seed 003  one per value-happens-before     seed 003 Alg. 5-7
//	                                             Alg. 1-4), Realize     class; no mutexes, RMW, CAS
//
// Closure (closure.go: seed 000 Sec. 4.2, seed 004 Sec. 4.3) is polynomial
// in n whatever k and d; it rejects some unrealizable instances at once and
// restricts the searches to orders every witness has. The ablation switches
// (VerifySC.NoGreedy, NoClosure, NoGuide; VerifyTSO/VerifyPSO.NoClosure;
// GetWitness.NoConstruct) exist for tests and benchmarks.
//
// Extensions beyond the papers, each documented in its file: locks without
// a reads-from constraint (VerifySC, naive), RMW/CAS pairs under TSO and
// PSO, fork/join, and the draining events of INSTANCES.md. Deciders check
// their context every few thousand states (and once per closure pass) and
// return its error when it is done.
package explicit
