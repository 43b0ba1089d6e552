package program

// This file implements the JSON form of consistency instances (INSTANCES.md
// beside this file documents it with an example).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// instanceFile is the JSON form of an Instance.
type instanceFile struct {
	Name       string           `json:"name,omitempty"`
	Comment    string           `json:"comment,omitempty"`
	MM         string           `json:"mm"`
	Constraint string           `json:"constraint,omitempty"`
	Init       map[string]int64 `json:"init,omitempty"`
	Threads    []threadFile     `json:"threads"`
	Guide      []string         `json:"guide,omitempty"`
	Expect     json.RawMessage  `json:"expect,omitempty"`
}

type threadFile struct {
	Name   string      `json:"name"`
	Events []eventFile `json:"events"`
}

type eventFile struct {
	Kind    string   `json:"kind"`
	Loc     string   `json:"loc,omitempty"`
	Value   *int64   `json:"value,omitempty"`
	Thread  string   `json:"thread,omitempty"`
	RF      string   `json:"rf,omitempty"`
	Good    []string `json:"good,omitempty"`
	RMW     bool     `json:"rmw,omitempty"`
	CAS     bool     `json:"cas,omitempty"`
	Drain   bool     `json:"drain,omitempty"`
	Atomic  bool     `json:"atomic,omitempty"`
	Comment string   `json:"comment,omitempty"`
}

// ReadInstanceFile reads an instance file. Errors name the file and the
// problem (with line and column for malformed JSON).
func ReadInstanceFile(path string) (*Instance, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeInstance(path, data)
}

// WriteInstanceFile writes inst to path in the JSON form.
func WriteInstanceFile(path string, inst *Instance) error {
	data, err := EncodeInstance(inst)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// ReadInstance decodes an instance from r; name is used in errors.
func ReadInstance(name string, r io.Reader) (*Instance, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return DecodeInstance(name, data)
}

// DecodeInstance decodes the JSON form of an instance; name is used in
// errors. It never panics on bad input.
func DecodeInstance(name string, data []byte) (*Instance, error) {
	var f instanceFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %s", name, jsonError(data, err))
	}
	if dec.More() {
		off := dec.InputOffset()
		line, col := lineCol(data, off)
		return nil, fmt.Errorf("%s:%d:%d: extra data after the instance", name, line, col)
	}
	inst, err := f.build()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if inst.Name == "" {
		inst.Name = name
	}
	if err := inst.Check(); err != nil {
		if inst.Name == name {
			return nil, err // Check names the instance already
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return inst, nil
}

func jsonError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := lineCol(data, syn.Offset-1) // Offset is just past the bad byte
		return fmt.Sprintf("line %d col %d (offset %d): malformed JSON: %v", line, col, syn.Offset, syn)
	case errors.As(err, &typ):
		line, col := lineCol(data, typ.Offset)
		return fmt.Sprintf("line %d col %d (offset %d): field %q: got JSON %s, want %s", line, col, typ.Offset, typ.Field, typ.Value, typ.Type)
	case errors.Is(err, io.EOF):
		return "empty file, want a JSON object"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated JSON"
	}
	return "not an instance file: " + err.Error()
}

