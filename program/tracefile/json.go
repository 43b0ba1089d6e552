// This file implements the JSON format: program.TraceJSON, decoded one event
// at a time.

package tracefile

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"mcr/program"
)

// jsonSource walks the tokens of one TraceJSON object.
type jsonSource struct {
	dec   *json.Decoder
	state int
	n     int // events decoded
	vars  map[program.Loc]bool
	locks map[program.Loc]bool
	// rmw is the thread of the read-modify-write read just decoded, whose
	// write half must come next; -1 if none.
	rmw program.ThreadID
}

const (
	jsonStart  = iota // before the opening brace
	jsonKeys          // between the object's keys
	jsonEvents        // inside the events array
	jsonDone          // after the closing brace
)

func newJSONSource(in io.Reader) *jsonSource {
	dec := json.NewDecoder(in)
	dec.DisallowUnknownFields()
	return &jsonSource{dec: dec, vars: map[program.Loc]bool{}, locks: map[program.Loc]bool{}, rmw: -1}
}

func (r *Reader) jsonErr(format string, args ...any) error {
	return &ParseError{File: r.name, Msg: fmt.Sprintf(format, args...)}
}

// nextJSON returns the next event of a JSON trace. The "file" field becomes
// the trace's File; "threads" interns the thread names in their order, so a
// trace written by (*program.Trace).JSON keeps its ThreadIDs.
func (r *Reader) nextJSON() (program.Event, error) {
	s := r.js
	var none program.Event
	for {
		switch s.state {
		case jsonStart:
			tok, err := s.dec.Token()
			if err != nil || tok != json.Delim('{') {
				return none, r.jsonErr("not a JSON trace object (%s)", tokenText(tok, err))
			}
			s.state = jsonKeys
		case jsonKeys:
			tok, err := s.dec.Token()
			if err != nil {
				return none, r.jsonErr("%v", truncated(err))
			}
			if tok == json.Delim('}') {
				if tok, err := s.dec.Token(); err != io.EOF {
					return none, r.jsonErr("data after the trace object (%s)", tokenText(tok, err))
				}
				s.state = jsonDone
				continue
			}
			if msg := r.jsonField(tok); msg != "" {
				return none, r.jsonErr("%s", msg)
			}
		case jsonEvents:
			if !s.dec.More() {
				if _, err := s.dec.Token(); err != nil {
					return none, r.jsonErr("after event %d: %v", s.n, truncated(err))
				}
				if s.rmw >= 0 {
					return none, r.jsonErr("event %d: %s", s.n-1, errRMW)
				}
				s.state = jsonKeys
				continue
			}
			var j program.EventJSON
			if err := s.dec.Decode(&j); err != nil {
				return none, r.jsonErr("event %d: %v", s.n, truncated(err))
			}
			ev, msg := r.fromEventJSON(&j)
			if msg != "" {
				return none, r.jsonErr("event %d: %s", s.n, msg)
			}
			s.n++
			return ev, nil
		default:
			return none, io.EOF
		}
	}
}

// jsonField reads the value of the top-level key tok.
func (r *Reader) jsonField(tok json.Token) string {
	s := r.js
	switch tok {
	case "file":
		var f string
		if err := s.dec.Decode(&f); err != nil {
			return fmt.Sprintf("file: %v", err)
		}
		r.traceFile = f
	case "threads":
		var names []string
		if err := s.dec.Decode(&names); err != nil {
			return fmt.Sprintf("threads: %v", err)
		}
		for _, n := range names {
			if _, dup := r.threadID[n]; dup || n == "" {
				return fmt.Sprintf("threads: empty or duplicate thread name %q", n)
			}
			r.thread([]byte(n))
		}
	case "events":
		tok, err := s.dec.Token()
		switch {
		case err != nil:
			return fmt.Sprintf("events: %v", err)
		case tok == nil: // null: no events
		case tok == json.Delim('['):
			s.state = jsonEvents
		default:
			return fmt.Sprintf("events: want an array, have %s", tokenText(tok, nil))
		}
	default:
		return fmt.Sprintf("unknown field %s", tokenText(tok, nil))
	}
	return ""
}

