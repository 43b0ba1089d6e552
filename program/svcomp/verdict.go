package svcomp

import (
	"fmt"
	"math"
	"strconv"

	"mcr/program"
	"mcr/program/explore"
	"mcr/program/sym"
)

// This file decides the verdict of a property from a search's result.

// Verdict is SV-COMP's answer for one property.
type Verdict struct {
	Property string `json:"property"`
	// Result is TRUE, FALSE or UNKNOWN; Reason says why UNKNOWN.
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
	// Finding is the replayed finding a FALSE rests on, and Target where
	// its violation happens: the failing call, or the racing access that
	// runs second.
	Finding *explore.Finding  `json:"-"`
	Target  *explore.Location `json:"target,omitempty"`
	// Inputs are the values the finding's nondeterministic calls return
	// before the violation, in execution order (the witness's
	// function_return waypoints).
	Inputs []InputReturn `json:"inputs,omitempty"`
	// Expected is the task's expected verdict ("true", "false", or "" if
	// it gives none) and Match the comparison: correct, WRONG, unknown.
	Expected string `json:"expected,omitempty"`
	Match    string `json:"match,omitempty"`
	// DataModel is the task's data model (mcr interprets every program in
	// LP64: its pointers and longs are 8 bytes).
	DataModel string `json:"data_model,omitempty"`
}

// The results.
const (
	True    = "TRUE"
	False   = "FALSE"
	Unknown = "UNKNOWN"
)

// String is the verdict as SV-COMP writes it: TRUE, FALSE(property),
// or UNKNOWN with the reason in parentheses.
func (v *Verdict) String() string {
	switch v.Result {
	case False:
		return "FALSE(" + v.Property + ")"
	case Unknown:
		return "UNKNOWN (" + v.Reason + ")"
	}
	return v.Result
}

// Unsure returns the verdict UNKNOWN for property p with the reason (a
// refused program, an unsupported property).
func Unsure(p Property, reason string) *Verdict {
	return &Verdict{Property: p.Name, Result: Unknown, Reason: reason}
}

// Decide returns the verdict for property p of the search res of prog,
// which reported only findings of p's kind (explore.Options.Kinds). TRUE
// needs a complete search; FALSE a finding of p's kind whose schedule
// replays to the violation; anything else is UNKNOWN.
func Decide(p Property, prog program.Program, res *explore.Result) *Verdict {
	if p.Kind == "" {
		return Unsure(p, p.Unsupported)
	}
	var replayErr error
	for i := range res.Findings {
		f := &res.Findings[i]
		if f.Kind != p.Kind {
			continue
		}
		target, inputs, err := confirm(prog, f)
		if err != nil {
			replayErr = err
			continue
		}
		return &Verdict{Property: p.Name, Result: False, Finding: f, Target: target, Inputs: inputs}
	}
	switch s := res.Stats; {
	case replayErr != nil:
		return Unsure(p, "the "+p.Kind+" finding does not replay: "+replayErr.Error())
	case s.Complete && s.Extra[explore.UnreportedKey(explore.KindRuntimeError)]+s.Extra[explore.UnreportedKey(explore.KindNullDereference)] > 0:
		// A thread stops at a runtime error, where C's behaviour is
		// undefined: what the program does after it was not explored, so
		// the property is not proven (and a front-end error would
		// otherwise become a silent TRUE).
		return Unsure(p, "an execution ended in a runtime error (undefined behaviour), after which the program was not explored; mcr check without the task file reports it")
	case s.Complete:
		return &Verdict{Property: p.Name, Result: True}
	case s.Stopped != "":
		return Unsure(p, "search incomplete: "+s.Stopped)
	case s.Unmodelled != "":
		return Unsure(p, "search incomplete: not every value explored: "+s.Unmodelled)
	case s.BoundedBy != "":
		return Unsure(p, "search incomplete: bounded executions: "+s.BoundedBy)
	}
	return Unsure(p, "search incomplete")
}

// Expect compares v with the expected verdict ("true", "false", or "").
func (v *Verdict) Expect(expected string) {
	v.Expected = expected
	switch {
	case expected == "":
		v.Match = ""
	case v.Result == Unknown:
		v.Match = "unknown"
	case (v.Result == True) == (expected == "true"):
		v.Match = "correct"
	default:
		v.Match = "WRONG"
	}
}

