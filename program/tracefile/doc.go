// Package tracefile reads recorded traces into the shared trace model
// (*program.Trace), one event at a time or all at once.
//
// Three formats are understood:
//
//	format  files        one event                       origin
//	"std"   *.std        T1|w(V3.12)|347                 RAPID (github.com/umangm/rapid), the focs-lab traces
//	"vals"  *.vals.txt   Write 1 X_0 6                   focs-lab enumerate-race-detection and constraint-race-detection
//	"json"  *.json       program.TraceJSON                mcr itself ((*program.Trace).JSON)
//
// STD is RAPID's standard format, THREAD|OP(ARG)|LOC, OP one of r, w, acq,
// rel, fork, join, begin, end (begin and end may omit the parentheses) and
// LOC a decimal program location, which is kept as the event's Pos.Line (the
// trace's program location; Pos.Col is 0). STD records no values: accesses
// get Value 0 and Meta.Values is false. The focs-lab consistency tests
// (enum-input*.std) put the read or written VALUE in the third field instead;
// set Options.ThirdFieldIsValue for such files (never guessed from the name).
// RAPID's dummy events, and the method enter/exit events of older RAPID
// versions, are not accesses to shared state: they are validated and skipped
// (Meta.Skipped counts them).
//
// The value format is one event a line, four fields separated by blanks:
// Read|Write TID VAR VALUE, Acq|Rel TID LOCK 0, Fork|Join TID CHILD 0,
// Begin|End TID 0 0, thread ids decimal. For Begin and End the third field is
// ignored; the fourth must be a decimal integer for every kind and is ignored
// except for Read and Write.
//
// The JSON format is the program.TraceJSON object written by the project; its
// events carry their own indices, locations, values and flags, which are kept
// as written, so Trace -> JSON -> Trace gives equal events.
//
// Identities: thread names map to dense ThreadIDs in order of first appearance
// (as an executing thread or as the argument of a fork or join); Thread.Name
// is the name as written ("T1" in STD, "1" in the value format) and
// Thread.Parent the thread that forked it, -1 when no fork is seen. Fork and
// Join events carry the other thread's ThreadID in Value. In STD and the value
// format every distinct variable name and every distinct lock name gets a
// dense Loc, numbered from 0 in order of first appearance in one shared
// space; a variable and a lock with the same text are different Locs with the
// same name. Trace.LocName gives the text as written. Nothing is marked
// Atomic. Events of a thread get indices 0, 1, 2, ... in file order; since
// recorded traces are filtered, events before a thread's begin or after its
// end are accepted as they are. So are events of a thread before its fork
// (focs-lab's crd-sample_trace2 has them): reading is about the format;
// whether a trace is an execution is for its user to judge (mcr/predict
// rejects this one).
//
// Format "" detects the format from the first non-empty line: "{" starts
// JSON, a "|" means STD, a first field naming a value-format kind means the
// value format.
//
// Errors: every malformed line gives a *ParseError naming the file, the line
// and the problem (`x.std:17: unknown event kind "wr"`); JSON errors name the
// event number instead of a line. No input makes a reader panic.
package tracefile
