// This file implements the Reader shared by all formats: format detection,
// line scanning, the thread and location tables, and ReadAll.

package tracefile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"mcr/program"
)

// Format names accepted by Options.Format and returned by Detect.
const (
	FormatSTD  = "std"
	FormatVals = "vals"
	FormatJSON = "json"
)

// Scanner buffer sizes: a line may be up to MaxLineBytes long.
const (
	initialBuffer = 1 << 20
	// MaxLineBytes is the longest line a reader accepts; longer lines are an
	// error naming the line.
	MaxLineBytes = 64 << 20
)

// Options configure a Reader.
type Options struct {
	// Format is FormatSTD, FormatVals, FormatJSON, or "" to detect it from
	// the first non-empty line.
	Format string
	// ThirdFieldIsValue reads the third field of STD lines as the value read
	// or written (the focs-lab consistency tests enum-input*.std) instead of a
	// program location: reads and writes get it as Value, Pos stays zero and
	// Meta.Values is true. It must be an integer on every line. Ignored by
	// the other formats. The caller decides; nothing is guessed from names.
	ThirdFieldIsValue bool
}

// Meta describes what a reader has read so far.
type Meta struct {
	Format string // FormatSTD, FormatVals or FormatJSON
	// Values reports whether events carry recorded values. It is false for
	// STD (every access has Value 0) unless Options.ThirdFieldIsValue is set.
	Values  bool
	Lines   int                  // lines scanned, blank and skipped ones included (0 for JSON)
	Events  int                  // events returned
	Skipped int                  // events validated and dropped (STD dummy, enter, exit)
	Threads int                  // threads in the table
	Vars    int                  // distinct variables (locations of reads and writes)
	Locks   int                  // distinct locks
	Kinds   map[program.Kind]int // events per kind
}

// ParseError is a malformed input: the file, the 1-based line (0 when the
// format has no lines, as JSON) and the problem.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Reader yields the events of a trace one at a time, growing its thread and
// location tables as it goes; it keeps nothing per event, so memory is that
// of the tables plus what the caller keeps.
type Reader struct {
	name      string
	traceFile string // Trace.File: name, or the JSON trace's "file"
	opts      Options
	closer    io.Closer
	sc        *bufio.Scanner
	js        *jsonSource
	parse     func(r *Reader, line []byte) (ev program.Event, keep bool, msg string)
	line      int
	err       error // sticky: returned by every Next after the first error
	sizeHint  int64 // file size when known, to presize ReadAll's slice

	threads  []program.Thread
	threadID map[string]program.ThreadID
	nextIdx  []int32
	locs     *locTable
	varID    map[string]program.Loc
	lockID   map[string]program.Loc
	meta     Meta
}

// locTable names locations: dense names for STD and the value format, a map
// for JSON (whose locations are arbitrary numbers).
type locTable struct {
	names []string
	byLoc map[program.Loc]string
}

func (t *locTable) name(l program.Loc) string {
	if t.byLoc != nil {
		if s, ok := t.byLoc[l]; ok {
			return s
		}
	} else if l < program.Loc(len(t.names)) {
		return t.names[l]
	}
	return fmt.Sprintf("#%d", l)
}

// Open opens the trace file at path. The caller must Close the reader.
// Errors: the file cannot be opened, or (Format "") its format cannot be
// detected, or Options.Format is unknown.
func Open(path string, opts Options) (*Reader, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(path, fh, opts)
	if err != nil {
		fh.Close()
		return nil, err
	}
	r.closer = fh
	if info, err := fh.Stat(); err == nil && info.Mode().IsRegular() {
		r.sizeHint = info.Size()
	}
	return r, nil
}

// NewReader reads a trace from in; name is used in errors and as Trace.File.
// Errors as for Open.
func NewReader(name string, in io.Reader, opts Options) (*Reader, error) {
	br := bufio.NewReaderSize(in, 1<<16)
	format, blank := opts.Format, 0
	if format == "" {
		var err error
		if format, blank, err = detect(name, br); err != nil {
			return nil, err
		}
	}
	r := &Reader{name: name, traceFile: name, opts: opts, threadID: map[string]program.ThreadID{}, locs: &locTable{}, line: blank}
	r.meta = Meta{Format: format, Kinds: map[program.Kind]int{}, Lines: blank}
	switch format {
	case FormatSTD:
		r.parse = (*Reader).parseSTD
		r.meta.Values = opts.ThirdFieldIsValue
	case FormatVals:
		r.parse = (*Reader).parseVals
		r.meta.Values = true
	case FormatJSON:
		r.meta.Values, r.meta.Lines, r.line = true, 0, 0
		r.js = newJSONSource(br)
		r.locs.byLoc = map[program.Loc]string{}
		return r, nil
	default:
		return nil, fmt.Errorf("%s: unknown trace format %q (want %q, %q or %q)", name, format, FormatSTD, FormatVals, FormatJSON)
	}
	r.varID, r.lockID = map[string]program.Loc{}, map[string]program.Loc{}
	r.sc = bufio.NewScanner(br)
	r.sc.Buffer(make([]byte, initialBuffer), MaxLineBytes)
	return r, nil
}

