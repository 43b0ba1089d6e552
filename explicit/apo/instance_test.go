package apo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"mcr/explicit"
	"mcr/explicit/apo"
	"mcr/program"
)

// TestRealizeAgainstDeciders states random annotated partial orders as
// good-writes instances (apo.ToInstance) and checks that Realize, VerifySC
// and the naive decider agree on every one, with every witness through
// program.ValidateWitness (Realize's after apo.Encoding.WitnessOf). Z3
// joins them in `mcr crosscheck --kind apo` (explicit does not import
// encode). MCR_APO_SWEEP=N runs N instances instead of 300 (the 10,000
// sweep of the issue).
func TestRealizeAgainstDeciders(t *testing.T) {
	n := 300
	if s := os.Getenv("MCR_APO_SWEEP"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("MCR_APO_SWEEP=%q: %v", s, err)
		}
	}
	ctx := context.Background()
	deciders := []program.Decider{&explicit.VerifySC{}, explicit.Naive{}}
	count := map[bool]int{}
	for i := range n {
		rng := rand.New(rand.NewPCG(20, uint64(i)))
		p := apo.Random(rng, apo.RandomOptions{Leaves: 1 + rng.IntN(2), Events: 2 + rng.IntN(4), Vars: 1 + rng.IntN(3), Values: 1 + rng.IntN(3)})
		enc, err := apo.ToInstance(p, fmt.Sprintf("apo-%d", i))
		if err != nil {
			t.Fatalf("%d: %v\n%v", i, err, p)
		}
		lin, ok, err := apo.Realize(p)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		count[ok]++
		if ok {
			if err := apo.Linearizes(p, lin); err != nil {
				t.Fatalf("%d: Realize's witness: %v\n%v", i, err, p)
			}
			if err := program.ValidateWitness(enc.Inst, enc.WitnessOf(lin)); err != nil {
				t.Fatalf("%d: Realize's witness as an instance witness: %v\n%v", i, err, p)
			}
		}
		for _, d := range deciders {
			_, found, err := program.CheckedDecide(ctx, d, enc.Inst)
			if err != nil {
				t.Fatalf("%d: %s: %v", i, d.Name(), err)
			}
			if found != ok {
				t.Fatalf("%d: Realize says %v, %s says %v\n%v", i, ok, d.Name(), found, p)
			}
		}
	}
	if count[true] < n/5 || count[false] < n/5 {
		t.Fatalf("unbalanced: %d realizable, %d not", count[true], count[false])
	}
	t.Logf("%d instances: %d realizable, %d not, 0 disagreements", n, count[true], count[false])
}

// TestRelaxedClosureAgainstVerifySC weakens random annotated partial
// orders (each ordering between threads kept with probability 3/5, so
// conflicting leaf events may be unordered, the shape the never-good /
// unobservable relaxation of seed 003 Section 6 leaves) and checks
// RelaxedClosure against VerifySC: it gives ⊥ only without a witness, every
// VerifySC witness linearizes its result (it adds only necessary
// orderings), and a Lemma 4.1 witness of its result that Linearizes accepts
// is a witness of the instance. MCR_APO_SWEEP=N runs N instead of 300.
func TestRelaxedClosureAgainstVerifySC(t *testing.T) {
	n := 300
	if s := os.Getenv("MCR_APO_SWEEP"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	ctx := context.Background()
	count := map[string]int{}
	for i := range n {
		rng := rand.New(rand.NewPCG(21, uint64(i)))
		p := apo.Random(rng, apo.RandomOptions{Leaves: 1 + rng.IntN(2), Events: 2 + rng.IntN(4), Vars: 1 + rng.IntN(3), Values: 1 + rng.IntN(3)})
		q, err := apo.New(p.Events)
		if err != nil {
			t.Fatal(err)
		}
		for a := range int32(p.Len()) {
			for b := range int32(p.Len()) {
				if p.Events[a].Thread != p.Events[b].Thread && p.Before(a, b) && rng.IntN(5) < 3 {
					q.Order(a, b)
				}
			}
			if p.Events[a].Kind == apo.Read {
				q.SetGood(a, p.Side[a], p.Good[a])
			}
		}
		enc, err := apo.ToInstance(q, fmt.Sprintf("relaxed-%d", i))
		if err != nil {
			t.Fatalf("%d: %v\n%v", i, err, q)
		}
		w, sat, err := program.CheckedDecide(ctx, &explicit.VerifySC{}, enc.Inst)
		if err != nil {
			t.Fatalf("%d: verifysc: %v", i, err)
		}
		c, ok, err := apo.RelaxedClosure(q)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		switch {
		case !ok && sat:
			t.Fatalf("%d: RelaxedClosure gives ⊥, VerifySC a witness\n%v", i, q)
		case sat:
			lin, err := enc.Linearization(w)
			if err == nil {
				err = apo.Linearizes(c, lin)
			}
			if err != nil {
				t.Fatalf("%d: VerifySC's witness is no linearization of the relaxed closure: %v\n%v\n%v", i, err, q, c)
			}
		}
		if ok && apo.Linearizes(c, apo.Witness(c)) == nil {
			count["lemma 4.1 witness"]++
			if !sat {
				t.Fatalf("%d: a Lemma 4.1 witness, but VerifySC finds none\n%v", i, c)
			}
		}
		count[fmt.Sprintf("sat=%v strict=%v", sat, q.Strict())]++
	}
	t.Logf("%d relaxed instances: %v, 0 disagreements", n, count)
}
