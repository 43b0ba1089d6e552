package main

// This file checks that crosscheck streams its instances (issue 13, case
// 19: --count 100000000 allocated every instance's result up front and died
// out of memory): a huge --count with an expired --timeout stops at once
// with the counts so far, and what a run keeps (time distributions, listed
// failures and undecided answers) is bounded whatever the count.

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCrosscheckHugeCount: a run of 10^9 instances cut by --timeout is
// incomplete (exit 3) and counts what it decided; nothing is allocated per
// instance up front.
func TestCrosscheckHugeCount(t *testing.T) {
	s := crossSummaryOf(t, exitIncomplete, "--count", "1000000000", "--timeout", "1ns", "--backend", "naive")
	if s.Count != 1000000000 || s.Done >= s.Count || s.Realizable+s.Unrealizable+s.Undecided != s.Done {
		t.Errorf("summary: %+v", s)
	}
	code, out, errs := cli(t, "crosscheck", "--count", "1000000000", "--timeout", "1ns", "--backend", "naive")
	if code != exitIncomplete || !strings.Contains(out, "of 1000000000 sc rf instances") {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
}

// TestCrosscheckTimeoutFlags: --timeout is the run's limit, --query-timeout
// a backend's on one instance; both are validated as durations.
func TestCrosscheckTimeoutFlags(t *testing.T) {
	s := crossSummaryOf(t, exitOK, "--count", "30", "--timeout", "10m", "--query-timeout", "30s", "--backend", "naive,explicit")
	if s.Done != 30 {
		t.Errorf("summary: %+v", s)
	}
	for _, flag := range []string{"--timeout", "--query-timeout"} {
		if code, _, errs := cli(t, "crosscheck", flag, "soon"); code != exitBadInput || !strings.Contains(errs, flag) {
			t.Errorf("%s soon: exit %d: %s", flag, code, errs)
		}
	}
}

// TestLatencies: up to maxExact times the percentiles are the nearest-rank
// values; beyond, the histogram's are within 1% of them, and the maximum
// and total stay exact.
func TestLatencies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 1000, maxExact, 3*maxExact + 17} {
		var l latencies
		var all []float64
		var total float64
		for range n {
			// Times as decide measures them: whole microseconds, some 0,
			// spread over six orders of magnitude.
			ms := math.Round(math.Exp(rng.Float64()*14-7)*1000) / 1000
			if rng.IntN(50) == 0 {
				ms = 0
			}
			l.add(ms)
			all = append(all, ms)
			total += ms
		}
		if n > maxExact && (l.exact != nil || l.hist == nil) || n <= maxExact && l.hist != nil {
			t.Errorf("n %d: exact %d values, histogram %v", n, len(l.exact), l.hist != nil)
		}
		slices.Sort(all)
		for _, p := range []float64{0, 0.5, 0.95, 1} {
			got, want := l.percentile(p), percentile(all, p)
			ok := got == want
			if n > maxExact {
				ok = got >= want && got <= max(want*1.01, latMinMs)
			}
			if !ok {
				t.Errorf("n %d: percentile %.2f = %v, nearest rank %v", n, p, got, want)
			}
		}
		if n > 0 && (l.max != all[n-1] || math.Abs(l.total-total) > 1e-6*total) {
			t.Errorf("n %d: max %v total %v, want %v %v", n, l.max, l.total, all[n-1], total)
		}
	}
}

// TestCrossTallyBounded: a tally lists the maxListed failures and
// undecided answers of smallest instance number, in order, whatever the
// order they come in, and counts the rest.
func TestCrossTallyBounded(t *testing.T) {
	run := []backend{{Name: "a"}, {Name: "b"}}
	tally := newCrossTally(run)
	const n = 5*maxListed + 3
	order := rand.New(rand.NewPCG(3, 4)).Perm(n)
	for _, i := range order {
		r := crossResult{done: true, events: 10, j: judgement{Verdict: realizable, Problems: []string{}},
			outs: []outcome{{Backend: "a", Verdict: realizable, Ms: 1}, {Backend: "b", Verdict: realizable, Ms: 2}}}
		switch i % 3 {
		case 0: // b could not decide
			r.outs[1] = outcome{Backend: "b", Verdict: unknown, Error: "timeout", Ms: 3}
		case 1: // b disagrees
			r.outs[1].Verdict = unrealizable
			r.j.Problems = []string{"disagreement: a says realizable, b says unrealizable"}
		}
		tally.add(i, r)
	}
	tally.add(n, crossResult{}) // cut short: not counted
	s := tally.summary(&crosscheckFlags{}, 0, 0, run)
	failures, unknowns := (n+1)/3, (n+2)/3
	if s.Done != n || s.Disagreements != failures || s.MeanEvents != 10 {
		t.Errorf("done %d, disagreements %d, mean %v", s.Done, s.Disagreements, s.MeanEvents)
	}
	if len(s.Failures) != maxListed || s.FailuresOmitted != failures-maxListed ||
		len(s.Unknowns) != maxListed || s.UnknownsOmitted != unknowns-maxListed {
		t.Fatalf("listed %d+%d failures, %d+%d unknowns; want %d, %d", len(s.Failures), s.FailuresOmitted,
			len(s.Unknowns), s.UnknownsOmitted, failures, unknowns)
	}
	for k := range maxListed {
		if s.Failures[k].Index != 3*k+1 || s.Unknowns[k].Index != 3*k || s.Unknowns[k].Backend != "b" {
			t.Fatalf("entry %d: failure %+v, unknown %+v", k, s.Failures[k], s.Unknowns[k])
		}
	}
	if b := s.Backends[1]; b.Runs != n || b.Unknown != unknowns || b.Agree != n-failures-unknowns || b.MaxMs != 3 {
		t.Errorf("backend b: %+v", b)
	}
}

// TestCrosscheckAPO: --kind apo decides random annotated partial orders
// with Realize beside the backends, all agreeing; it is SC only.
func TestCrosscheckAPO(t *testing.T) {
	s := crossSummaryOf(t, exitOK, "--kind", "apo", "--count", "60", "--threads", "2-3", "--events", "2-5", "--vars", "1-3", "--values", "3", "--backend", "explicit,naive")
	i := slices.IndexFunc(s.Backends, func(b backendStats) bool { return b.Backend == realizeName })
	if s.Kind != "apo" || s.Done != 60 || i < 0 || s.Backends[i].Agree != 60 || s.Realizable == 0 || s.Unrealizable == 0 {
		t.Errorf("summary: %+v", s)
	}
	if code, _, errs := cli(t, "crosscheck", "--kind", "apo", "--mm", "tso"); code != exitBadInput || !strings.Contains(errs, "SC only") {
		t.Errorf("--kind apo --mm tso: exit %d: %s", code, errs)
	}
}