// Detect returns the format of the trace file at path (FormatSTD, FormatVals
// or FormatJSON) judged from its first non-empty line. Errors: the file cannot
// be read, is empty, or its first line matches no format.
func Detect(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	f, _, err := detect(path, bufio.NewReaderSize(fh, 1<<16))
	return f, err
}

// detect judges the format from the first non-empty line of br. It consumes
// only the blank lines before it, returning how many there were, and peeks at
// that line, or at as much of it as fits in br's buffer.
func detect(name string, br *bufio.Reader) (format string, blank int, err error) {
	for {
		data, err := br.Peek(br.Size())
		start := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
		if start == len(data) && len(data) > 0 { // all blank: drop and look further
			blank += bytes.Count(data, []byte{'\n'})
			br.Discard(len(data))
			continue
		}
		blank += bytes.Count(data[:start], []byte{'\n'})
		br.Discard(start)
		if start == len(data) {
			if err != nil && err != io.EOF {
				return "", blank, fmt.Errorf("%s: %w", name, err)
			}
			return "", blank, &ParseError{File: name, Msg: "empty trace: cannot detect its format"}
		}
		line := data[start:]
		if end := bytes.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
		}
		if f := detectLine(line); f != "" {
			return f, blank, nil
		}
		return "", blank, &ParseError{File: name, Line: blank + 1, Msg: fmt.Sprintf("cannot detect the trace format from %q", clip(line))}
	}
}

// detectLine names the format of a trimmed first line, or "".
func detectLine(line []byte) string {
	line = bytes.TrimSpace(line)
	switch {
	case len(line) == 0:
		return ""
	case line[0] == '{':
		return FormatJSON
	case bytes.IndexByte(line, '|') >= 0:
		return FormatSTD
	}
	var f [1][]byte
	if fields(line, f[:]) > 0 {
		if _, ok := valsKind(f[0]); ok {
			return FormatVals
		}
	}
	return ""
}

// Format returns the reader's format.
func (r *Reader) Format() string { return r.meta.Format }

// Line returns the number of the line last read (0 for JSON).
func (r *Reader) Line() int { return r.line }

// Meta returns what has been read so far.
func (r *Reader) Meta() Meta {
	m := r.meta
	m.Kinds = make(map[program.Kind]int, len(r.meta.Kinds))
	for k, n := range r.meta.Kinds {
		m.Kinds[k] = n
	}
	return m
}

// Threads returns a copy of the thread table as read so far; later events may
// add threads and set the Parent of known ones.
func (r *Reader) Threads() []program.Thread { return append([]program.Thread(nil), r.threads...) }

// NumThreads returns the number of threads in the table so far (Threads
// without the copy).
func (r *Reader) NumThreads() int { return len(r.threads) }

// LocNames returns a function naming every location read so far and later:
// the variable or lock text as written, "#n" for a number never read.
func (r *Reader) LocNames() func(program.Loc) string { return r.locs.name }

// Close closes the file opened by Open; it does nothing for NewReader.
func (r *Reader) Close() error {
	if r.closer != nil {
		c := r.closer
		r.closer = nil
		return c.Close()
	}
	return nil
}

// Next returns the next event, or io.EOF after the last one. Any other error
// describes malformed input (a *ParseError naming the file and line) or a
// failed read; after an error Next keeps returning it.
func (r *Reader) Next() (program.Event, error) {
	if r.err != nil {
		return program.Event{}, r.err
	}
	var ev program.Event
	var err error
	if r.js != nil {
		ev, err = r.nextJSON()
	} else {
		ev, err = r.nextLine()
	}
	if err != nil {
		r.err = err
		return program.Event{}, err
	}
	r.meta.Events++
	r.meta.Kinds[ev.Kind]++
	return ev, nil
}

func (r *Reader) nextLine() (program.Event, error) {
	for r.sc.Scan() {
		r.line++
		r.meta.Lines++
		b := bytes.TrimSpace(r.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		ev, keep, msg := r.parse(r, b)
		if msg != "" {
			return ev, r.errorf("%s", msg)
		}
		if keep {
			return ev, nil
		}
		r.meta.Skipped++
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			r.line++
			return program.Event{}, r.errorf("line longer than %d bytes", MaxLineBytes)
		}
		return program.Event{}, fmt.Errorf("%s:%d: %w", r.name, r.line, err)
	}
	return program.Event{}, io.EOF
}

