// Package z3 is a small cgo binding to Debian's libz3 (libz3-dev), just large enough to decide the
// integer-difference-logic (QF_IDL) order constraints that mcr's encodings produce: every event e has an
// integer order variable O_e, and the constraints are O_a < O_b, O_a - O_b <= k, equalities, and boolean
// combinations of those. It also has fixed-width bit-vector terms (BVVar, BV, BVBin, BVCompare...), whose
// operations are those of C's integer types, for path conditions over a C program's inputs. A Solver
// decides order constraints as QF_IDL and switches to Z3's default solver when its first assertion has
// bit-vector terms (see Context.NewSolver); one Solver does not take both kinds. Context.NewDLSolver makes a
// solver for order constraints alone that Z3's incremental core decides with its sparse difference-logic
// theory, for formulas that grow between Checks (the lazy seed encoding of mcr/encode); BoolVar gives it
// boolean constants.
//
// It exists because no Go binding of Z3 can be installed here; it is deliberately no more than that. The
// surface is as small as Nidhugg's SatSolver.h, all cgo lives in two files (z3_cgo.go and, for
// bit-vectors, bv_cgo.go), and nothing else in mcr touches C types. Builds without cgo, or with the noz3
// build tag, get a stub (z3_stub.go) with the same API whose NewContext returns ErrNotBuilt and whose
// Available reports false; callers then use the explicit backend.
//
// # Use
//
//	c, err := z3.NewContext() // one per worker goroutine
//	if err != nil { ... }     // ErrNotBuilt without Z3
//	defer c.Close()
//	s, err := c.NewSolver()
//	s.Assert(c.Lt(c.Var(1), c.Var(2)))
//	s.Assert(c.Or(c.Lt(c.Var(2), c.Var(3)), c.Le(c.Var(3), c.Sub(c.Var(1), 4))))
//	res, err := s.Check(ctx, time.Second) // Sat, Unsat or Unknown
//	if res == z3.Sat {
//		m, _ := s.Model()
//		o2, _ := m.Int(c.Var(2))
//	}
//	c.Reset() // next query: release every Term
//	s.Reset()
//
// # Ownership and lifetimes
//
//	value    created by                    valid until                                  released by
//	Context  NewContext                    Close                                        Close (or the GC, as a safety net)
//	Term     Context builders (Var, Lt...) the Context's next Reset or Close           Reset, Close
//	Solver   Context.NewSolver             Solver.Close or Context.Close                Solver.Close, Context.Close
//	Model    Solver.Model after Sat        the Solver's next Assert/Push/Pop/Reset/Check Solver, automatically
//
// The caller never releases a Term or a Model: the Context keeps every Z3 AST it creates in an arena, each
// holding one Z3 reference, and drops them all on Reset or Close; a Solver holds at most one model and drops
// it when the model goes stale. Using a value after its lifetime ended is detected and reported (an
// invalid Term, a false from Model.Int, ErrClosed), never a crash.
//
// # Errors
//
// Z3 errors never abort the process: every Z3 context gets an error handler that records the error code,
// and the binding turns it into a Go error. Term builders return a Term and no error, so that formulas
// compose; when a builder fails (a Z3 sort error, an argument that is the zero Term, a Term of another
// Context or from before a Reset) it returns the zero Term and records the first such error, which
// Context.Err reports and Solver.Assert returns when it is given that zero Term.
//
// # Concurrency
//
// Z3 contexts are not thread-safe. A Context and everything made from it (Terms, Solvers, Models) must be
// used by one goroutine at a time; use one Context per worker. The one exception is cancellation: Check
// watches its context.Context and interrupts Z3 from another goroutine, which Z3 supports.
package z3
