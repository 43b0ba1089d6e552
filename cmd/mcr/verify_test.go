package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mcr/encode/z3"
	"mcr/program"
)

const instances = "../../testdata/instances/"

// TestVerifyInstanceFiles runs verify on every instance file under every
// model it states a verdict for: the backends agree with each other and
// with the file.
func TestVerifyInstanceFiles(t *testing.T) {
	files, _ := filepath.Glob(instances + "*.json")
	if len(files) == 0 {
		t.Fatal("no instance files")
	}
	for _, f := range files {
		inst, err := program.ReadInstanceFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for m, want := range inst.Expect {
			code, out, errs := cli(t, "verify", f, "--mm", m.String())
			verdict := map[bool]string{true: "result: realizable", false: "result: unrealizable"}[want]
			if code != exitOK || !strings.Contains(out, verdict) {
				t.Errorf("verify %s --mm %s: exit %d, want %q:\n%s%s", f, m, code, verdict, out, errs)
			}
		}
	}
}

// TestVerifyBadInput checks that malformed files and flags exit with 2
// and say what is wrong.
func TestVerifyBadInput(t *testing.T) {
	bad := instances + "bad/"
	cases := []struct {
		args []string
		want string // substring of stderr
	}{
		{[]string{bad + "malformed.json"}, "malformed.json: line 6 col 5"},
		{[]string{bad + "empty.json"}, "empty.json: empty file"},
		{[]string{bad + "wrong-type.json"}, `field "threads.events.value": got JSON string`},
		{[]string{bad + "unknown-model.json"}, `"arm" is not a memory model`},
		{[]string{bad + "unknown-kind.json"}, `unknown event kind "store"`},
		{[]string{bad + "unknown-thread.json"}, `fork of unknown thread "T9"`},
		{[]string{bad + "unknown-source.json"}, `"T1:3": thread T1 has only 1 events`},
		{[]string{bad + "read-without-write.json"}, "no write of y (nor its initial value) could satisfy it"},
		{[]string{bad + "value-mismatch.json"}, "reads 2 but source T1:0 writes 1"},
		{[]string{bad + "release-unheld.json"}, "releases l, which its thread does not hold"},
		{[]string{bad + "broken-rmw.json"}, "rmw read not followed by its write half"},
		{[]string{bad + "no-such-file.json"}, "no-such-file.json"},
		{[]string{instances + "sb.json", "--backend", "magic"}, `unknown backend "magic"`},
		{[]string{instances + "sb.json", "--mm", "arm"}, `--mm "arm"`},
		{[]string{instances + "sb.json", "--backend", "getwitness"}, "no selected backend (getwitness) decides tso rf instances"},
		{[]string{}, "accepts 1 arg"},
	}
	files, _ := filepath.Glob(bad + "*.json")
	if len(files) != 11 {
		t.Errorf("%d files in %s, the table tests 11", len(files), bad)
	}
	for _, c := range cases {
		code, out, errs := cli(t, append([]string{"verify"}, c.args...)...)
		if code != exitBadInput || !strings.Contains(errs, c.want) {
			t.Errorf("verify %v: exit %d (want 2), stderr does not contain %q:\n%s%s", c.args, code, c.want, out, errs)
		}
		if len(c.args) == 1 && !strings.Contains(errs, filepath.Base(c.args[0])) {
			t.Errorf("verify %v: the error does not name the file: %s", c.args, errs)
		}
	}
}

// TestVerifyJSON checks the JSON record: every backend that decides the
// instance answers, with a witness that the validator accepts.
func TestVerifyJSON(t *testing.T) {
	file := instances + "mp.json"
	inst, err := program.ReadInstanceFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := cli(t, "verify", file, "--json", "--timeout", "10s")
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	var rec verifyRecord
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := len(supporting(backends(), inst))
	if !z3.Available() {
		want--
	}
	if rec.Type != "verify" || len(rec.Results) != want || len(rec.Problems) != 0 || rec.Expect == nil {
		t.Errorf("record: %+v", rec)
	}
	for _, o := range rec.Results {
		if o.Verdict != rec.Verdict || (o.Verdict == realizable) != (len(o.Witness) > 0) || o.Invalid != "" {
			t.Errorf("%s: %+v", o.Backend, o)
		}
	}
}

// liar is a faulty backend: it calls every instance realizable with an
// empty witness.
type liar struct{}

func (liar) Name() string { return "liar" }
func (liar) Decide(context.Context, *program.Instance) (program.InstanceAnswer, error) {
	return program.InstanceAnswer{Sat: true, Witness: program.Witness{}}, nil
}

// contrarian is a faulty backend that calls every instance unrealizable.
type contrarian struct{}

func (contrarian) Name() string { return "contrarian" }
func (contrarian) Decide(context.Context, *program.Instance) (program.InstanceAnswer, error) {
	return program.InstanceAnswer{}, nil
}

// withFaulty adds the faulty backends to the table for one test.
func withFaulty(t *testing.T) {
	t.Cleanup(func() { backends = allBackends })
	backends = func() []backend {
		all := func(*program.Instance) bool { return true }
		return append(allBackends(),
			backend{Name: "liar", Group: "faulty", Supports: all, New: func(time.Duration) program.Decider { return liar{} }},
			backend{Name: "contrarian", Group: "faulty", Supports: all, New: func(time.Duration) program.Decider { return contrarian{} }})
	}
}

