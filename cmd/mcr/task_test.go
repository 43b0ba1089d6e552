package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"mcr/mcr/registry"
	"mcr/program/explore"
)

const tasks = "../../testdata/tasks/"

// TestTaskVerdicts checks SV-COMP tasks over testdata programs: verdicts,
// their comparison with the expected ones, and the exit codes.
func TestTaskVerdicts(t *testing.T) {
	cases := []cliCase{
		// racy_flag races, but its assertion holds: the race must neither
		// count for unreach-call nor stop that search
		{[]string{"check", tasks + "racy_flag.yml"}, exitFinding, "SV-COMP verdict: TRUE [unreach-call]; expected: true — correct"},
		{[]string{"check", tasks + "racy_flag.yml"}, exitFinding, "SV-COMP verdict: FALSE(no-data-race) [no-data-race]; expected: false — correct"},
		{[]string{"check", tasks + "racy_flag.yml"}, exitFinding, "mcr interprets the program in LP64"},
		{[]string{"check", tasks + "racy_flag.yml", "--property", "unreach-call"}, exitOK, "SV-COMP verdict: TRUE; expected: true — correct"},
		{[]string{"check", tasks + "racy_flag.yml", "--property", "properties/no-data-race.prp"}, exitFinding, "FALSE(no-data-race); expected: false — correct"},
		{[]string{"check", tasks + "locked_counter.yml"}, exitOK, "SV-COMP verdict: TRUE [no-data-race]; expected: true — correct"},
		{[]string{"check", tasks + "lost_update.yml"}, exitFinding, "SV-COMP verdict: FALSE(unreach-call); expected: false — correct"},
		{[]string{"check", tasks + "reach_error_empty.yml"}, exitFinding, "FALSE(unreach-call); expected: false — correct"},
		{[]string{"check", tasks + "no_expectation.yml"}, exitFinding, "SV-COMP verdict: FALSE(no-data-race)\n"},
		{[]string{"check", tasks + "wrong_expectation.yml"}, exitOK, "SV-COMP verdict: TRUE; expected: false — WRONG"},
		{[]string{"check", tasks + "overflow.yml"}, exitIncomplete, "SV-COMP verdict: UNKNOWN (property no-overflow is not supported"},
		{[]string{"check", tasks + "overflow.yml"}, exitIncomplete, "expected: true — unknown"},
		{[]string{"check", tasks + "format1.yml"}, exitFinding, "data model not given (format 1.0; checked as LP64)"},
		{[]string{"check", tasks + "format1.yml"}, exitFinding, "FALSE(no-data-race); expected: false — correct"},
		// a failed assertion stops only its thread: the racy write after it
		// is in rf's traces, so the race is found by every algorithm (rf
		// said a wrong TRUE when the failure ended the execution, then
		// UNKNOWN while a guard caught it)
		{[]string{"check", tasks + "assert_hides_race.yml", "--algo", "rf"}, exitFinding, "FALSE(no-data-race) [no-data-race]; expected: false — correct"},
		{[]string{"check", tasks + "assert_hides_race.yml", "--algo", "mcr-seeds"}, exitFinding, "FALSE(no-data-race) [no-data-race]; expected: false — correct"},
		{[]string{"check", tasks + "assert_hides_race.yml", "--algo", "dfs"}, exitFinding, "FALSE(no-data-race) [no-data-race]; expected: false — correct"},
		// undefined behaviour stops a thread: what follows is not explored,
		// so no TRUE (every algorithm counts the unreported runtime error)
		{[]string{"check", tasks + "ub_hides_error.yml"}, exitIncomplete, "UNKNOWN (an execution ended in a runtime error"},
		{[]string{"check", tasks + "ub_hides_error.yml", "--algo", "rf"}, exitIncomplete, "UNKNOWN (an execution ended in a runtime error"},
		{[]string{"check", tasks + "ub_hides_error.yml", "--algo", "dfs"}, exitIncomplete, "UNKNOWN (an execution ended in a runtime error"},
		{[]string{"check", tasks + "ub_hides_error.yml", "--algo", "mcr-seeds"}, exitIncomplete, "UNKNOWN (an execution ended in a runtime error"},
		// inputs of concurrent threads: rf covers them (it said incomplete,
		// and a task run explored again with dfs)
		{[]string{"check", tasks + "inputs_concurrent.yml"}, exitOK, "SV-COMP verdict: TRUE; expected: true — correct"},
		{[]string{"check", tasks + "inputs_concurrent.c"}, exitOK, "search complete"},
		{[]string{"check", tasks + "inputs_concurrent.c", "--algo", "rf"}, exitOK, "search complete"},
		// a lock whose result is tested may fail in a task run (SV-COMP's
		// reading, cfront/failinglock.go), never in a plain check; one whose
		// result is dropped always locks
		{[]string{"check", tasks + "failed_lock.yml"}, exitFinding, "FALSE(no-data-race); expected: false — correct"},
		{[]string{"check", tasks + "failed_lock.c"}, exitOK, "no finding (search complete)"},
		{[]string{"check", tasks + "failed_lock.c", "--failing-locks"}, exitFinding, "data race on counter"},
		{[]string{"check", tasks + "dropped_lock.yml"}, exitOK, "SV-COMP verdict: TRUE; expected: true — correct"},
		{[]string{"check", tasks + "dropped_lock.yml", "--algo", "dfs"}, exitOK, "SV-COMP verdict: TRUE; expected: true — correct"},
		// an iteration that read an input and a flag and kept nothing is
		// idle: the reader stops instead of spinning to the event bound
		{[]string{"check", tasks + "idle_input.yml"}, exitOK, "SV-COMP verdict: TRUE; expected: true — correct"},
		// threads beyond the thread bound are created but never run, so
		// main reaches its assertion after creating 10000
		{[]string{"check", tasks + "many_threads.yml"}, exitFinding, "FALSE(unreach-call); expected: false — correct"},
		// a task run raises the thread bound in stages: among 2 threads the
		// violation is found at once, among 32 not in 10 s
		{[]string{"check", tasks + "lock_mixup.yml", "--timeout", "10s"}, exitFinding, "FALSE(unreach-call); expected: false — correct"},
		// scanf's result and values are inputs; a conversion not made
		// leaves its object alone
		{[]string{"check", tasks + "scanf_input.yml"}, exitFinding, "SV-COMP verdict: TRUE [unreach-call]; expected: true — correct"},
		{[]string{"check", tasks + "scanf_input.yml"}, exitFinding, "FALSE(no-data-race) [no-data-race]; expected: false — correct"},
		// the other outcome of a trylock: rf explores both, so the
		// algorithms that explore one hand the program to rf
		{[]string{"check", tasks + "trylock_may_fail.yml"}, exitFinding, "SV-COMP verdict: FALSE(unreach-call); expected: false — correct"},
		{[]string{"check", tasks + "trylock_may_fail.yml", "--algo", "rvf"}, exitFinding, "trylocks_explored_with_rf 1"},
		{[]string{"check", td + "trylock_may_fail.c"}, exitFinding, "trylocks_explored_with_rf 1"},
		// a program with a trylock in its code goes to rf at once: rf's 3
		// executions, not mcr's 2 first (its first execution can take the
		// whole --timeout: goblint 04-mutex_35)
		{[]string{"check", td + "trylock_may_fail.c", "--keep-going"}, exitFinding, "statistics (rf): 3 executions"},
		{[]string{"check", td + "trylock_may_fail.c", "--algo", "mcr-seeds", "--keep-going"}, exitFinding, "trylocks_explored_with_rf 1"},
		{[]string{"check", td + "trylock_may_fail.c", "--algo", "vc"}, exitIncomplete, "vc does not support"},
		// SV-COMP runs an atomic section whole: the failure that needs a
		// plain write inside one is no run (it was a wrong FALSE), the race
		// is one
		{[]string{"check", tasks + "atomic_interrupted.yml"}, exitFinding, "needs T0.1's write of balance at line 25 inside the atomic section T0.0 entered at line 15"},
		{[]string{"check", tasks + "atomic_interrupted.yml"}, exitFinding, "[unreach-call]; expected: true — unknown"},
		{[]string{"check", tasks + "atomic_interrupted.yml", "--algo", "dfs"}, exitFinding, "[unreach-call]; expected: true — unknown"},
		{[]string{"check", tasks + "atomic_interrupted.yml"}, exitFinding, "FALSE(no-data-race) [no-data-race]; expected: false — correct"},
		// a function declared and never defined runs one of its
		// behaviours: the race it allows is found (it ended the execution,
		// UNKNOWN), and no search is complete
		{[]string{"check", tasks + "extern_getter.yml"}, exitFinding, "FALSE(no-data-race) [no-data-race]; expected: false — correct"},
		{[]string{"check", tasks + "extern_getter.yml"}, exitFinding, "call to current_account, which has no definition: taken as a function that returns without side effects, returning at each call the one global of its pointee type or one of two objects of its own (an input chooses); its other behaviours are not explored (line 23)) [unreach-call]; expected: true — unknown"},
		// an incomplete search is UNKNOWN, never TRUE
		{[]string{"check", tasks + "locked_counter.yml", "--max-events", "3", "--property", "unreach-call"}, exitIncomplete, "SV-COMP verdict: UNKNOWN (search incomplete: bounded executions"},
		// a plain C file with --property: a file or a name
		{[]string{"check", td + "racy_flag.c", "--property", tasks + "properties/unreach-call.prp"}, exitOK, "SV-COMP verdict: TRUE\n"},
		{[]string{"check", td + "racy_flag.c", "--property", "no-data-race"}, exitFinding, "SV-COMP verdict: FALSE(no-data-race)\n"},
		{[]string{"check", td + "racy_flag.c", "--property", "termination"}, exitIncomplete, "UNKNOWN (property termination is not supported"},
		{[]string{"check", td + "racy_flag.c", "--witness", "w.yml"}, exitBadInput, "--witness needs a property"},
		{[]string{"check", tasks + "racy_flag.yml", "--property", "no-overflow"}, exitBadInput, "has no property no-overflow"},
		{[]string{"check", tasks + "racy_flag.yml", "--validate"}, exitBadInput, "does not combine"},
	}
	runCLICases(t, cases)
}

