package explicit

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"mcr/program"
)

// randomTrace returns an SC trace: a witness of a random realizable
// instance, as a Trace. Some RMW reads become successful CASes and some
// plain reads failed ones.
func randomTrace(rng *rand.Rand, o program.RandomOptions) *program.Trace {
	for {
		inst, perturbed := program.RandomInstance(rng, o)
		if perturbed {
			continue
		}
		w, ok, err := NaiveVerify(context.Background(), inst)
		if err != nil || !ok {
			continue
		}
		tr := inst.TraceOf(w)
		for i := range tr.Events {
			e := &tr.Events[i]
			if e.Kind != program.Read || rng.IntN(3) != 0 {
				continue
			}
			e.Flags |= program.CAS
			e.Arg = e.Value // a successful CAS
			if !e.Is(program.RMW) {
				e.Arg = e.Value + 1 // a failed one
			}
		}
		return tr
	}
}

// seedSpec is the semantics of a seed query, written independently of
// seedSearch: a step-by-step replay used both to brute-force queries and
// to check answers.
type seedSpec struct {
	q       program.SeedQuery
	ev      []program.Event
	pos     [][]int32
	next    []int32
	mem     map[program.Loc]int64
	unknown map[program.Loc]bool
	holder  map[program.Loc]program.ThreadID
	forked  map[program.ThreadID]int32 // thread -> its fork position
	atomic  int32                      // the write half that must come next, or -1
}

func newSeedSpec(q program.SeedQuery) *seedSpec {
	s := &seedSpec{q: q, ev: q.Trace.Events, pos: q.Trace.Index(), next: make([]int32, len(q.Trace.Threads)),
		mem: map[program.Loc]int64{}, unknown: map[program.Loc]bool{}, holder: map[program.Loc]program.ThreadID{},
		forked: map[program.ThreadID]int32{}, atomic: -1}
	for len(s.pos) < len(s.next) {
		s.pos = append(s.pos, nil)
	}
	for i, e := range s.ev {
		if e.Kind == program.Fork {
			s.forked[program.ThreadID(e.Value)] = int32(i)
		}
	}
	return s
}

func (s *seedSpec) value(l program.Loc) int64 {
	if v, ok := s.mem[l]; ok {
		return v
	}
	return s.q.Trace.InitValue(l)
}

func (s *seedSpec) executed(p int32) bool { return s.next[s.ev[p].Thread] > s.ev[p].Index }

// stopped reports whether thread t may not run its next event: it is a
// race target, or its thread already ran the target read.
func (s *seedSpec) stopped(t program.ThreadID) bool {
	if s.q.Read >= 0 && s.ev[s.q.Read].Thread == t && s.executed(s.q.Read) {
		return true
	}
	n := s.next[t]
	for _, r := range s.q.Race {
		if r >= 0 && s.ev[r].Thread == t && s.ev[r].Index <= n {
			return true
		}
	}
	return false
}

// reachable: fork done, joined thread finished.
func (s *seedSpec) reachable(p int32) bool {
	e := &s.ev[p]
	if f, ok := s.forked[e.Thread]; ok && e.Index == 0 && !s.executed(f) {
		return false
	}
	if e.Kind == program.Join && int(s.next[e.Value]) < len(s.pos[e.Value]) {
		return false
	}
	return true
}

// step executes p if the semantics allow it now.
func (s *seedSpec) step(p int32) error {
	e := &s.ev[p]
	if s.atomic >= 0 && p != s.atomic {
		return fmt.Errorf("breaks an RMW")
	}
	if int(e.Thread) >= len(s.next) || s.next[e.Thread] != e.Index {
		return fmt.Errorf("not next in its thread")
	}
	if s.atomic < 0 && s.stopped(e.Thread) {
		return fmt.Errorf("thread stopped at a target")
	}
	if !s.reachable(p) {
		return fmt.Errorf("fork or join not satisfied")
	}
	switch e.Kind {
	case program.Read:
		want := e.Value
		if p == s.q.Read {
			want = s.q.Value
		}
		if s.unknown[e.Loc] || s.value(e.Loc) != want {
			return fmt.Errorf("reads %d, want %d", s.value(e.Loc), want)
		}
		hidden := e.Is(program.RMW)
		if e.Is(program.CAS) {
			hidden = s.q.Value == e.Arg
		}
		switch {
		case p == s.q.Read && hidden:
			s.unknown[e.Loc] = true
		case p != s.q.Read && e.Is(program.RMW):
			s.atomic = s.pos[e.Thread][e.Index+1]
		}
	case program.Write:
		if p == s.atomic {
			s.atomic = -1
		}
		s.mem[e.Loc] = e.Value
		delete(s.unknown, e.Loc)
	case program.Acquire:
		if _, held := s.holder[e.Loc]; held {
			return fmt.Errorf("lock held")
		}
		s.holder[e.Loc] = e.Thread
	case program.Release:
		delete(s.holder, e.Loc)
	}
	s.next[e.Thread]++
	return nil
}

