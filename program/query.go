package program

// SeedQuery is one question the MCR explorer asks about the maximal causal
// model of a trace (001_aa53da3bf10d3f4e.txt Sections 3.2-3.4): is there an
// interleaving of (a prefix of) the trace's events in which
//
//   - every read in Fixed executes and returns its traced value,
//   - every executed read returns its traced value (Φ_rw: the causal past
//     of what is executed keeps its values), except
//   - Read, if >= 0, executes and returns Value (Φ_value(r, v'), a seed),
//   - Race, if both >= 0, names two events that end up both enabled at the
//     end, so that they can execute back to back (the race property
//     O_a = O_b of Section 3.3)?
//
// Events not needed for this may stay unexecuted. Positions index
// Trace.Events.
type SeedQuery struct {
	Trace *Trace
	Fixed []int32
	Read  int32
	Value int64
	Race  [2]int32
}

// NewSeedQuery returns a query with no target read and no race.
func NewSeedQuery(t *Trace, fixed []int32) SeedQuery {
	return SeedQuery{Trace: t, Fixed: fixed, Read: -1, Race: [2]int32{-1, -1}}
}

// SeedAnswer is a decider's answer to a SeedQuery.
type SeedAnswer struct {
	// Sat reports whether such an interleaving exists.
	Sat bool
	// Schedule is the interleaving of the needed events (the MHB lower set
	// of the targets, of the writes needed reads read from, recursively, and
	// of the releases needed acquires wait for), in an order that satisfies
	// the query. It contains Read; for a race it ends with the two racing
	// events.
	Schedule Schedule
}
