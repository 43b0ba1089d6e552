package explore

import (
	"sort"

	"mcr/program"
)

// This file builds findings, once for every explorer: the violation or
// deadlock an execution ended in, and a data race between two accesses.

// ExecutionFindings returns the findings of a finished execution x: each
// violation of a thread (an assertion, a runtime error, a null
// dereference; program.Failures) with the trace prefix that leads to it as
// its schedule, and a deadlock, located where its threads wait (in source
// order), with x's schedule. Several threads of one execution may fail: a
// violation stops only its thread (program.Failer).
func ExecutionFindings(x program.Execution) []Finding {
	tr := x.Trace()
	sched := tr.Schedule()
	var fs []Finding
	for _, v := range program.Failures(x) {
		f := Finding{Kind: v.Kind.String(), Message: v.Message, Schedule: sched[:v.Events:v.Events]}
		if v.Pos.Line > 0 {
			f.Locations = []Location{LocationOf(tr, v.Pos)}
		}
		fs = append(fs, f)
	}
	if _, out := x.Done(); out.Kind == program.Deadlock {
		fs = append(fs, Finding{Kind: out.Kind.String(), Message: out.Message, Schedule: sched, Locations: waitingAt(x)})
	}
	return fs
}

// waitingAt lists, in source order, where the waiting threads of a
// deadlocked execution wait.
func waitingAt(x program.Execution) []Location {
	var out []Location
	for t := 0; t < x.Threads(); t++ {
		if e, st := x.Pending(program.ThreadID(t)); st == program.Waiting {
			out = append(out, LocationOf(x.Trace(), e.Pos))
		}
	}
	SortLocations(out)
	return out
}

// RaceFinding returns the finding of a data race between the conflicting
// accesses a and b of tr's program (a and b need not be in tr: dfs races
// pending events), witnessed by schedule, which ends with the two accesses
// adjacent (seed 001 Section 3.3).
func RaceFinding(tr *program.Trace, a, b *program.Event, schedule program.Schedule) Finding {
	f := Finding{Kind: KindRace, Schedule: schedule,
		Message: "data race on " + tr.LocName(a.Loc) + " between " + tr.ThreadName(a.Thread) + " (" + a.Kind.String() + ") and " +
			tr.ThreadName(b.Thread) + " (" + b.Kind.String() + ")",
		Locations: []Location{LocationOf(tr, a.Pos), LocationOf(tr, b.Pos)}}
	SortLocations(f.Locations)
	return f
}

// SortLocations sorts ls by line, then column.
func SortLocations(ls []Location) {
	sort.Slice(ls, func(i, j int) bool {
		return ls[i].Line < ls[j].Line || ls[i].Line == ls[j].Line && ls[i].Col < ls[j].Col
	})
}
