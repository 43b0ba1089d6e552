package mcr

import "mcr/program"

// readsOf maps each read of tr to the value it returned.
func readsOf(tr *program.Trace) map[program.EventID]int64 {
	out := map[program.EventID]int64{}
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Kind == program.Read {
			out[e.ID()] = e.Value
		}
	}
	return out
}

// satisfies reports whether every read of fixed occurs in reads with its
// value.
func satisfies(reads, fixed map[program.EventID]int64) bool {
	for id, v := range fixed {
		if g, ok := reads[id]; !ok || g != v {
			return false
		}
	}
	return true
}
