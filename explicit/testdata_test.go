package explicit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mcr/program"
)

const instanceDir = "../testdata/instances"

// TestInstanceFiles runs every decider (and ablation variant) on every
// instance file, under every model the file has an expectation for and
// every order of its threads, and checks the verdicts; every witness passes
// the validator.
func TestInstanceFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(instanceDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no instance files: %v", err)
	}
	for _, f := range files {
		inst, err := program.ReadInstanceFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(inst.Expect) == 0 {
			t.Errorf("%s: no expectations", f)
		}
		t.Run(inst.Name, func(t *testing.T) { checkExpect(t, inst, inst.Expect) })
	}
}

// TestEnumInputs turns the enum-input*.std consistency tests into
// good-writes instances and checks them.
func TestEnumInputs(t *testing.T) {
	want := map[string]bool{"enum-input1.std": true, "enum-input2.std": false, "enum-input4.std": true}
	for name, ok := range want {
		inst, err := readValueTrace(filepath.Join(instanceDir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			checkExpect(t, inst, map[program.MemoryModel]bool{program.SC: ok, program.TSO: ok, program.PSO: ok})
		})
	}
}

func checkExpect(t *testing.T, inst *program.Instance, expect map[program.MemoryModel]bool) {
	for m, want := range expect {
		for _, perm := range permutations(len(inst.Threads)) {
			in := permute(inst, perm)
			in.Model = m
			for _, info := range variants() {
				if !info.Supports(in) {
					continue
				}
				_, got, err := program.CheckedDecide(context.Background(), info.New(), in)
				if err != nil && !errors.Is(err, program.ErrUnsupported) {
					t.Fatalf("%s %s: %v", m, info.Name, err)
				}
				if err == nil && got != want {
					t.Fatalf("%s under %s, threads %v: %s says %v, want %v", inst.Name, m, perm, info.Name, got, want)
				}
			}
		}
	}
}

// permutations returns every order of 0..k-1 (only the identity and the
// reversal beyond 6 threads).
func permutations(k int) [][]int {
	id := make([]int, k)
	for i := range id {
		id[i] = i
	}
	if k > 6 {
		rev := make([]int, k)
		for i := range rev {
			rev[i] = k - 1 - i
		}
		return [][]int{id, rev}
	}
	var out [][]int
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			out = append(out, append([]int(nil), id...))
			return
		}
		for j := i; j < k; j++ {
			id[i], id[j] = id[j], id[i]
			rec(i + 1)
			id[i], id[j] = id[j], id[i]
		}
	}
	rec(0)
	return out
}

// permute returns inst with its threads in the order perm (new thread i is
// old thread perm[i]).
func permute(inst *program.Instance, perm []int) *program.Instance {
	k := len(inst.Threads)
	newID := make([]program.ThreadID, k)
	threads := make([]string, k)
	events := make([][]program.Event, k)
	for i, old := range perm {
		newID[old] = program.ThreadID(i)
		threads[i] = inst.Threads[old]
	}
	sources := map[program.EventID][]program.EventID{}
	id := func(s int32) program.EventID {
		if s < 0 {
			return program.InitID
		}
		e := inst.Events[s]
		return program.EventID{Thread: newID[e.Thread], Index: e.Index}
	}
	for i, old := range perm {
		for _, e := range inst.Thread(program.ThreadID(old)) {
			src := inst.Sources[inst.Dense(e.ID())]
			if e.Kind == program.Fork || e.Kind == program.Join {
				e.Value = int64(newID[e.Value])
			}
			events[i] = append(events[i], e)
			if src != nil {
				ids := []program.EventID{}
				for _, s := range src {
					ids = append(ids, id(s))
				}
				sources[program.EventID{Thread: program.ThreadID(i), Index: e.Index}] = ids
			}
		}
	}
	out, err := program.NewInstance(inst.Model, inst.Constraint, threads, inst.Locs, events, sources)
	if err != nil {
		panic(err)
	}
	out.Name, out.Init = inst.Name, inst.Init
	for _, s := range inst.Guide {
		out.Guide = append(out.Guide, program.Step{Event: program.EventID{Thread: newID[s.Event.Thread], Index: s.Event.Index}, Flush: s.Flush})
	}
	return out
}

