package program

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// sb is store buffering: both reads see 0. TSO and PSO allow it, SC not.
const sb = `{
  "name": "sb", "mm": "tso",
  "threads": [
    {"name": "T0", "events": [{"kind": "write", "loc": "x", "value": 1}, {"kind": "read", "loc": "y", "rf": "init"}]},
    {"name": "T1", "events": [{"kind": "write", "loc": "y", "value": 1}, {"kind": "read", "loc": "x", "rf": "init"}]}
  ],
  "expect": {"sc": false, "tso": true, "pso": true}
}`

func mustDecode(t *testing.T, src string) *Instance {
	t.Helper()
	inst, err := DecodeInstance("test.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func steps(inst *Instance, refs ...string) Witness {
	var w Witness
	for _, r := range refs {
		flush := false
		if rest, ok := strings.CutPrefix(r, "flush "); ok {
			r, flush = rest, true
		}
		t, k, _ := strings.Cut(r, ":")
		tid := ThreadID(-1)
		for i, n := range inst.Threads {
			if n == t {
				tid = ThreadID(i)
			}
		}
		w = append(w, Step{Event: EventID{tid, int32(k[0] - '0')}, Flush: flush})
	}
	return w
}

func TestValidateWitness(t *testing.T) {
	inst := mustDecode(t, sb)
	if inst.Constraint != ReadsFrom || inst.Model != TSO || !inst.Expect[TSO] || inst.Expect[SC] {
		t.Fatalf("decoded %v %v %v", inst.Constraint, inst.Model, inst.Expect)
	}
	tests := []struct {
		model MemoryModel
		w     []string
		err   string // "" = valid
	}{
		{TSO, []string{"T0:0", "T1:0", "T0:1", "T1:1", "flush T0:0", "flush T1:0"}, ""},
		{PSO, []string{"T0:0", "T1:0", "T0:1", "T1:1", "flush T1:0", "flush T0:0"}, ""},
		{TSO, []string{"T0:0", "flush T0:0", "T1:0", "T0:1", "T1:1", "flush T1:0"}, "step 4 (T1:1): read of x reads from T0:0"},
		{TSO, []string{"T0:0", "T1:0", "T0:1", "T1:1", "flush T0:0"}, "never flushed"},
		{TSO, []string{"T0:1", "T0:0"}, "program order"},
		{TSO, []string{"flush T0:0"}, "not executed yet"},
		{SC, []string{"T0:0", "T1:0", "T0:1", "T1:1"}, "step 2 (T0:1): read of y reads from T1:0"},
		{SC, []string{"T0:0", "flush T0:0"}, "flush step under SC"},
		{SC, []string{"T0:0", "T0:1"}, "never executes"},
	}
	for _, tc := range tests {
		c := inst.Clone()
		c.Model = tc.model
		err := ValidateWitness(c, steps(c, tc.w...))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%v %v: %v", tc.model, tc.w, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v %v: got %v, want error containing %q", tc.model, tc.w, err, tc.err)
		}
	}
}

