package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const traceDir = "../../testdata/traces/"

func TestPredictExitCodes(t *testing.T) {
	cases := []cliCase{
		{[]string{"predict", traceDir + "lockflag.json", "--decider", "explicit"}, exitFinding, "race 1: line 10 / line 23"},
		{[]string{"predict", traceDir + "lockflag.std", "--decider", "both"}, exitFinding, "racy events: 2 (1 racing with an earlier event)"},
		{[]string{"predict", traceDir + "nullderef.json", "--decider", "explicit"}, exitFinding, "null dereference 1: line 11"},
		{[]string{"predict", traceDir + "forkjoin.json", "--decider", "explicit"}, exitOK, "result: no finding"},
		{[]string{"predict", traceDir + "valueflag.std", "--decider", "explicit", "--window", "0"}, exitOK, "1 candidates"},
		{[]string{"predict", traceDir + "forkjoin.json", "--decider", "explicit", "--timeout", "1ns"}, exitIncomplete, "incomplete"},
		// a race across a window boundary: found in the overlap; missed
		// without it or with windows of 2, which must say so
		{[]string{"predict", traceDir + "straddle.std", "--window", "4"}, exitFinding, "race 1: line 10 / line 22"},
		{[]string{"predict", traceDir + "straddle.std", "--window", "4", "--overlap", "-1"}, exitIncomplete, "far pairs (in no common window): 1; location pairs of them without a witness: 1"},
		{[]string{"predict", traceDir + "straddle.std", "--window", "2"}, exitIncomplete, "in no common window, were not examined"},
		{[]string{"predict", traceDir + "bad/heldlock.std"}, exitBadInput, "heldlock.std:3: T1 acquires l, held by T0"},
		{[]string{"predict", traceDir + "bad/badkind.std"}, exitBadInput, `badkind.std:3: unknown event kind "jion"`},
		{[]string{"predict", traceDir + "lockflag.json", "--format", "std"}, exitBadInput, "lockflag.json:1"},
		{[]string{"predict", traceDir + "lockflag.json", "--format", "xml"}, exitBadInput, "unknown --format"},
		{[]string{"predict", traceDir + "lockflag.json", "--decider", "oracle"}, exitBadInput, "unknown decider"},
		{[]string{"predict", traceDir + "lockflag.json", "--window", "-3"}, exitBadInput, "--window"},
		{[]string{"predict", "no-such-trace.std"}, exitBadInput, "no-such-trace.std"},
		{[]string{"predict"}, exitBadInput, "accepts 1 arg"},
	}
	runCLICases(t, cases)
}

// TestPredictJSON checks the JSON-lines contract: findings, then a stats
// record with the documented fields.
func TestPredictJSON(t *testing.T) {
	code, out, errs := cli(t, "predict", traceDir+"lostupdate.vals.txt", "--json", "--decider", "explicit")
	if code != exitFinding {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want a race line and a stats line:\n%s", out)
	}
	var race, stats map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &race); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &stats); err != nil {
		t.Fatal(err)
	}
	if race["type"] != "race" || race["racy_events"].(float64) != 2 || len(race["witness"].(map[string]any)["events"].([]any)) == 0 {
		t.Errorf("race record: %v", race)
	}
	for _, k := range []string{"events", "threads", "pairs", "pruned_mhb", "pruned_lockset", "candidates", "queries", "sat", "unsat",
		"racy_events", "complete", "seconds", "phases", "races"} {
		if _, ok := stats[k]; !ok {
			t.Errorf("stats record lacks %q: %v", k, stats)
		}
	}
	if stats["type"] != "stats" || stats["races"].(float64) != 1 || stats["events"].(float64) != 13 {
		t.Errorf("stats record: %v", stats)
	}
	// the findings, as in check's stats record
	if fs, ok := stats["findings"].([]any); !ok || len(fs) != 1 || fs[0].(map[string]any)["kind"] != "race" {
		t.Errorf("stats record's findings: %v", stats["findings"])
	}
}

// TestPredictNotAnExecution: a thread with an event before its fork is bad
// input (exit 2) naming the file, the line and the problem, in every
// format; it used to panic (issue 13, case 3).
func TestPredictNotAnExecution(t *testing.T) {
	dir := t.TempDir()
	for name, in := range map[string]string{
		"late.std":      "T1|w(x)|10\nT0|fork(T1)|1\nT0|r(x)|2\n",
		"late.vals.txt": "Write 1 x 1\nFork 0 1 0\nRead 0 x 1\n",
		"late.json": `{"threads":["0","1"],"events":[{"thread":"1","index":0,"kind":"write","loc":1,"value":5},` +
			`{"thread":"0","index":0,"kind":"fork","child":"1","value":0},{"thread":"0","index":1,"kind":"read","loc":1,"value":5}]}`,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		where := path + ":2: "
		if strings.HasSuffix(name, ".json") {
			where = path + ": event 1: "
		}
		runCLICases(t, []cliCase{
			{[]string{"predict", path, "--decider", "explicit"}, exitBadInput, where + "T0 forks T1, but T1 has events before the fork"},
			{[]string{"predict", path, "--decider", "explicit", "--window", "0", "--json"}, exitBadInput, "a thread's events must come after its fork"},
		})
	}
}
