package program

// This file implements the one decider abstraction every query kind shares
// (DESIGN.md "Blocking, inputs and registries": one decider abstraction
// over all query kinds, with fall-back and cross-check combinators written
// once; one validator per query kind in program). A query kind is a pair
// of types (the query Q and its answer Ans) with a QueryKind value that
// says whether an answer is satisfiable, validates it independently of
// every decider and describes a query for reports:
//
//	kind          query      answer          validator        deciders
//	InstanceKind  *Instance  InstanceAnswer  ValidateWitness  explicit.VerifySC, ..., encode.Z3Decider
//	SeedKind      SeedQuery  SeedAnswer      CheckSeed        explicit.Seeder, encode.Z3Seeder
//
// (instances: INSTANCES.md and 000_1fb260b9b3a323b2.txt Section 4; seed
// queries: 001_aa53da3bf10d3f4e.txt Sections 3.2-3.4.)
//
// Fallback and Cross combine two deciders of one kind; Checked is the one
// path by which an answer is trusted.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// DeciderOf decides queries of type Q with answers of type Ans. Decide
// returns the answer, or an error when it cannot tell: one wrapping
// ErrUnknown when it gave up (a solver's "unknown", a timeout, a backend
// not built in), ErrUnsupported for a query it does not handle, ctx's
// error when ctx ends first, or another error for a malformed query.
// Callers trust an answer only after Checked (or the kind's Validate).
type DeciderOf[Q, Ans any] interface {
	Name() string
	Decide(ctx context.Context, q Q) (Ans, error)
}

// Decider decides consistency instances (INSTANCES.md); the explicit
// deciders (package explicit) and Z3 (encode.Z3Decider) implement it.
type Decider = DeciderOf[*Instance, InstanceAnswer]

// SeedDecider answers SeedQueries. Z3 (encode.Z3Seeder) and VerifySC's
// witness-state search (explicit.Seeder) implement it.
type SeedDecider = DeciderOf[SeedQuery, SeedAnswer]

// InstanceAnswer is a decider's answer to a consistency instance.
type InstanceAnswer struct {
	// Sat reports whether the instance has a witness.
	Sat bool
	// Witness is one if Sat (with flush steps under TSO/PSO), else nil.
	Witness Witness
}

// NewInstanceAnswer packs the (witness, found, error) triple the searches
// of the deciders return: a witness only if found and err is nil.
func NewInstanceAnswer(w Witness, found bool, err error) (InstanceAnswer, error) {
	if err != nil || !found {
		return InstanceAnswer{}, err
	}
	return InstanceAnswer{Sat: true, Witness: w}, nil
}

// ErrUnknown is wrapped by deciders that could not decide a query (a
// solver's "unknown", a timeout, a backend not built in); Fallback then
// asks its other decider.
var ErrUnknown = errors.New("decider could not decide the query")

// ErrUnsupported is wrapped by deciders given an instance they do not
// handle (memory model, constraint kind or event kind).
var ErrUnsupported = errors.New("unsupported instance")

// QueryKind describes one kind of query to the generic combinators.
type QueryKind[Q, Ans any] struct {
	// Name names the kind ("instance", "seed").
	Name string
	// Sat reports whether an answer claims a witness.
	Sat func(Ans) bool
	// Validate checks a satisfiable answer to q independently of every
	// decider: nil if its witness shows q, else the first violation, or
	// ctx.Err() itself if ctx ends before the check does.
	Validate func(ctx context.Context, q Q, a Ans) error
	// Describe names q in a report ("seed T1#3 := 0 (2 fixed reads)").
	Describe func(q Q) string
}

// InstanceKind is the kind of consistency instances; Validate is
// ValidateWitness.
var InstanceKind = QueryKind[*Instance, InstanceAnswer]{
	Name: "instance",
	Sat:  func(a InstanceAnswer) bool { return a.Sat },
	Validate: func(_ context.Context, inst *Instance, a InstanceAnswer) error {
		return ValidateWitness(inst, a.Witness)
	},
	Describe: func(inst *Instance) string { return fmt.Sprintf("an instance of %d events", len(inst.Events)) },
}

// SeedKind is the kind of MCR seed, race and null-read queries; Validate
// is CheckSeed.
var SeedKind = QueryKind[SeedQuery, SeedAnswer]{
	Name: "seed",
	Sat:  func(a SeedAnswer) bool { return a.Sat },
	Validate: func(ctx context.Context, q SeedQuery, a SeedAnswer) error {
		_, err := CheckSeed(ctx, q, a)
		return err
	},
	Describe: describeSeed,
}

func describeSeed(q SeedQuery) string {
	t := q.Trace
	switch {
	case q.Read >= 0:
		return fmt.Sprintf("seed %s := %d (%d fixed reads)", t.Describe(int(q.Read)), q.Value, len(q.Fixed))
	case q.Race[0] >= 0:
		return fmt.Sprintf("race %s / %s", t.Describe(int(q.Race[0])), t.Describe(int(q.Race[1])))
	}
	return "query"
}