// readValueTrace reads a THREAD|OP(VAR)|VALUE trace (the enum-input tests
// of shared/data/traces) as a good-writes SC instance: a read may read any
// write of its variable with its value, or init if the value is 0.
func readValueTrace(path string) (*program.Instance, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	threadID := map[string]int{}
	locID := map[string]program.Loc{}
	var threads, locs []string
	var events [][]program.Event
	sc := bufio.NewScanner(fh)
	for line := 1; sc.Scan(); line++ {
		f := strings.Split(strings.TrimSpace(sc.Text()), "|")
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want THREAD|OP(VAR)|VALUE", path, line)
		}
		op, arg, ok := strings.Cut(strings.TrimSuffix(f[1], ")"), "(")
		val, err := strconv.ParseInt(f[2], 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s:%d: bad event %q", path, line, sc.Text())
		}
		t, ok := threadID[f[0]]
		if !ok {
			t = len(threads)
			threadID[f[0]] = t
			threads = append(threads, f[0])
			events = append(events, nil)
		}
		l, ok := locID[arg]
		if !ok {
			l = program.Loc(len(locs))
			locID[arg] = l
			locs = append(locs, arg)
		}
		e := program.Event{Loc: l, Value: val}
		switch op {
		case "r":
			e.Kind = program.Read
		case "w":
			e.Kind = program.Write
		case "acq":
			e.Kind, e.Value = program.Acquire, 0
		case "rel":
			e.Kind, e.Value = program.Release, 0
		default:
			return nil, fmt.Errorf("%s:%d: unsupported op %q", path, line, op)
		}
		events[t] = append(events[t], e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sources := map[program.EventID][]program.EventID{}
	for t, evs := range events {
		for k, r := range evs {
			if r.Kind != program.Read {
				continue
			}
			var src []program.EventID
			if r.Value == 0 {
				src = append(src, program.InitID)
			}
			for t2, evs2 := range events {
				for k2, w := range evs2 {
					if w.Kind == program.Write && w.Loc == r.Loc && w.Value == r.Value {
						src = append(src, program.EventID{Thread: program.ThreadID(t2), Index: int32(k2)})
					}
				}
			}
			if len(src) == 0 {
				return nil, fmt.Errorf("%s: read %s:%d of %s = %d: no write could satisfy it", path, threads[t], k, locs[r.Loc], r.Value)
			}
			sources[program.EventID{Thread: program.ThreadID(t), Index: int32(k)}] = src
		}
	}
	inst, err := program.NewInstance(program.SC, program.GoodWrites, threads, locs, events, sources)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	inst.Name = filepath.Base(path)
	return inst, nil
}

// TestExample52 checks the claims of seed 002 Example 5.2 on its
// reconstruction: saturation leaves the hidden order of τ unordered, and
// accepts τ′, which has no witness, so GetWitness needs phase P-III.
func TestExample52(t *testing.T) {
	tau, err := program.ReadInstanceFile(filepath.Join(instanceDir, "hidden-order.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, ok := newSaturation(newView(tau))
	if !ok {
		t.Fatal("τ is cyclic")
	}
	if sat, _ := s.saturate(); !sat {
		t.Fatal("saturation rejects τ")
	}
	x3, x4 := tau.Dense(program.EventID{Thread: 0, Index: 2}), tau.Dense(program.EventID{Thread: 1, Index: 0})
	if s.p.before(x3, x4) || s.p.before(x4, x3) {
		t.Error("saturation orders x:=3 and x:=4 in τ; the example says it does not")
	}
	w, ok, err := program.CheckedDecide(context.Background(), Naive{}, tau)
	if err != nil || !ok {
		t.Fatalf("τ has no witness: %v", err)
	}
	if pos(w, x4, tau) > pos(w, x3, tau) {
		t.Errorf("witness %v puts x:=3 first", w)
	}
	tau2, err := program.ReadInstanceFile(filepath.Join(instanceDir, "saturation-incomplete.json"))
	if err != nil {
		t.Fatal(err)
	}
	s2, ok := newSaturation(newView(tau2))
	if !ok {
		t.Fatal("τ′ is cyclic")
	}
	if sat, _ := s2.saturate(); !sat {
		t.Fatal("saturation rejects τ′; the example says it accepts it")
	}
	var phases [3]int
	if a, err := (&GetWitness{Phases: &phases}).Decide(context.Background(), tau2); err != nil || a.Sat || phases != [3]int{0, 0, 1} {
		t.Errorf("GetWitness on τ′: %v %v, phases %v; want no witness from P-III", a.Sat, err, phases)
	}
}

func pos(w program.Witness, e int32, inst *program.Instance) int {
	for i, s := range w {
		if inst.Dense(s.Event) == e && !s.Flush {
			return i
		}
	}
	return -1
}