func TestValidateLocksForkRMW(t *testing.T) {
	inst := mustDecode(t, `{"mm": "tso", "threads": [
	  {"name": "M", "events": [{"kind": "write", "loc": "x", "value": 5}, {"kind": "fork", "thread": "C"}, {"kind": "acquire", "loc": "l"},
	     {"kind": "release", "loc": "l"}, {"kind": "join", "thread": "C"}]},
	  {"name": "C", "events": [{"kind": "acquire", "loc": "l"}, {"kind": "read", "loc": "x", "value": 5, "rmw": true},
	     {"kind": "write", "loc": "x", "value": 6, "rmw": true}, {"kind": "release", "loc": "l"}]}]}`)
	if inst.Constraint != GoodWrites {
		t.Fatalf("constraint %v", inst.Constraint)
	}
	tests := []struct {
		w   []string
		err string
	}{
		{[]string{"M:0", "flush M:0", "M:1", "C:0", "C:1", "C:2", "flush C:2", "C:3", "M:2", "M:3", "M:4"}, ""},
		{[]string{"M:0", "M:1"}, "fork needs an empty store buffer"},
		{[]string{"C:0"}, "not forked yet"},
		{[]string{"M:0", "flush M:0", "M:1", "C:0", "M:2"}, "acquires l, held by C"},
		{[]string{"M:0", "flush M:0", "M:1", "C:0", "C:1", "M:2"}, "atomic read-modify-write"},
		{[]string{"M:0", "flush M:0", "M:1", "C:0", "C:1", "C:2", "C:3"}, "atomic read-modify-write"},
		{[]string{"M:0", "flush M:0", "M:1", "M:2", "M:3", "M:4"}, "joins C, which is at event 0"},
		{[]string{"M:0", "M:1"}, "not flushed"},
	}
	for _, tc := range tests {
		err := ValidateWitness(inst, steps(inst, tc.w...))
		if tc.err == "" && err != nil {
			t.Errorf("%v: %v", tc.w, err)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) && !(tc.err == "not flushed" && err != nil) {
			t.Errorf("%v: got %v, want %q", tc.w, err, tc.err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ src, err string }{
		{"", "empty file"},
		{"{\n  \"mm\": \"sc\",\n  \"threads\": [,]\n}", "bad.json: line 3 col 15"},
		{`{"mm": "sc", "threads": 3}`, `field "threads"`},
		{`{"mm": "arm", "threads": []}`, `"arm" is not a memory model`},
		{`{"mm": "sc", "threads": [], "bogus": 1}`, `unknown field "bogus"`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "store", "loc": "x"}]}]}`, `A:0: unknown event kind "store"`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "read", "loc": "x", "rf": "B:0"}]}]}`, `no thread "B"`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "read", "loc": "x", "rf": "A:7"}]}]}`, `thread A has only 1 events`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "write", "loc": "y"}, {"kind": "read", "loc": "x", "rf": "A:0"}]}]}`, `is not a write of x`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "write", "loc": "x", "value": 1}, {"kind": "read", "loc": "x", "value": 2}]}]}`, `no write of x (nor its initial value) could satisfy it`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "read", "loc": "x", "value": 2, "rf": "init"}]}]}`, `reads 2 but may read the initial value 0`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "fork", "thread": "A"}]}]}`, `fork of bad thread`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "release", "loc": "l"}]}]}`, `does not hold`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "read", "loc": "x", "rmw": true, "rf": "init"}]}]}`, `no write half`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "write", "loc": "l"}, {"kind": "acquire", "loc": "l"}]}]}`, `both as a memory location and as a lock`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "lockfail", "loc": "l", "rf": "init"}]}]}`, `reads init: the lock starts free`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "write", "loc": "x", "value": 1}, {"kind": "lockfail", "loc": "l", "rf": "A:0"}]}]}`, `is not a acquire of l`},
		{`{"mm": "sc", "constraint": "rf", "threads": [{"name": "A", "events": [{"kind": "read", "loc": "x", "value": 0}]}]}`, `without "rf" in a reads-from instance`},
		{`{"mm": "sc", "threads": [{"name": "A", "events": []}], "expect": {"arm": true}}`, `"arm" is not a memory model`},
		{`{"mm": "sc", "threads": []} {}`, `extra data`},
	}
	for _, tc := range tests {
		_, err := DecodeInstance("bad.json", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "bad.json") {
			t.Errorf("%s:\n got %v\nwant error containing %q", tc.src, err, tc.err)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		o := RandomOptions{Threads: 1 + n%4, Events: 1 + n%7, Vars: 1 + n%3, Locks: n % 2, Model: Models[n%3], Constraint: Constraints[n/3%2], Perturb: 0.5}
		inst, _ := RandomInstance(rng, o)
		data, err := EncodeInstance(inst)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeInstance("rt.json", data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		again, _ := EncodeInstance(back)
		if string(again) != string(data) {
			t.Fatalf("round trip differs:\n%s\n%s", data, again)
		}
	}
}

// TestRandomInstance checks the generator against the validator: an
// unperturbed instance's guide is the execution it came from, a witness.
func TestRandomInstance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for n := range 3000 {
		o := RandomOptions{Threads: 1 + n%4, Events: 1 + n%9, Vars: 1 + n%3, Locks: n % 3, Model: Models[n%3], Constraint: Constraints[n/3%2], Perturb: 0.3}
		inst, perturbed := RandomInstance(rng, o)
		if err := inst.Check(); err != nil {
			t.Fatal(err)
		}
		if perturbed || inst.Guide == nil {
			continue
		}
		checked++
		if err := ValidateWitness(inst, inst.Guide); err != nil {
			data, _ := EncodeInstance(inst)
			t.Fatalf("%v\n%s", err, data)
		}
	}
	if checked < 500 {
		t.Errorf("only %d guides checked", checked)
	}
}

func FuzzDecodeInstance(f *testing.F) {
	f.Add([]byte(sb))
	f.Add([]byte(`{"mm": "sc", "threads": [{"name": "A", "events": [{"kind": "read", "loc": "x", "value": 0}]}]}`))
	f.Add([]byte(`{"mm": "pso", "threads": [{"name": "A", "events": [{"kind": "fork", "thread": "B"}, {"kind": "acquire", "loc": "l", "rf": "init"}]}, {"name": "B", "events": []}], "guide": ["A:0", "flush A:1"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inst, err := DecodeInstance("fuzz.json", data)
		if err != nil {
			return
		}
		if err := inst.Check(); err != nil {
			t.Fatalf("decoded instance fails Check: %v", err)
		}
		out, err := EncodeInstance(inst)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeInstance("again.json", out); err != nil {
			t.Fatalf("re-decoding: %v\n%s", err, out)
		}
		_ = ValidateWitness(inst, inst.Guide)
		_ = ValidateWitness(inst, nil)
	})
}
