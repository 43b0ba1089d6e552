// This file implements the RAPID STD format: THREAD|OP(ARG)|LOC.

package tracefile

import (
	"bytes"
	"fmt"
	"math"

	"mcr/program"
)

// stdSkip is returned by stdKind for the RAPID events that are validated and
// dropped.
const stdSkip = program.Kind(255)

// stdKind maps an STD operation name to its kind.
func stdKind(op []byte) (program.Kind, bool) {
	switch string(op) {
	case "r":
		return program.Read, true
	case "w":
		return program.Write, true
	case "acq":
		return program.Acquire, true
	case "rel":
		return program.Release, true
	case "fork":
		return program.Fork, true
	case "join":
		return program.Join, true
	case "begin":
		return program.Begin, true
	case "end":
		return program.End, true
	case "dummy", "enter", "exit":
		return stdSkip, true
	}
	return 0, false
}

// parseSTD parses one non-empty, trimmed STD line.
func (r *Reader) parseSTD(line []byte) (program.Event, bool, string) {
	var none program.Event
	i := bytes.IndexByte(line, '|')
	if i < 0 {
		return none, false, "missing field: want THREAD|OP(ARG)|LOC"
	}
	j := bytes.IndexByte(line[i+1:], '|')
	if j < 0 {
		return none, false, "missing field: want THREAD|OP(ARG)|LOC"
	}
	th, op, third := line[:i], line[i+1:i+1+j], line[i+2+j:]
	if bytes.IndexByte(third, '|') >= 0 {
		return none, false, "too many fields: want THREAD|OP(ARG)|LOC"
	}
	if !plainName(th, false) {
		return none, false, fmt.Sprintf("bad thread id %q", clip(th))
	}
	name, arg, hasArg := op, []byte(nil), false
	if p := bytes.IndexByte(op, '('); p >= 0 {
		if op[len(op)-1] != ')' {
			return none, false, fmt.Sprintf("missing ')' in %q", clip(op))
		}
		name, arg, hasArg = op[:p], op[p+1:len(op)-1], true
	}
	kind, ok := stdKind(name)
	if !ok {
		return none, false, fmt.Sprintf("unknown event kind %q", clip(name))
	}
	n, ok := parseInt(third)
	if r.opts.ThirdFieldIsValue {
		if !ok {
			return none, false, fmt.Sprintf("bad value %q", clip(third))
		}
	} else if !ok || n < 0 || n > math.MaxInt32 {
		return none, false, fmt.Sprintf("bad location %q", clip(third))
	}
	if kind == stdSkip {
		return none, false, ""
	}
	if !hasArg && kind != program.Begin && kind != program.End {
		return none, false, fmt.Sprintf("missing argument: want %s(...)", name)
	}
	switch kind {
	case program.Read, program.Write:
		if !plainName(arg, true) {
			return none, false, fmt.Sprintf("bad variable name %q", clip(arg))
		}
	case program.Acquire, program.Release:
		if !plainName(arg, true) {
			return none, false, fmt.Sprintf("bad lock name %q", clip(arg))
		}
	case program.Fork, program.Join:
		if !plainName(arg, false) {
			return none, false, fmt.Sprintf("bad thread id %q", clip(arg))
		}
	}
	t := r.thread(th)
	var loc program.Loc
	var value int64
	switch kind {
	case program.Read, program.Write:
		loc = r.loc(arg, false)
		if r.opts.ThirdFieldIsValue {
			value = n
		}
	case program.Acquire, program.Release:
		loc = r.loc(arg, true)
	case program.Fork, program.Join:
		child := r.thread(arg)
		if msg := r.forkJoin(kind, t, child); msg != "" {
			return none, false, msg
		}
		value = int64(child)
	}
	var pos int32
	if !r.opts.ThirdFieldIsValue {
		pos = int32(n)
	}
	ev, msg := r.event(t, kind, loc, value, pos)
	return ev, msg == "", msg
}