func (s *seedSpec) goal() bool {
	if s.atomic >= 0 || s.q.Read >= 0 && !s.executed(s.q.Read) {
		return false
	}
	for _, f := range s.q.Fixed {
		if !s.executed(f) {
			return false
		}
	}
	for _, r := range s.q.Race {
		if r >= 0 && (s.next[s.ev[r].Thread] != s.ev[r].Index || !s.reachable(r)) {
			return false
		}
	}
	return true
}

func (s *seedSpec) clone() *seedSpec {
	c := *s
	c.next = append([]int32(nil), s.next...)
	c.mem, c.unknown, c.holder = map[program.Loc]int64{}, map[program.Loc]bool{}, map[program.Loc]program.ThreadID{}
	for k, v := range s.mem {
		c.mem[k] = v
	}
	for k, v := range s.unknown {
		c.unknown[k] = v
	}
	for k, v := range s.holder {
		c.holder[k] = v
	}
	return &c
}

// bruteSeed tries every interleaving.
func bruteSeed(s *seedSpec) bool {
	if s.goal() {
		return true
	}
	for t := range s.next {
		if int(s.next[t]) >= len(s.pos[t]) {
			continue
		}
		c := s.clone()
		if c.step(s.pos[t][s.next[t]]) == nil && bruteSeed(c) {
			return true
		}
	}
	return false
}

// checkSeed replays an answer's schedule.
func checkSeed(q program.SeedQuery, sched program.Schedule) error {
	s := newSeedSpec(q)
	n := len(sched)
	for _, r := range q.Race {
		if r >= 0 {
			n--
		}
	}
	for k, id := range sched[:n] {
		p := q.Trace.Index()[id.Thread][id.Index]
		if err := s.step(p); err != nil {
			return fmt.Errorf("step %d (%s): %v", k, q.Trace.Describe(int(p)), err)
		}
	}
	if !s.goal() {
		return fmt.Errorf("schedule %v does not reach the goal", sched)
	}
	for k, r := range q.Race {
		if r >= 0 && sched[n+k] != q.Trace.Events[r].ID() {
			return fmt.Errorf("schedule %v does not end with the race", sched)
		}
	}
	return nil
}

