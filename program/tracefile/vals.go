// This file implements the value format: KIND TID ARG VALUE.

package tracefile

import (
	"fmt"

	"mcr/program"
)

// valsKind maps a value-format kind name to its kind.
func valsKind(name []byte) (program.Kind, bool) {
	switch string(name) {
	case "Read":
		return program.Read, true
	case "Write":
		return program.Write, true
	case "Acq":
		return program.Acquire, true
	case "Rel":
		return program.Release, true
	case "Fork":
		return program.Fork, true
	case "Join":
		return program.Join, true
	case "Begin":
		return program.Begin, true
	case "End":
		return program.End, true
	}
	return 0, false
}

// decimalID reports whether b is a decimal thread id.
func decimalID(b []byte) bool {
	if len(b) == 0 || len(b) > 18 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseVals parses one non-empty, trimmed value-format line.
func (r *Reader) parseVals(line []byte) (program.Event, bool, string) {
	var none program.Event
	var f [4][]byte
	switch n := fields(line, f[:]); {
	case n < 4:
		return none, false, "missing field: want KIND TID ARG VALUE"
	case n > 4:
		return none, false, "too many fields: want KIND TID ARG VALUE"
	}
	kind, ok := valsKind(f[0])
	if !ok {
		return none, false, fmt.Sprintf("unknown event kind %q", clip(f[0]))
	}
	if !decimalID(f[1]) {
		return none, false, fmt.Sprintf("bad thread id %q", clip(f[1]))
	}
	value, ok := parseInt(f[3])
	if !ok {
		return none, false, fmt.Sprintf("bad value %q", clip(f[3]))
	}
	switch kind {
	case program.Read, program.Write:
		if !plainName(f[2], true) {
			return none, false, fmt.Sprintf("bad variable name %q", clip(f[2]))
		}
	case program.Acquire, program.Release:
		if !plainName(f[2], true) {
			return none, false, fmt.Sprintf("bad lock name %q", clip(f[2]))
		}
	case program.Fork, program.Join:
		if !decimalID(f[2]) {
			return none, false, fmt.Sprintf("bad thread id %q", clip(f[2]))
		}
	}
	t := r.thread(f[1])
	var loc program.Loc
	switch kind {
	case program.Read, program.Write:
		loc = r.loc(f[2], false)
	case program.Acquire, program.Release:
		loc, value = r.loc(f[2], true), 0
	case program.Fork, program.Join:
		child := r.thread(f[2])
		if msg := r.forkJoin(kind, t, child); msg != "" {
			return none, false, msg
		}
		value = int64(child)
	default:
		value = 0
	}
	ev, msg := r.event(t, kind, loc, value, 0)
	return ev, msg == "", msg
}
