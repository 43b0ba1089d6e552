package main

import (
	"path/filepath"
	"testing"

	"mcr/program"
)

const tdIn = td + "inputs/"

// TestInputsCLI: programs with inputs through check and replay: findings
// with their input vector, complete and incomplete searches, the
// schedule file with the inputs, and replay reproducing the finding.
func TestInputsCLI(t *testing.T) {
	sched := filepath.Join(t.TempDir(), "s.json")
	runCLICases(t, []cliCase{
		{[]string{"check", tdIn + "threads_n.c", "--schedule-out", sched}, exitFinding, "T0#0=3"},
		{[]string{"check", tdIn + "threads_n.c", "--algo", "dfs"}, exitFinding, "T0#0=3"},
		{[]string{"check", tdIn + "safe.c"}, exitOK, "no finding (search complete)"},
		{[]string{"check", tdIn + "safe.c"}, exitOK, "scheduling explored again with rf: mcr stopped: a read's value does not tell its input term"},
		{[]string{"check", tdIn + "safe.c", "--algo", "rvf"}, exitOK, "scheduling explored with rf instead of rvf"},
		{[]string{"check", tdIn + "safe.c", "--algo", "dfs"}, exitOK, "input_vectors 4"},
		{[]string{"check", tdIn + "concurrent.c", "--algo", "rf", "--input-solver", "explicit"}, exitFinding, "assertion"},
		{[]string{"check", tdIn + "nonlinear.c", "--input-solver", "explicit"}, exitIncomplete, "--input-domain"},
		{[]string{"check", tdIn + "safe.c", "--max-inputs", "2"}, exitIncomplete, "input vector bound reached"},
		{[]string{"check", tdIn + "safe.c", "--input-solver", "magic"}, exitBadInput, "unknown solver"},
		{[]string{"check", tdIn + "threads_n.c", "--validate", "--keep-going"}, exitFinding, "validation: OK"},
	})
	// an uninitialised local becomes an input; its finding replays
	usched := filepath.Join(t.TempDir(), "u.json")
	runCLICases(t, []cliCase{
		{[]string{"check", tdIn + "uninit.c", "--schedule-out", usched}, exitFinding, "T0#0=42"},
		{[]string{"check", tdIn + "uninit.c", "--algo", "dfs"}, exitFinding, "uninitialised locals are inputs"},
		{[]string{"replay", tdIn + "uninit.c", "--schedule", usched}, exitFinding, "assertion `x == 0` failed"},
		// address-taken: escaped to another thread (no branch on it), and
		// read through a pointer into a branch
		{[]string{"check", tdIn + "uninit_escaped.c"}, exitOK, "no finding (search complete)"},
		{[]string{"check", tdIn + "uninit_escaped_branch.c"}, exitFinding, "T0#0=7"},
		{[]string{"check", tdIn + "uninit_escaped_branch.c", "--algo", "dfs"}, exitFinding, "T0#0=7"},
	})
	// rand() is an input only when asked; the schedule file says so, and
	// replay follows it without the flag
	rsched := filepath.Join(t.TempDir(), "r.json")
	runCLICases(t, []cliCase{
		{[]string{"check", tdIn + "rand.c"}, exitIncomplete, "call to srand"},
		{[]string{"check", tdIn + "rand.c", "--rand-inputs", "--schedule-out", rsched}, exitFinding, "data race"},
		{[]string{"replay", tdIn + "rand.c", "--schedule", rsched}, exitFinding, "data race"},
		{[]string{"check", tdIn + "rand.c", "--rand-inputs", "--algo", "dfs", "--keep-going"}, exitFinding, "input_vectors 3"},
	})
	sf, err := program.ReadScheduleFile(sched)
	if err != nil {
		t.Fatal(err)
	}
	if len(sf.Inputs) != 1 || sf.Inputs[0] != (program.InputValue{Thread: "0", K: 0, Value: 3}) {
		t.Errorf("schedule file inputs %v, want T0#0=3", sf.Inputs)
	}
	runCLICases(t, []cliCase{
		{[]string{"replay", tdIn + "threads_n.c", "--schedule", sched}, exitFinding, "assertion `x != 3` failed"},
	})
	// concurrent input-dependent branches: every algorithm complete, mcr
	// exploring the schedules itself; a read that takes one value with two
	// terms hands mcr's search to rf
	for _, c := range []struct{ file, algo, stats string }{
		{"concurrent.c", "rf", `"algorithm":"rf"`},
		{"concurrent.c", "mcr", `"algorithm":"mcr"`},
		{"concurrent.c", "dfs", `"algorithm":"dfs"`},
		{"same_value.c", "mcr", "scheduling explored again with rf: mcr stopped"},
	} {
		code, out, _ := cli(t, "check", tdIn+c.file, "--algo", c.algo, "--keep-going", "--json")
		if code != exitFinding || !contains(out, `"complete":true`) || !contains(out, c.stats) {
			t.Errorf("%s on %s: exit %d, output %s", c.algo, c.file, code, out)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestInputsZ3: the cases only Z3 solves (testdata/c/inputs/*.json with
// "solver": "z3"): one value of 2^32, a non-linear condition.
func TestInputsZ3(t *testing.T) {
	if newZ3InputSolver == nil {
		t.Skip("built without Z3's bit-vector terms")
	}
	runCLICases(t, []cliCase{
		{[]string{"check", tdIn + "magic.c"}, exitFinding, "T0#0=2230838453"},
		{[]string{"check", tdIn + "magic.c", "--input-solver", "z3", "--algo", "dfs"}, exitFinding, "T0#0=2230838453"},
		{[]string{"check", tdIn + "nonlinear.c", "--input-solver", "both"}, exitFinding, "x * x != 49"},
		{[]string{"check", tdIn + "threads_n.c", "--input-solver", "both", "--keep-going"}, exitFinding, "T0#0=3"},
		{[]string{"check", tdIn + "safe.c", "--input-solver", "both"}, exitOK, "search complete"},
		{[]string{"check", tdIn + "clock_deadline.c"}, exitOK, "search complete"},
	})
}

// TestScheduleKeepsOptions: a schedule found with --spurious-wakeups (or
// --no-spin-await) replays without the flag: the file carries it, as it
// carries --rand-inputs and --failing-locks. Without it the consumer
// that trusts one wait stays blocked and the replay reports no finding.
func TestScheduleKeepsOptions(t *testing.T) {
	dir := t.TempDir()
	sp, ns := filepath.Join(dir, "sp.json"), filepath.Join(dir, "ns.json")
	runCLICases(t, []cliCase{
		{[]string{"check", td + "condvar_spurious.c", "-D", "TRUST=1", "--spurious-wakeups", "--schedule-out", sp}, exitFinding, "assertion `ready` failed"},
		{[]string{"replay", td + "condvar_spurious.c", "--schedule", sp}, exitFinding, "assertion `ready` failed"},
		{[]string{"check", td + "cond_if.c", "--no-spin-await", "--spurious-wakeups", "--schedule-out", ns}, exitFinding, "assertion"},
		{[]string{"replay", td + "cond_if.c", "--schedule", ns}, exitFinding, "assertion"},
	})
	for _, c := range []struct {
		file string
		want func(*program.ScheduleFile) bool
	}{{sp, func(sf *program.ScheduleFile) bool { return sf.SpuriousWakeups && !sf.NoSpinAwait }},
		{ns, func(sf *program.ScheduleFile) bool { return sf.SpuriousWakeups && sf.NoSpinAwait }}} {
		sf, err := program.ReadScheduleFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !c.want(sf) {
			t.Errorf("%s: spurious_wakeups %v, no_spin_await %v", c.file, sf.SpuriousWakeups, sf.NoSpinAwait)
		}
	}
}