func (r *Reader) errorf(format string, args ...any) error {
	return &ParseError{File: r.name, Line: r.line, Msg: fmt.Sprintf(format, args...)}
}

// thread interns a thread name.
func (r *Reader) thread(name []byte) program.ThreadID {
	if id, ok := r.threadID[string(name)]; ok {
		return id
	}
	id := program.ThreadID(len(r.threads))
	s := string(name)
	r.threadID[s] = id
	r.threads = append(r.threads, program.Thread{Name: s, Parent: -1})
	r.nextIdx = append(r.nextIdx, 0)
	r.meta.Threads++
	return id
}

// loc interns a variable (lock false) or lock name.
func (r *Reader) loc(name []byte, lock bool) program.Loc {
	m := r.varID
	if lock {
		m = r.lockID
	}
	if l, ok := m[string(name)]; ok {
		return l
	}
	l := program.Loc(len(r.locs.names))
	s := string(name)
	m[s] = l
	r.locs.names = append(r.locs.names, s)
	if lock {
		r.meta.Locks++
	} else {
		r.meta.Vars++
	}
	return l
}

// event fills in the index of a new event of thread t; msg is non-empty when
// the thread has too many events for an int32 index.
func (r *Reader) event(t program.ThreadID, k program.Kind, loc program.Loc, value int64, line int32) (program.Event, string) {
	idx := r.nextIdx[t]
	if idx == math.MaxInt32 {
		return program.Event{}, "too many events in one thread"
	}
	r.nextIdx[t]++
	return program.Event{Thread: t, Index: idx, Kind: k, Loc: loc, Value: value, Pos: program.Pos{Line: line}}, ""
}

// forkJoin checks a fork or join of child by parent and records the parent
// of a forked thread whose parent is not yet known.
func (r *Reader) forkJoin(k program.Kind, parent, child program.ThreadID) string {
	if parent == child {
		return fmt.Sprintf("thread %q %ss itself", r.threads[parent].Name, k)
	}
	if k != program.Fork || r.threads[child].Parent >= 0 {
		return ""
	}
	for a := parent; a >= 0; a = r.threads[a].Parent {
		if a == child {
			return fmt.Sprintf("thread %q forks its ancestor %q", r.threads[parent].Name, r.threads[child].Name)
		}
	}
	r.threads[child].Parent = parent
	return ""
}

// ReadAll reads the whole trace file at path. The trace's File is path (for
// JSON, the trace's own "file" when present), its LocNames name locations as
// written. Errors as for Open and Next.
func ReadAll(path string, opts Options) (*program.Trace, Meta, error) {
	r, err := Open(path, opts)
	if err != nil {
		return nil, Meta{}, err
	}
	defer r.Close()
	return r.readAll()
}

// Read reads a whole trace from in; name is Trace.File and is used in
// errors. Errors as for NewReader and Next.
func Read(name string, in io.Reader, opts Options) (*program.Trace, Meta, error) {
	r, err := NewReader(name, in, opts)
	if err != nil {
		return nil, Meta{}, err
	}
	return r.readAll()
}

func (r *Reader) readAll() (*program.Trace, Meta, error) {
	var events []program.Event
	if r.js == nil && r.sizeHint > 0 {
		// Lines of real traces average 14 to 25 bytes; one more growth at worst.
		events = make([]program.Event, 0, min(r.sizeHint/20+16, 1<<24))
	}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, r.Meta(), err
		}
		events = append(events, ev)
	}
	t := &program.Trace{Events: events, Threads: r.Threads(), File: r.traceFile, LocNames: r.LocNames()}
	return t, r.Meta(), nil
}

// fields splits line at blanks into out, returning how many fields there are
// (which may exceed len(out)).
func fields(line []byte, out [][]byte) (n int) {
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if n < len(out) {
			out[n] = line[i:j]
		}
		n++
		i = j
	}
	return n
}

// parseInt parses a decimal integer with an optional sign, within
// [math.MinInt64, math.MaxInt64], without allocating.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if u > (math.MaxUint64-9)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// clip shortens b for an error message.
func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

// plainName reports whether b is usable as a name: non-empty, without
// blanks, '|' or control characters, and without parentheses unless parens.
func plainName(b []byte, parens bool) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c <= ' ' || c == '|' || c == 0x7f || !parens && (c == '(' || c == ')') {
			return false
		}
	}
	return true
}