func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// build converts the file form to an Instance (not yet checked).
func (f *instanceFile) build() (*Instance, error) {
	inst := &Instance{Name: f.Name}
	mm, ok := ParseMemoryModel(f.MM)
	if !ok {
		return nil, fmt.Errorf(`"mm": %q is not a memory model (want "sc", "tso" or "pso")`, f.MM)
	}
	inst.Model = mm
	exp, err := parseExpect(f.Expect, mm)
	if err != nil {
		return nil, err
	}
	inst.Expect = exp
	threadID := map[string]ThreadID{}
	for t, th := range f.Threads {
		if th.Name == "" || strings.ContainsAny(th.Name, ": \t\n") {
			return nil, fmt.Errorf("thread %d: bad name %q (empty, or contains ':' or white space)", t, th.Name)
		}
		if _, dup := threadID[th.Name]; dup {
			return nil, fmt.Errorf("thread name %q used twice", th.Name)
		}
		threadID[th.Name] = ThreadID(t)
		inst.Threads = append(inst.Threads, th.Name)
	}
	locID := map[string]Loc{}
	loc := func(n string) Loc {
		l, ok := locID[n]
		if !ok {
			l = Loc(len(inst.Locs))
			locID[n] = l
			inst.Locs = append(inst.Locs, n)
		}
		return l
	}
	// Pass 1: events.
	inst.Start = make([]int32, len(f.Threads)+1)
	for t, th := range f.Threads {
		for k, ef := range th.Events {
			where := fmt.Sprintf("%s:%d", th.Name, k)
			kind, ok := ParseKind(ef.Kind)
			if !ok {
				return nil, fmt.Errorf("%s: unknown event kind %q (want read, write, acquire, release, lockfail, fork, join, begin, end or fence)", where, ef.Kind)
			}
			e := Event{Thread: ThreadID(t), Index: int32(k), Kind: kind}
			if ef.Value != nil {
				e.Value = *ef.Value
			}
			switch kind {
			case Read, Write, Acquire, Release, LockFail:
				if ef.Loc == "" {
					return nil, fmt.Errorf("%s: %s without \"loc\"", where, kind)
				}
				e.Loc = loc(ef.Loc)
			default:
				if ef.Loc != "" {
					return nil, fmt.Errorf("%s: a %s has no \"loc\"", where, kind)
				}
			}
			if kind == Fork || kind == Join {
				c, ok := threadID[ef.Thread]
				if !ok {
					return nil, fmt.Errorf("%s: %s of unknown thread %q", where, kind, ef.Thread)
				}
				if ef.Value != nil {
					return nil, fmt.Errorf("%s: a %s names its thread with \"thread\", not \"value\"", where, kind)
				}
				e.Value = int64(c)
			} else if ef.Thread != "" {
				return nil, fmt.Errorf("%s: \"thread\" only belongs to fork and join", where)
			}
			if kind == Acquire || kind == Release || kind == LockFail {
				if ef.Value != nil {
					return nil, fmt.Errorf("%s: a %s has no \"value\"", where, kind)
				}
			}
			if ef.RF != "" || ef.Good != nil {
				if kind != Read && kind != Acquire && kind != LockFail {
					return nil, fmt.Errorf("%s: only reads, acquires and failed trylocks have \"rf\" or \"good\"", where)
				}
				if ef.RF != "" && ef.Good != nil {
					return nil, fmt.Errorf("%s: both \"rf\" and \"good\"", where)
				}
			}
			if ef.RMW {
				switch kind {
				case Read:
					e.Flags |= RMW
				case Write:
					e.Flags |= RMWWrite
				default:
					return nil, fmt.Errorf("%s: \"rmw\" on a %s", where, kind)
				}
			}
			if ef.CAS {
				if kind != Read {
					return nil, fmt.Errorf("%s: \"cas\" on a %s", where, kind)
				}
				e.Flags |= CAS
			}
			if ef.Drain {
				if kind != Read {
					return nil, fmt.Errorf("%s: \"drain\" on a %s", where, kind)
				}
				e.Flags |= Drain
			}
			if ef.Atomic {
				e.Flags |= Atomic
			}
			inst.Events = append(inst.Events, e)
		}
		inst.Start[t+1] = int32(len(inst.Events))
	}
	if f.Init != nil {
		inst.Init = make([]int64, len(inst.Locs))
		for n, v := range f.Init {
			l, ok := locID[n]
			if !ok {
				return nil, fmt.Errorf(`"init": location %q is not used by any event`, n)
			}
			inst.Init[l] = v
		}
	}
	// Pass 2: sources, constraint kind, read values.
	ref := func(s string) (int32, error) {
		if s == "init" {
			return InitSource, nil
		}
		colon := strings.LastIndexByte(s, ':')
		if colon < 0 {
			return 0, fmt.Errorf("%q is not an event (want \"thread:index\" or \"init\")", s)
		}
		t, ok := threadID[s[:colon]]
		if !ok {
			return 0, fmt.Errorf("%q: no thread %q", s, s[:colon])
		}
		k, err := strconv.Atoi(s[colon+1:])
		if err != nil || k < 0 {
			return 0, fmt.Errorf("%q: bad index %q", s, s[colon+1:])
		}
		i := inst.Dense(EventID{t, int32(k)})
		if i < 0 {
			return 0, fmt.Errorf("%q: thread %s has only %d events", s, s[:colon], len(inst.Thread(t)))
		}
		return i, nil
	}
	allRF := true
	for _, th := range f.Threads {
		for _, ef := range th.Events {
			if (ef.Kind == "read" || ef.Kind == "acquire" || ef.Kind == "lockfail") && ef.RF == "" {
				allRF = false
			}
		}
	}
	switch f.Constraint {
	case "":
		if allRF {
			inst.Constraint = ReadsFrom
		} else {
			inst.Constraint = GoodWrites
		}
	default:
		c, ok := ParseConstraint(f.Constraint)
		if !ok {
			return nil, fmt.Errorf(`"constraint": %q is not a constraint kind (want "rf" or "good")`, f.Constraint)
		}
		inst.Constraint = c
	}
	inst.Sources = make([][]int32, len(inst.Events))
	i := 0
	for _, th := range f.Threads {
		for k, ef := range th.Events {
			where := fmt.Sprintf("%s:%d", th.Name, k)
			e := &inst.Events[i]
			if e.Kind == Read || e.Kind == Acquire || e.Kind == LockFail {
				src, err := inst.decodeSources(ef, ref)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", where, err)
				}
				if e.Kind == Read && src == nil {
					if ef.Value == nil {
						return nil, fmt.Errorf("%s: read of %s with neither \"rf\", \"good\" nor \"value\"", where, ef.Loc)
					}
					if inst.Constraint == ReadsFrom {
						return nil, fmt.Errorf("%s: read of %s without \"rf\" in a reads-from instance", where, ef.Loc)
					}
					src = inst.sameValueWrites(e.Loc, e.Value)
					if len(src) == 0 {
						return nil, fmt.Errorf("%s: read of %s = %d: no write of %s (nor its initial value) could satisfy it", where, ef.Loc, e.Value, ef.Loc)
					}
				}
				if e.Kind == Read && ef.Value == nil && len(src) > 0 {
					// The value is implied by the sources.
					if src[0] == InitSource {
						e.Value = inst.InitValue(e.Loc)
					} else {
						e.Value = inst.Events[src[0]].Value
					}
				}
				inst.Sources[i] = src
			}
			i++
		}
	}
	for k, g := range f.Guide {
		flush := false
		if rest, ok := strings.CutPrefix(g, "flush "); ok {
			g, flush = rest, true
		}
		j, err := ref(g)
		if err != nil || j == InitSource {
			return nil, fmt.Errorf(`"guide" step %d: %q is not an event`, k, f.Guide[k])
		}
		inst.Guide = append(inst.Guide, Step{Event: inst.Events[j].ID(), Flush: flush})
	}
	return inst, nil
}

