package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const td = "../../testdata/c/"

func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodes(t *testing.T) {
	cases := []cliCase{
		{[]string{"check", td + "lastzero.c", "-D", "N=2"}, exitOK, "no finding (search complete)"},
		{[]string{"check", td + "lost_update.c"}, exitFinding, "stopped at the first"},
		{[]string{"check", td + "lost_update.c", "--keep-going"}, exitFinding, "assertion `x == 2` failed"},
		{[]string{"check", td + "lock_order_deadlock.c"}, exitFinding, "deadlock"},
		{[]string{"check", td + "null_deref.c", "--keep-going"}, exitFinding, "null-dereference"},
		// a race in an included header is located there, not in the checked file
		{[]string{"check", td + "header_race.c", "--keep-going"}, exitFinding, "at " + td + "include/counter.h:11:13\n"},
		{[]string{"check", td + "header_race.c", "--keep-going"}, exitFinding, "counter.h:12:2\n"},
		{[]string{"check", td + "spin.c", "--max-events", "20", "--no-spin-await"}, exitIncomplete, "incomplete"},
		{[]string{"check", td + "spin.c"}, exitOK, "no finding (search complete)"}, // the spin loop is an await
		{[]string{"check", "no-such-file.c"}, exitBadInput, "no-such-file.c"},
		{[]string{"check", td + "bad/syntax_error.c"}, exitBadInput, "syntax_error.c:7:2"},
		{[]string{"check", td + "bad/sem_open.c"}, exitBadInput, "unsupported"},
		{[]string{"check", td + "lastzero.c", "--no-such-flag"}, exitBadInput, "unknown flag"},
		{[]string{"check", td + "lastzero.c", "--algo", "magic"}, exitBadInput, "unknown algorithm"},
		{[]string{"check"}, exitBadInput, "accepts 1 arg"},
		{[]string{"frobnicate"}, exitBadInput, "unknown command"},
		{[]string{"version"}, exitOK, "mcr "},
	}
	runCLICases(t, cases)
}

// cliCase is one command line with its exit code and a substring of its
// stdout+stderr.
type cliCase struct {
	args []string
	code int
	want string
}

// runCLICases runs each case and reports those whose exit code or output
// differ.
func runCLICases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, c := range cases {
		code, out, errs := cli(t, c.args...)
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("mcr %s: exit %d (want %d), output does not contain %q:\n%s%s", strings.Join(c.args, " "), code, c.code, c.want, out, errs)
		}
	}
}

// TestJSONStats checks the JSON-lines contract: the last line is a stats
// record with the documented fields.
func TestJSONStats(t *testing.T) {
	code, out, _ := cli(t, "check", td+"lost_update.c", "--json", "--keep-going", "--algo", "dfs")
	if code != exitFinding {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"type", "executions", "rf_classes", "outcomes", "complete", "findings"} {
		if _, ok := last[k]; !ok {
			t.Errorf("stats record lacks %q: %v", k, last)
		}
	}
	if last["type"] != "stats" || last["rf_classes"].(float64) != 4 {
		t.Errorf("stats record: %v", last)
	}
	fs := last["findings"].([]any)
	kinds := map[string]bool{}
	for _, f := range fs {
		m := f.(map[string]any)
		kinds[m["kind"].(string)] = true
		if len(m["locations"].([]any)) == 0 || len(m["schedule"].([]any)) == 0 {
			t.Errorf("finding without locations or schedule: %v", m)
		}
	}
	if !kinds["assertion"] || !kinds["race"] {
		t.Errorf("finding kinds %v", kinds)
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.Contains(l, `"type":"finding"`) {
			t.Errorf("non-finding line before stats: %s", l)
		}
	}
}

// TestScheduleRoundTrip saves a finding's schedule and replays it.
func TestScheduleRoundTrip(t *testing.T) {
	for _, prog := range []string{"lost_update.c", "null_deref.c", "racy_flag.c", "lock_order_deadlock.c"} {
		sched := filepath.Join(t.TempDir(), "s.json")
		code, _, _ := cli(t, "check", td+prog, "--schedule-out", sched)
		if code != exitFinding {
			t.Fatalf("%s: check exit %d", prog, code)
		}
		code, out, errs := cli(t, "replay", td+prog, "--schedule", sched)
		if code != exitFinding || !strings.Contains(out, "outcome:") {
			t.Errorf("%s: replay exit %d:\n%s%s", prog, code, out, errs)
		}
	}
	code, _, errs := cli(t, "replay", td+"lost_update.c", "--schedule", "no-such.json")
	if code != exitBadInput || !strings.Contains(errs, "no-such.json") {
		t.Errorf("missing schedule: exit %d %s", code, errs)
	}
}