// TestSeedSearch compares the seed search with brute force on small random
// traces: every read with every value of its location, some queries with
// Fixed reads, some race queries.
func TestSeedSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := 2000
	if testing.Short() {
		n = 200
	}
	sat, unsat := 0, 0
	for range n {
		o := program.RandomOptions{Threads: 2 + rng.IntN(2), Events: 1 + rng.IntN(4), Vars: 1 + rng.IntN(2), Locks: rng.IntN(2),
			Values: 2 + rng.IntN(2), Model: program.SC, Constraint: program.GoodWrites}
		tr := randomTrace(rng, o)
		if len(tr.Events) > 12 || len(tr.Events) == 0 {
			continue
		}
		var queries []program.SeedQuery
		for r, e := range tr.Events {
			if e.Kind != program.Read {
				continue
			}
			vals := map[int64]bool{tr.InitValue(e.Loc): true}
			for _, w := range tr.Events {
				if w.Kind == program.Write && w.Loc == e.Loc {
					vals[w.Value] = true
				}
			}
			for _, v := range slices.Sorted(maps.Keys(vals)) {
				q := program.SeedQuery{Trace: tr, Read: int32(r), Value: v, Race: [2]int32{-1, -1}}
				if rng.IntN(3) == 0 {
					for f, fe := range tr.Events {
						if fe.Kind == program.Read && f != r && rng.IntN(2) == 0 {
							q.Fixed = append(q.Fixed, int32(f))
						}
					}
				}
				queries = append(queries, q)
			}
		}
		for range 3 {
			a, b := int32(rng.IntN(len(tr.Events))), int32(rng.IntN(len(tr.Events)))
			if tr.Events[a].Thread != tr.Events[b].Thread {
				queries = append(queries, program.SeedQuery{Trace: tr, Read: -1, Race: [2]int32{a, b}})
			}
		}
		for _, q := range queries {
			ans, err := Seeder{}.Decide(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteSeed(newSeedSpec(q))
			if ans.Sat != want {
				t.Fatalf("query read %d value %d fixed %v race %v: search says %v, brute force %v\n%s",
					q.Read, q.Value, q.Fixed, q.Race, ans.Sat, want, describe(tr))
			}
			if ans.Sat {
				sat++
				if _, err := program.CheckSeed(context.Background(), q, ans); err != nil {
					t.Fatalf("query read %d value %d fixed %v race %v: program.CheckSeed: %v\n%s", q.Read, q.Value, q.Fixed, q.Race, err, describe(tr))
				}
				if err := checkSeed(q, ans.Schedule); err != nil {
					t.Fatalf("query read %d value %d fixed %v race %v: %v\n%s", q.Read, q.Value, q.Fixed, q.Race, err, describe(tr))
				}
				if q.Read >= 0 && q.Race[0] < 0 && ans.Schedule[len(ans.Schedule)-1] != tr.Events[q.Read].ID() && len(q.Fixed) == 0 {
					t.Fatalf("schedule %v does not end with the target", ans.Schedule)
				}
			} else {
				unsat++
			}
		}
	}
	t.Logf("%d satisfiable and %d unsatisfiable queries agree with brute force", sat, unsat)
	if sat < 100 || unsat < 100 {
		t.Errorf("unbalanced: %d sat, %d unsat", sat, unsat)
	}
}

func describe(tr *program.Trace) string {
	out := ""
	for i := range tr.Events {
		out += fmt.Sprintf("%3d %s", i, tr.Describe(i))
		if e := tr.Events[i]; e.Is(program.RMW) || e.Is(program.CAS) {
			out += fmt.Sprintf(" flags %b arg %d", e.Flags, e.Arg)
		}
		out += "\n"
	}
	return out
}

func TestSeedSearchAPI(t *testing.T) {
	inst, err := program.ReadInstanceFile("../testdata/instances/sb.json")
	if err != nil {
		t.Fatal(err)
	}
	// An SC trace of sb: T0 writes x, T1 writes y, both reads see 1.
	tr := inst.TraceOf(program.Witness{{Event: program.EventID{Thread: 0, Index: 0}}, {Event: program.EventID{Thread: 1, Index: 0}},
		{Event: program.EventID{Thread: 0, Index: 1}}, {Event: program.EventID{Thread: 1, Index: 1}}})
	for i := range tr.Events {
		if tr.Events[i].Kind == program.Read {
			tr.Events[i].Value = 1
		}
	}
	// T0's read (position 2) can see 0: T0 writes x and reads y first.
	sched, ok, err := SeedSearch(context.Background(), tr, 2, 0)
	if err != nil || !ok || len(sched) != 2 || sched[1] != tr.Events[2].ID() {
		t.Errorf("SeedSearch: %v %v %v", sched, ok, err)
	}
	// Not both: with T0's read fixed to its traced value, made 0 here, T1's
	// read (position 3) cannot see 0 under SC.
	tr.Events[2].Value = 0
	ans, err := Seeder{}.Decide(context.Background(), program.SeedQuery{Trace: tr, Read: 3, Value: 0, Fixed: []int32{2}, Race: [2]int32{-1, -1}})
	if err != nil || ans.Sat {
		t.Errorf("fixed query: %v %v", ans, err)
	}
	// A race between the two writes: both can be next at once.
	ans, err = Seeder{}.Decide(context.Background(), program.SeedQuery{Trace: tr, Read: -1, Race: [2]int32{0, 1}})
	if err != nil || !ans.Sat || len(ans.Schedule) != 2 {
		t.Errorf("race query: %v %v", ans, err)
	}
	if _, err := (Seeder{}).Decide(context.Background(), program.SeedQuery{Trace: tr, Read: 0, Race: [2]int32{-1, -1}}); err == nil {
		t.Error("a write as target: no error")
	}
}