// confirm replays the schedule of f on prog and checks that it shows the
// violation: an assertion failure, or the two racing accesses back to
// back. It returns where the violation happens and the inputs read before
// it.
func confirm(prog program.Program, f *explore.Finding) (*explore.Location, []InputReturn, error) {
	x, err := program.Replay(explore.FindingProgram(prog, f), f.Schedule)
	if err != nil {
		return nil, nil, err
	}
	target, err := violation(x, f)
	if err != nil {
		return nil, nil, err
	}
	return target, inputReturns(x, f), nil
}

// violation returns where the replayed execution x of f's schedule shows
// f's violation.
func violation(x program.Execution, f *explore.Finding) (*explore.Location, error) {
	tr := x.Trace()
	switch f.Kind {
	case explore.KindAssertion:
		for _, v := range program.Failures(x) {
			if v.Kind == program.AssertionFailure && v.Message == f.Message {
				return ptr(explore.LocationOf(tr, v.Pos)), nil
			}
		}
		_, out := x.Done()
		return nil, fmt.Errorf("the replayed execution ends %s without the failure", out.Kind)
	case explore.KindRace:
		n := len(f.Schedule)
		if n < 2 {
			return nil, fmt.Errorf("a race schedule of %d steps", n)
		}
		at := map[program.EventID]int{}
		for i := range tr.Events {
			at[tr.Events[i].ID()] = i
		}
		a, okA := at[f.Schedule[n-2]]
		b, okB := at[f.Schedule[n-1]]
		if !okA || !okB || b != a+1 || !program.Conflicts(&tr.Events[a], &tr.Events[b]) {
			return nil, fmt.Errorf("the racing accesses do not run back to back")
		}
		pos := tr.Events[b].Pos
		return ptr(explore.LocationOf(tr, pos)), nil
	}
	return nil, fmt.Errorf("no verdict rests on a %s finding", f.Kind)
}

// InputReturn is the value a nondeterministic call returned: Value is a C
// constant of the call's type ("42", "4294967295U").
type InputReturn struct {
	Line  int32  `json:"line"`
	Col   int32  `json:"col"`
	Value string `json:"value"`
}

// inputReturns lists the calls' inputs that the replayed execution x of
// f's schedule read before the last step of the schedule, in execution
// order. Local code runs eagerly after each step (the thread goes on to
// its next event), so a thread's inputs read after its last step of the
// schedule, up to an assertion failure, are read at that step; inputs of
// threads the default policy runs after the schedule come later.
// Uninitialised locals (inputs with no call) have no waypoint.
func inputReturns(x program.Execution, f *explore.Finding) []InputReturn {
	cx, ok := x.(explore.ConcolicExecution)
	if !ok || cx.Concolic() == nil {
		return nil
	}
	tr := x.Trace()
	steps := map[program.EventID]bool{}
	for _, id := range f.Schedule {
		steps[id] = true
	}
	end := 0 // trace events up to the schedule's last step
	for i := range tr.Events {
		if steps[tr.Events[i].ID()] {
			end = i + 1
		}
	}
	vals := map[program.InputID]int64{}
	for _, v := range f.Inputs {
		vals[program.InputID{Thread: v.Thread, K: v.K}] = v.Value
	}
	var out []InputReturn
	for _, v := range cx.Concolic().Vars {
		if v.Call.Line == 0 || v.Step > end {
			continue
		}
		out = append(out, InputReturn{Line: v.Call.Line, Col: v.Call.Col, Value: cConst(v, v.Norm(vals[v.ID()]))})
	}
	return out
}

// cConst writes the value n of input v as a C constant of its type.
func cConst(v *sym.Var, n int64) string {
	switch {
	case !v.Signed && v.W == 8:
		return strconv.FormatUint(uint64(n), 10) + "U"
	case !v.Signed && v.W == 4:
		return strconv.FormatUint(uint64(uint32(n)), 10) + "U"
	case n == math.MinInt64:
		return "(-9223372036854775807 - 1)"
	}
	return strconv.FormatInt(n, 10)
}

func ptr(l explore.Location) *explore.Location { return &l }