// Checked asks d and passes a satisfiable answer through kind.Validate:
// the one path by which a decider's answer is trusted. Errors: d's; an
// error naming d and the violation when the answer is invalid; ctx's error
// when ctx ends during the check (the answer is then not trusted either).
func Checked[Q, Ans any](ctx context.Context, kind QueryKind[Q, Ans], d DeciderOf[Q, Ans], q Q) (Ans, error) {
	var none Ans
	a, err := d.Decide(ctx, q)
	if err != nil || !kind.Sat(a) {
		return a, err
	}
	if err := kind.Validate(ctx, q, a); err != nil {
		if stoppedBy(ctx, err) {
			return none, err
		}
		return none, fmt.Errorf("%s returned an invalid witness: %w", d.Name(), err)
	}
	return a, nil
}

// stoppedBy reports whether err is ctx's own error: a check that gave up,
// not a finding.
func stoppedBy(ctx context.Context, err error) bool {
	cerr := ctx.Err()
	return cerr != nil && errors.Is(err, cerr)
}

// Fallback is a decider that asks A and, when A cannot answer (an error
// wrapping ErrUnknown: a Z3 timeout or "unknown", or Z3 not built in),
// B. A's other errors (a malformed query) are returned: B would only hide
// a bug; and so is any error once ctx is done, since B could not answer
// either. Used, if not nil, counts the answers B gave. Safe for
// concurrent use if A and B are.
type Fallback[Q, Ans any] struct {
	A, B DeciderOf[Q, Ans]
	Used *atomic.Int64
}

// Name implements DeciderOf: "A (fallback B)".
func (f Fallback[Q, Ans]) Name() string { return f.A.Name() + " (fallback " + f.B.Name() + ")" }

// Decide implements DeciderOf.
func (f Fallback[Q, Ans]) Decide(ctx context.Context, q Q) (Ans, error) {
	a, err := f.A.Decide(ctx, q)
	if err == nil || ctx.Err() != nil || !errors.Is(err, ErrUnknown) {
		return a, err
	}
	if f.Used != nil {
		f.Used.Add(1)
	}
	return f.B.Decide(ctx, q)
}

// Close closes A and B if they have a Close method (Z3 contexts live
// outside the Go heap).
func (f Fallback[Q, Ans]) Close() { closeAll(f.A, f.B) }

// Cross is a decider that asks A and B every query and compares them
// (`--decider both`, DESIGN.md "Correctness strategy": two independent
// routes to every answer): their verdicts must agree and every satisfiable
// answer must pass Kind.Validate. It returns A's answer, or B's when A
// fails. The embedded CrossStats (required; share one among the Crosses of
// a run) counts what it saw. Safe for concurrent use if A and B are.
type Cross[Q, Ans any] struct {
	Kind QueryKind[Q, Ans]
	A, B DeciderOf[Q, Ans]
	*CrossStats
}

// CrossStats counts what Crosses saw; it is safe for concurrent use by
// them, and read once they are done.
type CrossStats struct {
	mu sync.Mutex
	// Queries counts the queries asked of both deciders.
	Queries int
	// Disagreements counts queries both answered with different verdicts.
	Disagreements int
	// Invalid counts satisfiable answers whose witness Kind.Validate
	// rejected (each decider's apart: a query can count twice).
	Invalid int
	// First describes the first disagreement ("" if none).
	First string
}

// Name implements DeciderOf: "A+B".
func (c Cross[Q, Ans]) Name() string { return c.A.Name() + "+" + c.B.Name() }

// Decide implements DeciderOf.
func (c Cross[Q, Ans]) Decide(ctx context.Context, q Q) (Ans, error) {
	a, errA := c.A.Decide(ctx, q)
	b, errB := c.B.Decide(ctx, q)
	// Validated outside the lock: the other workers' queries need not wait.
	invalid := c.invalid(ctx, q, a, errA) + c.invalid(ctx, q, b, errB)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Queries++
	c.Invalid += invalid
	if errA == nil && errB == nil && c.Kind.Sat(a) != c.Kind.Sat(b) {
		c.Disagreements++
		if c.First == "" {
			c.First = fmt.Sprintf("%s says %v, %s says %v on %s", c.A.Name(), c.Kind.Sat(a), c.B.Name(), c.Kind.Sat(b), c.Kind.Describe(q))
		}
	}
	if errA != nil {
		return b, errB
	}
	return a, nil
}

// invalid is 1 if a is a satisfiable answer whose witness the kind's
// validator rejects (not merely stops checking because ctx ended).
func (c Cross[Q, Ans]) invalid(ctx context.Context, q Q, a Ans, err error) int {
	if err != nil || !c.Kind.Sat(a) {
		return 0
	}
	if verr := c.Kind.Validate(ctx, q, a); verr != nil && !stoppedBy(ctx, verr) {
		return 1
	}
	return 0
}

// Close closes A and B if they have a Close method.
func (c Cross[Q, Ans]) Close() { closeAll(c.A, c.B) }

func closeAll(ds ...any) {
	for _, d := range ds {
		if c, ok := d.(interface{ Close() }); ok {
			c.Close()
		}
	}
}
