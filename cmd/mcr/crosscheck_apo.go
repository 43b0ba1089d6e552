package main

// This file implements `mcr crosscheck --kind apo`: random annotated
// partial orders (003_0c44ef4d03fff5a7.txt Section 4, explicit/apo), each
// stated as a good-writes SC instance (apo.ToInstance) and decided by
// Realize (closure, then the witness of Lemma 4.1) beside every selected
// backend.

import (
	"fmt"
	"math/rand/v2"
	"time"

	"mcr/explicit/apo"
	"mcr/program"
)

// realizeName names Realize's column in the crosscheck table.
const realizeName = "realize"

// realizeColumn is the placeholder backend that reserves Realize's column;
// apoInstance binds it to each instance's annotated partial order.
var realizeColumn = backend{Name: realizeName, Group: "apo", Doc: "Realize (seed 003 Sec. 4.3) on the annotated partial order behind the instance",
	Supports: func(*program.Instance) bool { return false }}

// apoInstance returns random annotated partial order i as an instance
// (threads = root + leaves, events per thread, vars, values from f) and run
// with its Realize column bound to it.
func apoInstance(rng *rand.Rand, f *crosscheckFlags, run []backend, i int) (*program.Instance, []backend, error) {
	p := apo.Random(rng, apo.RandomOptions{Leaves: f.threadsR.draw(rng) - 1, Events: f.eventsR.draw(rng),
		Vars: f.varsR.draw(rng), Values: f.values})
	enc, err := apo.ToInstance(p, fmt.Sprintf("crosscheck-apo-seed%d-%d", f.seed, i))
	if err != nil {
		return nil, nil, err
	}
	bound := append([]backend(nil), run...)
	for k := range bound {
		if bound[k].Name == realizeName {
			bound[k].New = func(time.Duration) program.Decider { return enc.Decider() }
		}
	}
	return enc.Inst, bound, nil
}