// truncated turns an io.EOF inside the object into io.ErrUnexpectedEOF.
func truncated(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func tokenText(tok json.Token, err error) string {
	if err != nil {
		return err.Error()
	}
	if s, ok := tok.(string); ok {
		return fmt.Sprintf("%q", clip([]byte(s)))
	}
	return fmt.Sprint(tok)
}

const errRMW = "read-modify-write read not immediately followed by its write"

// fromEventJSON converts one event, checking its thread, index, kind and the
// consistency of location names.
func (r *Reader) fromEventJSON(j *program.EventJSON) (program.Event, string) {
	var none program.Event
	if j.Thread == "" {
		return none, "missing thread"
	}
	kind, ok := program.ParseKind(j.Kind)
	if !ok {
		return none, fmt.Sprintf("unknown event kind %q", clip([]byte(j.Kind)))
	}
	t := r.thread([]byte(j.Thread))
	if j.Index != r.nextIdx[t] || j.Index == math.MaxInt32 {
		return none, fmt.Sprintf("thread %q has index %d, want %d", clip([]byte(j.Thread)), j.Index, r.nextIdx[t])
	}
	ev := program.Event{Thread: t, Index: j.Index, Kind: kind, Loc: j.Loc, Value: j.Value, Pos: program.Pos{Line: j.Line, Col: j.Col}}
	for _, f := range [...]struct {
		set  bool
		flag program.Flags
	}{{j.Atomic, program.Atomic}, {j.RMW, program.RMW}, {j.RMWW, program.RMWWrite}, {j.Deref, program.Deref}, {j.CAS, program.CAS}} {
		if f.set {
			ev.Flags |= f.flag
		}
	}
	if r.js.rmw >= 0 && (t != r.js.rmw || !j.RMWW) {
		return none, errRMW
	}
	r.js.rmw = -1
	if j.RMW {
		r.js.rmw = t
	}
	switch {
	case kind.IsAccess() || kind.IsLock():
		if j.LocName != "" {
			if old, ok := r.locs.byLoc[j.Loc]; ok && old != j.LocName {
				return none, fmt.Sprintf("location %d named both %q and %q", j.Loc, clip([]byte(old)), clip([]byte(j.LocName)))
			}
			r.locs.byLoc[j.Loc] = j.LocName
		}
		seen := r.js.vars
		if kind.IsLock() {
			seen = r.js.locks
		}
		if !seen[j.Loc] {
			seen[j.Loc] = true
			if kind.IsLock() {
				r.meta.Locks++
			} else {
				r.meta.Vars++
			}
		}
	case kind == program.Fork || kind == program.Join:
		if j.Child == "" {
			return none, fmt.Sprintf("%s without child", kind)
		}
		child := r.thread([]byte(j.Child))
		if msg := r.forkJoin(kind, t, child); msg != "" {
			return none, msg
		}
		ev.Value = int64(child)
	}
	r.nextIdx[t]++
	return ev, ""
}

// FromJSON converts the JSON form of a trace back into a trace: the inverse
// of (*program.Trace).JSON for events, thread names, File and location names.
// Thread parents are rebuilt from fork events (-1 when none is seen).
// Errors name the event: unknown kind, wrong index, fork or join without a
// child, a location with two names, an empty or duplicate thread name.
func FromJSON(tj *program.TraceJSON) (*program.Trace, error) {
	name := tj.File
	if name == "" {
		name = "trace"
	}
	r := &Reader{name: name, traceFile: tj.File, threadID: map[string]program.ThreadID{},
		locs: &locTable{byLoc: map[program.Loc]string{}}, js: newJSONSource(nil)}
	r.meta = Meta{Format: FormatJSON, Kinds: map[program.Kind]int{}}
	for _, n := range tj.Threads {
		if _, dup := r.threadID[n]; dup || n == "" {
			return nil, r.jsonErr("threads: empty or duplicate thread name %q", n)
		}
		r.thread([]byte(n))
	}
	events := make([]program.Event, len(tj.Events))
	for i := range tj.Events {
		ev, msg := r.fromEventJSON(&tj.Events[i])
		if msg != "" {
			return nil, r.jsonErr("event %d: %s", i, msg)
		}
		events[i] = ev
	}
	if r.js.rmw >= 0 {
		return nil, r.jsonErr("event %d: %s", len(events)-1, errRMW)
	}
	return &program.Trace{Events: events, Threads: r.Threads(), File: tj.File, LocNames: r.LocNames()}, nil
}