// TestVerifyDisagreement checks that verify reports a disagreement, an
// invalid witness and a contradicted expectation with exit code 1.
func TestVerifyDisagreement(t *testing.T) {
	withFaulty(t)
	code, out, _ := cli(t, "verify", instances+"sb.json", "--backend", "naive,contrarian")
	if code != exitFinding || !strings.Contains(out, "disagreement: naive says realizable, contrarian says unrealizable") {
		t.Errorf("contrarian: exit %d:\n%s", code, out)
	}
	code, out, _ = cli(t, "verify", instances+"sb.json", "--backend", "contrarian")
	if code != exitFinding || !strings.Contains(out, "the instance file expects realizable, the backends say unrealizable") {
		t.Errorf("contrarian alone: exit %d:\n%s", code, out)
	}
	code, out, _ = cli(t, "verify", instances+"sb.json", "--backend", "liar")
	if code != exitFinding || !strings.Contains(out, "liar returned an invalid witness") {
		t.Errorf("liar: exit %d:\n%s", code, out)
	}
}

// crossSummaryOf runs crosscheck --json with args and decodes the summary.
func crossSummaryOf(t *testing.T, want int, args ...string) crossSummary {
	t.Helper()
	code, out, errs := cli(t, append([]string{"crosscheck", "--json"}, args...)...)
	if code != want {
		t.Fatalf("crosscheck %v: exit %d, want %d:\n%s%s", args, code, want, out, errs)
	}
	var s crossSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return s
}

// TestCrosscheck runs a small crosscheck of every model and kind: the
// backends agree, both verdicts occur, and every instance is decided.
func TestCrosscheck(t *testing.T) {
	for _, mk := range [][2]string{{"sc", "goodwrites"}, {"sc", "rf"}, {"tso", "rf"}, {"pso", "rf"}, {"tso", "goodwrites"}, {"pso", "goodwrites"}} {
		s := crossSummaryOf(t, exitOK, "--mm", mk[0], "--kind", mk[1], "--count", "60", "--threads", "2-3", "--events", "2-4", "--locks", "0-1")
		if s.Done != 60 || s.Realizable+s.Unrealizable != 60 || s.Realizable < 10 || s.Unrealizable < 10 || len(s.Failures) != 0 {
			t.Errorf("%v: %+v", mk, s)
		}
		for _, b := range s.Backends {
			if b.Runs != 60 || b.Agree != 60 {
				t.Errorf("%v: %+v", mk, b)
			}
		}
	}
	code, out, _ := cli(t, "crosscheck", "--count", "20")
	if code != exitOK || !strings.Contains(out, "median ms") || !strings.Contains(out, "disagreements: 0, invalid witnesses: 0") {
		t.Errorf("table: exit %d:\n%s", code, out)
	}
}

// TestCrosscheckWorkers checks that instance i does not depend on the
// number of workers.
func TestCrosscheckWorkers(t *testing.T) {
	args := []string{"--mm", "tso", "--count", "80", "--seed", "9", "--backend", "naive"}
	a := crossSummaryOf(t, exitOK, append(args, "--workers", "1")...)
	b := crossSummaryOf(t, exitOK, append(args, "--workers", "3")...)
	if a.Realizable != b.Realizable || a.MeanEvents != b.MeanEvents {
		t.Errorf("workers 1: %d realizable, mean %.2f events; workers 3: %d, %.2f", a.Realizable, a.MeanEvents, b.Realizable, b.MeanEvents)
	}
}

// TestCrosscheckFailures checks that failures are counted, written as
// instance files that read back, and that verify reproduces them.
func TestCrosscheckFailures(t *testing.T) {
	withFaulty(t)
	dir := t.TempDir()
	s := crossSummaryOf(t, exitFinding, "--mm", "pso", "--count", "12", "--backend", "naive,contrarian,liar", "--out", dir)
	if s.Disagreements != s.Realizable || s.Invalid != 12 || len(s.Failures) != 12 {
		t.Fatalf("summary: %+v", s)
	}
	for _, f := range s.Failures {
		inst, err := program.ReadInstanceFile(f.File)
		if err != nil {
			t.Fatalf("failure file: %v", err)
		}
		if inst.Model != program.PSO || !strings.HasPrefix(inst.Name, fmt.Sprintf("crosscheck-pso-rf-seed1-%d", f.Index)) {
			t.Errorf("%s: %s %s", f.File, inst.Name, inst.Model)
		}
		data, _ := os.ReadFile(f.File)
		if !strings.Contains(string(data), `"comment": "mcr crosscheck --mm pso --kind rf --seed 1`) {
			t.Errorf("%s has no comment:\n%s", f.File, data)
		}
		if code, out, _ := cli(t, "verify", f.File, "--backend", "explicit,naive"); code != exitOK {
			t.Errorf("verify %s: exit %d\n%s", f.File, code, out)
		}
	}
}

// TestCrosscheckBadInput checks flag validation.
func TestCrosscheckBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--mm", "arm"}, `--mm "arm"`},
		{[]string{"--kind", "sometimes"}, `--kind "sometimes"`},
		{[]string{"--threads", "0"}, "--threads"},
		{[]string{"--events", "5-3"}, "--events"},
		{[]string{"--vars", "x"}, "--vars"},
		{[]string{"--count", "0"}, "--count"},
		{[]string{"--perturb", "2"}, "--perturb"},
		{[]string{"--mm", "tso", "--kind", "goodwrites", "--backend", "getwitness"}, "no selected backend"},
		{[]string{"extra"}, "stat extra"}, // instance files to decide: none there
		{[]string{"../../cmd"}, "no *.json instance files"},
	}
	for _, c := range cases {
		code, out, errs := cli(t, append([]string{"crosscheck"}, c.args...)...)
		if code != exitBadInput || !strings.Contains(errs, c.want) {
			t.Errorf("crosscheck %v: exit %d, stderr does not contain %q:\n%s%s", c.args, code, c.want, out, errs)
		}
	}
}