// TestDumpInstances harvests MCR's seeds as instance files and decides each
// again with every backend: they must all agree that it is realizable.
func TestDumpInstances(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := cli(t, "check", td+"lastzero.c", "-D", "N=4", "--dump-instances", dir); code != exitOK {
		t.Fatalf("check exit %d: %s", code, errs)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) < 10 {
		t.Fatalf("only %d instances dumped", len(files))
	}
	for _, f := range files {
		code, out, errs := cli(t, "verify", f)
		if code != exitOK || !strings.Contains(out, "realizable") {
			t.Errorf("%s: verify exit %d:\n%s%s", f, code, out, errs)
		}
	}
}

// TestBlockedExecutions runs issue 12's reproducers as a user would: every
// algorithm finds the assertion behind a failed assumption, and --validate
// (dfs beside the algorithm) agrees.
func TestBlockedExecutions(t *testing.T) {
	var cases []cliCase
	for _, algo := range []string{"mcr", "mcr-seeds", "rf", "rvf", "vc", "dfs"} {
		for _, f := range []string{"assume_await.c", "assume_stuck.c", "assume_locked.c"} {
			cases = append(cases, cliCase{[]string{"check", td + f, "--algo", algo, "--keep-going", "--validate"}, exitFinding,
				"validation: OK"})
		}
		cases = append(cases, cliCase{[]string{"check", td + "lamport.c", "--algo", algo, "--validate"}, exitOK, "validation: OK"})
	}
	cases = append(cases, cliCase{[]string{"check", td + "lamport.c", "--validate", "--validate-max", "100"}, exitIncomplete, "dfs was cut"})
	runCLICases(t, cases)
}

// TestRegistryRefusals: what the registry says an algorithm cannot do is
// refused in one place, with a message naming the flag (issue 14).
func TestRegistryRefusals(t *testing.T) {
	lz := td + "lastzero.c"
	runCLICases(t, []cliCase{
		{[]string{"check", td + "cas_counter.c", "--algo", "vc"}, exitIncomplete, "vc does not support compare-and-swap"},
		{[]string{"check", lz, "--algo", "mcr-seeds", "--mm", "tso"}, exitBadInput, "does not explore under --mm tso"},
		{[]string{"check", lz, "--mm", "arm"}, exitBadInput, "unknown memory model"},
		{[]string{"check", lz, "--algo", "rf", "--decider", "z3"}, exitBadInput, "asks no decider queries"},
		{[]string{"check", lz, "--algo", "dfs", "--dump-instances", t.TempDir()}, exitBadInput, "writes no instances"},
		{[]string{"check", lz, "--algo", "mcr", "--decider", "magic"}, exitBadInput, "takes --decider explicit, z3, both"},
		{[]string{"bench", "--dir", td, "--filter", "lastzero N=2", "--decider", "both"}, exitOK, "mcr-seeds"},
	})
}

