package explicit

import (
	"math/rand/v2"
	"slices"
	"testing"

	"mcr/program"
)

// TestForkJoinOrderAsEdges checks forkJoinOrder against the order built
// edge by edge (newPorder and closer.forkJoin) on random SC instances
// with forks and joins, guided by random linearizations of that order.
func TestForkJoinOrderAsEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 3))
	built, joined := 0, 0
	for i := 0; i < 300; i++ {
		inst, _ := program.RandomInstance(rng, program.RandomOptions{Threads: 2 + rng.IntN(4), Events: 6, Vars: 2, Locks: 1})
		if inst.Check() != nil {
			continue
		}
		v := newView(inst)
		nodes := make([][]int32, v.k)
		for t := range v.k {
			for e := v.start[t]; e < v.start[t+1]; e++ {
				nodes[t] = append(nodes[t], e)
			}
		}
		want := newPorder(nodes, v.n)
		if !(&closer{v: v, p: want}).forkJoin() {
			continue
		}
		rank, glue := make([]int32, v.n), make([]int32, v.n)
		for e := range rank {
			rank[e], glue[e] = rng.Int32N(100), -1
		}
		inst.Guide = nil
		for _, e := range want.linearize(rank, glue) {
			inst.Guide = append(inst.Guide, program.Step{Event: program.EventID{Thread: program.ThreadID(v.th[e]), Index: v.idx[e]}})
		}
		got := forkJoinOrder(v, nodes)
		if got == nil {
			t.Fatalf("instance %d: no order along a linearization", i)
		}
		if !slices.Equal(got.pred, want.pred) || !slices.Equal(got.succ, want.succ) {
			t.Fatalf("instance %d: pred %v succ %v, edge by edge %v %v", i, got.pred, got.succ, want.pred, want.succ)
		}
		built++
		if slices.Contains(v.kind, program.Join) {
			joined++
		}
		// A guide against program order is refused.
		if slices.ContainsFunc(nodes, func(ns []int32) bool { return len(ns) > 1 }) {
			slices.Reverse(inst.Guide)
			if forkJoinOrder(v, nodes) != nil {
				t.Fatalf("instance %d: an order along a reversed linearization", i)
			}
		}
	}
	if built < 100 || joined < 20 {
		t.Fatalf("only %d instances compared, %d with joins", built, joined)
	}
}