// TestTaskEveryAlgorithm checks that every algorithm honours the finding
// kinds a property asks for: racy_flag's race must not make unreach-call
// anything but TRUE, nor hide the race from no-data-race.
func TestTaskEveryAlgorithm(t *testing.T) {
	for _, name := range strings.Fields(strings.ReplaceAll(registry.Names(), ",", " ")) {
		if _, _, err := lookupAlgo(name, &algoFlags{model: "sc", decider: explore.DefaultDecider}); err != nil {
			continue // not implemented yet
		}
		runCLICases(t, []cliCase{
			{[]string{"check", tasks + "racy_flag.yml", "--algo", name}, exitFinding, "TRUE [unreach-call]; expected: true — correct"},
			{[]string{"check", tasks + "racy_flag.yml", "--algo", name}, exitFinding, "FALSE(no-data-race) [no-data-race]; expected: false — correct"},
			{[]string{"check", tasks + "lost_update.yml", "--algo", name}, exitFinding, "FALSE(unreach-call); expected: false — correct"},
		})
	}
}

// TestTaskBadInput checks that malformed task files are refused with the
// file and the problem, never a panic.
func TestTaskBadInput(t *testing.T) {
	bad := tasks + "bad/"
	cases := []cliCase{
		{[]string{"check", bad + "syntax.yml"}, exitBadInput, "syntax.yml: not a task definition: yaml: line"},
		{[]string{"check", bad + "no_input.yml"}, exitBadInput, "no_input.yml: no input_files"},
		{[]string{"check", bad + "version.yml"}, exitBadInput, `version.yml: format_version "3.0": only 1.0, 1.1 and 2.0 are supported`},
		{[]string{"check", bad + "unknown_key.yml"}, exitBadInput, "unknown_key.yml: not a task definition: line 5: field expected_verdic is not a key"},
		{[]string{"check", bad + "verdict.yml"}, exitBadInput, "verdict.yml: line 5: expected_verdict must be true or false"},
		{[]string{"check", bad + "data_model.yml"}, exitBadInput, `data_model.yml: options.data_model "ILP16"`},
		{[]string{"check", bad + "empty.yml"}, exitBadInput, "empty.yml: empty task definition"},
		{[]string{"check", bad + "list.yml"}, exitBadInput, "list.yml: not a task definition: line 1: a list is not allowed here"},
		{[]string{"check", bad + "broken_property.yml"}, exitBadInput, `broken.prp: not a property: "this is not a property"`},
		{[]string{"check", bad + "missing_program.yml"}, exitBadInput, "SV-COMP verdict: UNKNOWN (refused: open "},
		{[]string{"check", bad + "no_such_task.yml"}, exitBadInput, "no_such_task.yml"},
	}
	runCLICases(t, cases)
}