func (inst *Instance) decodeSources(ef eventFile, ref func(string) (int32, error)) ([]int32, error) {
	var names []string
	switch {
	case ef.RF != "":
		names = []string{ef.RF}
	case ef.Good != nil:
		if len(ef.Good) == 0 {
			return nil, fmt.Errorf(`empty "good" set`)
		}
		names = ef.Good
	default:
		return nil, nil
	}
	src := make([]int32, 0, len(names))
	for _, n := range names {
		s, err := ref(n)
		if err != nil {
			return nil, err
		}
		src = append(src, s)
	}
	return normalizeSources(src), nil
}

// sameValueWrites returns the writes of l that write v, and InitSource if
// l's initial value is v.
func (inst *Instance) sameValueWrites(l Loc, v int64) []int32 {
	var src []int32
	if inst.InitValue(l) == v {
		src = append(src, InitSource)
	}
	for j := range inst.Events {
		if w := &inst.Events[j]; w.Kind == Write && w.Loc == l && w.Value == v {
			src = append(src, int32(j))
		}
	}
	return src
}

func parseExpect(raw json.RawMessage, mm MemoryModel) (map[MemoryModel]bool, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var one bool
	if err := json.Unmarshal(raw, &one); err == nil {
		return map[MemoryModel]bool{mm: one}, nil
	}
	var many map[string]bool
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf(`"expect": want true, false or an object like {"sc": false, "tso": true}`)
	}
	out := make(map[MemoryModel]bool, len(many))
	for k, v := range many {
		m, ok := ParseMemoryModel(k)
		if !ok {
			return nil, fmt.Errorf(`"expect": %q is not a memory model`, k)
		}
		out[m] = v
	}
	return out, nil
}

