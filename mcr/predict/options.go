package predict

// This file implements the options of a prediction and the registry of
// deciders (--decider), from which the CLI's flag help is generated.

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"mcr/encode"
	"mcr/explicit"
	"mcr/program"
)

// Options configure a prediction. The zero value is usable: decider auto,
// one worker per CPU, windows of DefaultWindow events.
type Options struct {
	// Decider names the deciders answering queries: a key of Deciders,
	// "both" to ask z3 and explicit every query and report disagreements,
	// or "auto" (the default, ""): the portfolio of portfolio.go (the
	// explicit search alone when Z3 is not built in).
	Decider string
	// States, if > 0, is auto's state budget of the explicit search before
	// z3 takes a query over; 0 estimates it per query (portfolio.go).
	States int
	// Workers is the number of parallel workers, each with its own
	// deciders; <= 0 means one per CPU.
	Workers int
	// Window is the number of trace events per window (a rest of at most
	// Window/2 events joins the last window); 0 analyses the whole trace
	// at once, < 0 means DefaultWindow.
	Window int
	// Overlap is the number of events at the end of each window that the
	// next window analyses again, so that pairs of events up to that far
	// apart lie in a common window (0: DefaultOverlap of the window, < 0:
	// none; at most Window-1). Pairs further apart are found and settled
	// as boundary.go describes.
	Overlap int
	// QueryTimeout bounds one decider query (0: one minute). A query that
	// times out is "unknown" and makes the result incomplete.
	QueryTimeout time.Duration
	// MaxQueries caps the decider queries per location pair and window
	// spent looking for its witness (0: DefaultMaxQueries, < 0: no cap).
	// Pairs left undecided while the location pair has no witness make the
	// result incomplete.
	MaxQueries int
	// CountQueries caps the decider queries per location pair and window
	// spent counting racy events once the pair has a witness (0:
	// DefaultCountQueries, < 0: no cap). Pairs left undecided make the
	// counts lower bounds (Race.AtLeast, Stats.CountCapped).
	CountQueries int
	// MaxQueryEvents skips queries whose sub-trace (subtrace.go) has more
	// events (0: DefaultMaxQueryEvents, < 0: no limit): the encodings grow
	// quadratically with it and a solver can exhaust memory. A skipped
	// query leaves its pair undecided.
	MaxQueryEvents int
	// QueryMemory is the memory (bytes) of the Go heap and Z3's allocator
	// together above which the running decider queries are cancelled and
	// answer "unknown" (memguard.go; 0: DefaultQueryMemory, < 0: no limit).
	QueryMemory int64
	// QueryRlimit bounds one Z3 query by this many of Z3's resource units
	// (its "rlimit", a deterministic count of solver steps; roughly one a
	// microsecond of search on Z3 4.8.12); 0: DefaultQueryRlimit, < 0: none.
	// A query that reaches it gives up ("unknown", reason "rlimit"), like
	// one that times out; unlike a timeout the cut is the same on every
	// machine and under any load.
	QueryRlimit int64
	// ReadsFrom forces reads-from preservation (synthetic unique write
	// values) on a trace that has values.
	ReadsFrom bool
	// NoShortcuts sends every candidate pair to the decider, skipping the
	// sound shortcuts of sweep.go (for cross-checking the deciders).
	NoShortcuts bool
	// CheckAll replays every schedule a shortcut finds with the witness
	// checker (a sanity mode for tests); otherwise only reported witnesses
	// and decider answers are replayed.
	CheckAll bool
	// WitnessTail is the number of last witness steps described in reports
	// (0: DefaultWitnessTail, < 0: all); Witness.Events always has them all.
	WitnessTail int
	// Progress, if set, is called after every window with the statistics
	// so far (from the driver's goroutine).
	Progress func(Stats)

	// z3Units, if > 0, replaces autoZ3Units; if < 0, stage 2's budget is
	// one resource unit a check, whatever the query's size (tests drive
	// auto into its race: a small query can take Z3 fewer units than it
	// has events).
	z3Units int
	// observe, if set, sees every analysed window before its findings are
	// merged (tests compare the racy events with a brute-force oracle).
	observe func(w *window, k *knowledge)
}