// TestTaskJSON checks the verdict field of the JSON stats record.
func TestTaskJSON(t *testing.T) {
	code, out, errs := cli(t, "check", tasks+"lost_update.yml", "--json")
	if code != exitFinding {
		t.Fatalf("exit %d, want %d: %s", code, exitFinding, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var rec struct {
		Type    string `json:"type"`
		Verdict struct {
			Property, Result, Expected, Match string
			DataModel                         string `json:"data_model"`
		} `json:"svcomp"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil {
		t.Fatal(err)
	}
	v := rec.Verdict
	if rec.Type != "stats" || v.Property != "unreach-call" || v.Result != "FALSE" || v.Expected != "false" || v.Match != "correct" || v.DataModel != "ILP32" {
		t.Errorf("stats record %+v", rec)
	}
	// no search: a record of its own
	code, out, _ = cli(t, "check", tasks+"overflow.yml", "--json")
	if code != exitIncomplete || !strings.Contains(out, `"type":"verdict"`) || !strings.Contains(out, `"result":"UNKNOWN"`) {
		t.Errorf("exit %d, output %s", code, out)
	}
}

// TestTaskWitness checks the violation witness: format 2.0, the task's
// file and hash, and the target at the failing reach_error call.
func TestTaskWitness(t *testing.T) {
	entries, src := taskWitness(t, "reach_error_empty.yml")
	if len(entries) != 1 || len(entries[0].Content) != 1 || len(entries[0].Content[0].Segment) != 1 {
		t.Fatalf("witness layout:\n%s", src)
	}
	e := entries[0]
	m := e.Metadata
	wp := e.Content[0].Segment[0].Waypoint
	file := "../c/reach_error_empty.c"
	if e.EntryType != "violation_sequence" || m.FormatVersion != "2.0" || len(m.Task.InputFiles) != 1 || m.Task.InputFiles[0] != file ||
		len(m.Task.InputFileHashes[file]) != 64 || m.Task.DataModel != "LP64" || !strings.Contains(m.Task.Specification, "reach_error") {
		t.Errorf("witness metadata:\n%s", src)
	}
	// the reach_error call: the line in the program that calls it in main
	lines := strings.Split(readFile(t, td+"reach_error_empty.c"), "\n")
	if wp.Type != "target" || wp.Action != "follow" || wp.Location.FileName != file || wp.Location.Line < 1 ||
		wp.Location.Line > len(lines) || !strings.Contains(lines[wp.Location.Line-1][wp.Location.Column-1:], "reach_error(") {
		t.Errorf("target waypoint %+v:\n%s", wp, src)
	}
	// no FALSE verdict, no witness
	w2 := filepath.Join(t.TempDir(), "none.yml")
	code, out, _ := cli(t, "check", tasks+"locked_counter.yml", "--witness", w2)
	if _, err := os.Stat(w2); code != exitOK || err == nil || !strings.Contains(out, "no violation witness written") {
		t.Errorf("exit %d, witness written or not said:\n%s", code, out)
	}
}

// witnessEntry is the part of a witness entry the tests read.
type witnessEntry struct {
	EntryType string `yaml:"entry_type"`
	Metadata  struct {
		FormatVersion string `yaml:"format_version"`
		Task          struct {
			InputFiles      []string          `yaml:"input_files"`
			InputFileHashes map[string]string `yaml:"input_file_hashes"`
			Specification   string
			DataModel       string `yaml:"data_model"`
		}
	}
	Content []struct {
		Segment []struct {
			Waypoint struct {
				Type, Action string
				Location     struct {
					FileName     string `yaml:"file_name"`
					Line, Column int
				}
				Constraint struct{ Value, Format string }
			}
		}
	}
}

// taskWitness checks testdata/tasks' task (one unreach-call property,
// violated) with --witness and returns the witness parsed and as written.
func taskWitness(t *testing.T, task string) ([]witnessEntry, []byte) {
	t.Helper()
	w := filepath.Join(t.TempDir(), "witness.yml")
	code, out, errs := cli(t, "check", tasks+task, "--witness", w)
	if code != exitFinding || !strings.Contains(out, "violation witness (FALSE(unreach-call)) written to") {
		t.Fatalf("%s: exit %d:\n%s%s", task, code, out, errs)
	}
	src, err := os.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	var entries []witnessEntry
	if err := yaml.Unmarshal(src, &entries); err != nil {
		t.Fatal(err)
	}
	return entries, src
}

// TestTaskWitnessInputs checks the function_return waypoints of a
// violation that needs one input value out of 256, read by a child thread:
// the call's closing parenthesis, \result == 200, before the target.
func TestTaskWitnessInputs(t *testing.T) {
	entries, src := taskWitness(t, "input_witness.yml")
	if len(entries) != 1 || len(entries[0].Content) != 2 {
		t.Fatalf("want an input segment and the target segment:\n%s", src)
	}
	ret := entries[0].Content[0].Segment[0].Waypoint
	target := entries[0].Content[1].Segment[0].Waypoint
	lines := strings.Split(readFile(t, td+"inputs/child_input.c"), "\n")
	l := ret.Location
	if ret.Type != "function_return" || ret.Action != "follow" || l.FileName != "../c/inputs/child_input.c" ||
		l.Line < 1 || l.Line > len(lines) || l.Column < 1 || l.Column > len(lines[l.Line-1]) ||
		!strings.HasPrefix(lines[l.Line-1][l.Column-1:], ");") || !strings.Contains(lines[l.Line-1], "__VERIFIER_nondet_uchar(") ||
		ret.Constraint.Value != `\result == 200` || ret.Constraint.Format != "c_expression" {
		t.Errorf("input waypoint %+v:\n%s", ret, src)
	}
	if target.Type != "target" || !strings.Contains(lines[target.Location.Line-1], "assert(") {
		t.Errorf("target waypoint %+v:\n%s", target, src)
	}
	// an input read after the schedule's last step is not a waypoint
	if entries, src := taskWitness(t, "late_input.yml"); len(entries) != 1 || len(entries[0].Content) != 1 {
		t.Errorf("want the target segment alone:\n%s", src)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTaskScheduleReplays checks that the schedule of a task run's finding
// replays with a plain mcr replay: the schedule file carries what the task
// run turned on (failing locks), and a finding of an early thread-bound
// stage replays under the default bound (the threads it froze simply run
// after the violation).
func TestTaskScheduleReplays(t *testing.T) {
	for _, c := range []struct{ task, prog, want string }{
		{"failed_lock.yml", "failed_lock.c", "data race: steps"},
		{"lock_mixup.yml", "lock_mixup.c", "assertion `g == 0` failed"},
	} {
		sched := filepath.Join(t.TempDir(), "finding.json")
		if code, out, _ := cli(t, "check", tasks+c.task, "--schedule-out", sched); code != exitFinding {
			t.Fatalf("%s: exit %d, want a finding:\n%s", c.task, code, out)
		}
		code, out, errOut := cli(t, "replay", tasks+c.prog, "--schedule", sched)
		if code != exitFinding || !strings.Contains(out, c.want) {
			t.Errorf("replay of %s's finding: exit %d, want %d and %q:\n%s%s", c.task, code, exitFinding, c.want, out, errOut)
		}
	}
}
