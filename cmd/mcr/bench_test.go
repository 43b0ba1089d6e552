package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestBenchCSV runs rf and rvf on the small lastzero and readers runs and
// checks the CSV: a header, one row per run and algorithm, rf exploring
// exactly the expected classes and rvf no more.
func TestBenchCSV(t *testing.T) {
	code, out, errs := cli(t, "bench", "--dir", td, "--algo", "rf,rvf", "--filter", `^(lastzero|readers) N=[12]$`, "--csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+4*2 || strings.Join(rows[0], ",") != strings.Join(benchHeader, ",") {
		t.Fatalf("got %d rows, header %v:\n%s", len(rows), rows[0], out)
	}
	for _, r := range rows[1:] {
		execs, _ := strconv.Atoi(r[3])
		want, _ := strconv.Atoi(r[5])
		if r[2] == "rf" && execs != want || r[2] == "rvf" && execs > want {
			t.Errorf("%s %s %s: %d executions, expected rf %d", r[0], r[1], r[2], execs, want)
		}
	}
}

// TestBenchJSON checks the JSON rows and the default table.
func TestBenchJSON(t *testing.T) {
	code, out, errs := cli(t, "bench", "--dir", td, "--algo", "rf", "--filter", `^lost_update`, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r benchRow
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Benchmark != "lost_update" || r.Algorithm != "rf" || r.Executions != 4 || !r.Complete || strings.Join(r.Findings, ",") != "assertion,race" {
		t.Errorf("row %+v", r)
	}
	code, out, _ = cli(t, "bench", "--dir", td, "--algo", "rf", "--filter", `^lastzero N=1$`)
	if code != exitOK || !strings.Contains(out, "expected rf") || !strings.Contains(out, "lastzero") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
}

func TestBenchBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--dir", td, "--filter", "("},
		{"bench", "--dir", td, "--algo", "magic"},
		{"bench", "--dir", td, "--csv", "--json"},
		{"bench", "--dir", "no-such-dir"},
	} {
		if code, out, errs := cli(t, args...); code != exitBadInput {
			t.Errorf("mcr %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitBadInput, out, errs)
		}
	}
}