// EncodeInstance returns the JSON form of inst (indented, one event per
// line).
func EncodeInstance(inst *Instance) ([]byte, error) {
	if err := inst.Check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	q := func(s string) string { data, _ := json.Marshal(s); return string(data) }
	fmt.Fprintf(&b, "{\n  \"name\": %s,\n  \"mm\": %q,\n  \"constraint\": %q,\n", q(inst.Name), inst.Model, inst.Constraint)
	if inst.Init != nil {
		var parts []string
		for l, v := range inst.Init {
			if v != 0 {
				parts = append(parts, fmt.Sprintf("%s: %d", q(inst.Locs[l]), v))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "  \"init\": {%s},\n", strings.Join(parts, ", "))
		}
	}
	b.WriteString("  \"threads\": [")
	for t := range inst.Threads {
		if t > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    {\"name\": %s, \"events\": [", q(inst.Threads[t]))
		for k := range inst.Thread(ThreadID(t)) {
			i := inst.Start[t] + int32(k)
			if k > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n      ")
			b.WriteString(inst.encodeEvent(i, q))
		}
		b.WriteString("\n    ]}")
	}
	b.WriteString("\n  ]")
	if len(inst.Guide) > 0 {
		steps := make([]string, len(inst.Guide))
		for k, s := range inst.Guide {
			steps[k] = q(inst.StepString(s))
		}
		fmt.Fprintf(&b, ",\n  \"guide\": [%s]", strings.Join(steps, ", "))
	}
	if len(inst.Expect) > 0 {
		var parts []string
		for _, m := range Models {
			if v, ok := inst.Expect[m]; ok {
				parts = append(parts, fmt.Sprintf("%q: %v", m, v))
			}
		}
		fmt.Fprintf(&b, ",\n  \"expect\": {%s}", strings.Join(parts, ", "))
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

func (inst *Instance) encodeEvent(i int32, q func(string) string) string {
	e := &inst.Events[i]
	parts := []string{fmt.Sprintf(`"kind": %q`, e.Kind)}
	switch e.Kind {
	case Read, Write:
		parts = append(parts, `"loc": `+q(inst.LocName(e.Loc)), fmt.Sprintf(`"value": %d`, e.Value))
	case Acquire, Release, LockFail:
		parts = append(parts, `"loc": `+q(inst.LocName(e.Loc)))
	case Fork, Join:
		parts = append(parts, `"thread": `+q(inst.ThreadName(ThreadID(e.Value))))
	}
	if src := inst.Sources[i]; src != nil {
		if inst.Constraint == ReadsFrom {
			parts = append(parts, `"rf": `+q(inst.SourceRef(src[0])))
		} else {
			refs := make([]string, len(src))
			for k, s := range src {
				refs[k] = q(inst.SourceRef(s))
			}
			parts = append(parts, `"good": [`+strings.Join(refs, ", ")+`]`)
		}
	}
	if e.Is(RMW) || e.Is(RMWWrite) {
		parts = append(parts, `"rmw": true`)
	}
	if e.Is(CAS) {
		parts = append(parts, `"cas": true`)
	}
	if e.Is(Drain) {
		parts = append(parts, `"drain": true`)
	}
	if e.Is(Atomic) {
		parts = append(parts, `"atomic": true`)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