// Defaults of Options.
const (
	DefaultWindow     = 10000
	DefaultMaxQueries = 200
	// DefaultCountQueries is high enough that every trace of
	// shared/data/traces counts exactly (none needed more than 70 queries
	// in all), and low enough to bound a pathological one.
	DefaultCountQueries = 1000
	DefaultWitnessTail  = 8
	// DefaultOverlap is the divisor of the window giving the default
	// Options.Overlap: half a window.
	DefaultOverlap = 2
	// DefaultMaxQueryEvents bounds a query's sub-trace.
	DefaultMaxQueryEvents = 4000
	defaultQueryTime      = time.Minute
	// DefaultQueryMemory is the default of Options.QueryMemory: 2 GiB.
	DefaultQueryMemory int64 = 2 << 30
	// DefaultQueryRlimit is the default of Options.QueryRlimit: none (the
	// query timeout and the memory guard bound Z3 by default).
	DefaultQueryRlimit = 0
)

// DeciderInfo is one entry of the decider registry.
type DeciderInfo struct {
	Name string
	Doc  string
	// New creates a decider for one worker; timeout bounds one query.
	New func(timeout time.Duration) (program.SeedDecider, error)
}

// Deciders is the registry of single deciders; "both" combines z3 and
// explicit.
var Deciders = map[string]DeciderInfo{
	"z3": {"z3", "the MCM as QF_IDL constraints solved by Z3 (seed 001 Section 3.2)",
		func(timeout time.Duration) (program.SeedDecider, error) { return encode.NewZ3Seeder(timeout) }},
	"explicit": {"explicit", "VerifySC's witness-state search with optional events (seed 000 Algorithm 1)",
		func(time.Duration) (program.SeedDecider, error) { return explicit.Seeder{}, nil }},
}

// Both is the --decider value that asks every query of z3 and explicit.
const Both = "both"

// Auto is the --decider value of the portfolio (portfolio.go): after the
// shortcuts, the explicit search under a state budget estimated from the
// query, then z3, then both racing if z3 is slow.
const Auto = "auto"

// DeciderNames lists the accepted --decider values for help texts.
func DeciderNames() string {
	var out []string
	for n := range Deciders {
		out = append(out, n)
	}
	sort.Strings(out)
	return strings.Join(append([]string{Auto}, append(out, Both)...), ", ")
}

// z3Available reports whether a Z3 decider can be created.
func z3Available() bool {
	d, err := Deciders["z3"].New(time.Second)
	if err != nil {
		return false
	}
	if c, ok := d.(interface{ Close() }); ok {
		c.Close()
	}
	return true
}

// deciderNames resolves o.Decider to registry names, in the order they are
// asked. Errors: an unknown name.
func (o *Options) deciderNames() ([]string, error) {
	switch o.Decider {
	case "", Auto:
		if !z3Available() {
			return []string{"explicit"}, nil
		}
		return []string{"explicit", "z3"}, nil
	case Both:
		return []string{"z3", "explicit"}, nil
	}
	if _, ok := Deciders[o.Decider]; !ok {
		return nil, fmt.Errorf("unknown decider %q (have: %s)", o.Decider, DeciderNames())
	}
	return []string{o.Decider}, nil
}

// auto reports whether o.Decider is the portfolio.
func (o *Options) auto() bool { return o.Decider == "" || o.Decider == Auto }

func (o *Options) window() int {
	if o.Window < 0 {
		return DefaultWindow
	}
	return o.Window
}

// overlap is the overlap in events of windows of o.window() events.
func (o *Options) overlap() int {
	w := o.window()
	switch {
	case w == 0 || o.Overlap < 0:
		return 0
	case o.Overlap == 0:
		return w / DefaultOverlap
	}
	return min(o.Overlap, w-1)
}

func (o *Options) maxQueries() int { return limit(o.MaxQueries, DefaultMaxQueries, int(^uint(0)>>1)) }

func (o *Options) maxQueryEvents() int {
	return limit(o.MaxQueryEvents, DefaultMaxQueryEvents, int(^uint(0)>>1))
}

func (o *Options) witnessTail() int { return limit(o.WitnessTail, DefaultWitnessTail, -1) }

func (o *Options) countQueries() int {
	return limit(o.CountQueries, DefaultCountQueries, int(^uint(0)>>1))
}

// limit maps an option's 0 to its default and a negative value to neg.
func limit(v, def, neg int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return neg
	}
	return v
}

func (o *Options) queryMemory() uint64 {
	switch {
	case o.QueryMemory == 0:
		return uint64(DefaultQueryMemory)
	case o.QueryMemory < 0:
		return 0
	}
	return uint64(o.QueryMemory)
}

// queryRlimit is the resource limit of one Z3 query, 0 for none.
func (o *Options) queryRlimit() uint32 {
	if o.QueryRlimit <= 0 {
		return DefaultQueryRlimit
	}
	return uint32(min(o.QueryRlimit, 1<<32-1))
}

func (o *Options) queryTimeout() time.Duration {
	if o.QueryTimeout <= 0 {
		return defaultQueryTime
	}
	return o.QueryTimeout
}