// TestMemoryModelCLI: --mm on check, replay and bench. The litmus tests of
// testdata/c/mm fail exactly under the models that allow their weak
// behaviour; algorithms that do not explore under a model refuse it; a
// TSO finding's schedule carries its flushes and replays under the model
// saved with it (and not under SC).
func TestMemoryModelCLI(t *testing.T) {
	mm := td + "mm/"
	runCLICases(t, []cliCase{
		{[]string{"check", mm + "sb.c", "--algo", "dfs"}, exitOK, "no finding (search complete)"},
		{[]string{"check", mm + "sb.c", "--algo", "dfs", "--mm", "tso"}, exitFinding, "r1 == 1 || r2 == 1"},
		{[]string{"check", mm + "sb.c", "--algo", "dfs", "--mm", "tso", "-D", "FENCE"}, exitOK, "no finding (search complete)"},
		{[]string{"check", mm + "mp.c", "--algo", "dfs", "--mm", "tso"}, exitOK, "no finding (search complete)"},
		{[]string{"check", mm + "mp.c", "--algo", "dfs", "--mm", "pso"}, exitFinding, "== 42"},
		{[]string{"check", mm + "sb.c", "--algo", "mcr-seeds", "--mm", "pso"}, exitBadInput, "--algo mcr-seeds does not explore under --mm pso"},
		{[]string{"check", mm + "sb.c", "--algo", "mcr", "--mm", "tso", "--decider", "both"}, exitFinding, "r1 == 1 || r2 == 1"},
		{[]string{"check", mm + "mp.c", "--algo", "mcr", "--mm", "tso", "--decider", "z3"}, exitOK, "no finding (search complete)"},
		{[]string{"check", mm + "forward.c", "--algo", "mcr", "--mm", "pso", "--keep-going"}, exitFinding, "data race on x"},
		{[]string{"check", mm + "mp.c", "--algo", "rf", "--mm", "pso"}, exitFinding, "== 42"},
		{[]string{"check", mm + "sb.c", "--algo", "rf", "--mm", "tso", "-D", "FENCE"}, exitOK, "no finding (search complete)"},
		{[]string{"check", td + "lock_order_deadlock.c", "--algo", "rf", "--mm", "tso", "--keep-going", "--json"}, exitFinding, `"executions":3,"rf_classes":3,"outcomes":3,"blocked":0,"blocked_classes":0,"bounded":0,"events":54,"complete":true`},
		{[]string{"check", td + "cond_pc.c", "--algo", "rf", "--mm", "pso"}, exitOK, "no finding (search complete)"},
		{[]string{"check", td + "assume_await.c", "--algo", "mcr", "--mm", "tso", "--keep-going", "--json"}, exitFinding, `"executions":2,"rf_classes":1,"outcomes":0,"blocked":1,"blocked_classes":1,"bounded":0,"events":12,"complete":true`},
		{[]string{"check", td + "cas_counter.c", "--algo", "rf", "--mm", "tso"}, exitOK, "no finding (search complete)"},
		{[]string{"check", mm + "casspin.c", "--algo", "rf", "--mm", "tso"}, exitOK, "no finding (search complete)"},
		{[]string{"check", mm + "casspin.c", "--algo", "mcr", "--mm", "pso"}, exitFinding, "a == b"},
		{[]string{"check", td + "inputs/bool_writer.c", "--algo", "dfs", "--mm", "tso"}, exitBadInput, "does not support inputs"},
		// trylocks (both outcomes) and bounded executions: explored under
		// TSO/PSO as under SC, no longer a stop at the first one
		{[]string{"check", mm + "trylock.c", "--algo", "rf", "--mm", "tso", "-D", "HOLD", "--keep-going", "--json"}, exitOK, `"executions":2,"rf_classes":2,"outcomes":2,"blocked":0,"blocked_classes":0,"bounded":0,"events":31,"complete":true`},
		{[]string{"check", mm + "trylock.c", "--algo", "mcr", "--mm", "pso", "-D", "NOTRY", "--decider", "both"}, exitFinding, "!(f == 1 && d == 0)"},
		{[]string{"check", mm + "bounded.c", "--algo", "rf", "--mm", "pso", "--max-events", "4", "--keep-going", "--json"}, exitIncomplete, `"executions":7,"rf_classes":7,"outcomes":5,"blocked":0,"blocked_classes":0,"bounded":7,"bounded_by":"thread T0.0 reached the event bound (4)"`},
		{[]string{"check", mm + "bounded.c", "--algo", "mcr", "--mm", "tso", "--max-events", "4"}, exitIncomplete, "incomplete: bounded executions"},
		{[]string{"bench", "--dir", mm, "--mm", "pso", "--filter", "^mp"}, exitOK, "mp"},
	})
	// the seed instances mcr decides under TSO, cross-checked from files
	dump := t.TempDir()
	if code, out, errs := cli(t, "check", mm+"forward.c", "--algo", "mcr", "--mm", "tso", "--keep-going", "--dump-instances", dump); code != exitFinding {
		t.Fatalf("check exit %d:\n%s%s", code, out, errs)
	}
	if code, out, errs := cli(t, "crosscheck", dump, "--backend", "explicit,naive"); code != exitOK || !strings.Contains(out, "tso rf instances from files") {
		t.Errorf("crosscheck of the dumped instances: exit %d:\n%s%s", code, out, errs)
	}
	// with CAS (successful and failed) under PSO
	dump = t.TempDir()
	if code, out, errs := cli(t, "check", mm+"casspin.c", "--algo", "mcr", "--mm", "pso", "--keep-going", "--dump-instances", dump); code != exitFinding {
		t.Fatalf("check exit %d:\n%s%s", code, out, errs)
	}
	if code, out, errs := cli(t, "crosscheck", dump, "--backend", "explicit,naive"); code != exitOK || !strings.Contains(out, "pso rf instances from files") {
		t.Errorf("crosscheck of the dumped CAS instances: exit %d:\n%s%s", code, out, errs)
	}
	// with failed trylocks under TSO
	dump = t.TempDir()
	if code, out, errs := cli(t, "check", mm+"trylock.c", "--algo", "mcr", "--mm", "tso", "--keep-going", "--dump-instances", dump); code != exitOK {
		t.Fatalf("check exit %d:\n%s%s", code, out, errs)
	}
	if code, out, errs := cli(t, "crosscheck", dump, "--backend", "explicit,naive"); code != exitOK || !strings.Contains(out, "tso rf instances from files") {
		t.Errorf("crosscheck of the dumped trylock instances: exit %d:\n%s%s", code, out, errs)
	}
	sched := filepath.Join(t.TempDir(), "s.json")
	if code, out, errs := cli(t, "check", mm+"sb.c", "--algo", "dfs", "--mm", "tso", "--schedule-out", sched); code != exitFinding {
		t.Fatalf("check exit %d:\n%s%s", code, out, errs)
	}
	code, out, errs := cli(t, "replay", mm+"sb.c", "--schedule", sched)
	if code != exitFinding || !strings.Contains(out, "flush x = 1 (to memory)") {
		t.Errorf("replay exit %d:\n%s%s", code, out, errs)
	}
	if code, _, errs := cli(t, "replay", mm+"sb.c", "--schedule", sched, "--mm", "sc"); code != exitBadInput || !strings.Contains(errs, "cannot be flushed") {
		t.Errorf("replay under sc: exit %d %s", code, errs)
	}
}
