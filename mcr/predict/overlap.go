package predict

// This file implements the driver's side of overlapping windows
// (boundary.go): events of a window's overlap were counted by the window
// before, so their racy flags count only where they are new, and the far
// pairs of a window's new accesses are settled once its findings are in.

// seen holds the racy flags counted for the events of the last window
// (trace numbers), over all location pairs and per location pair, for the
// overlap of the next window.
type seen struct {
	all   map[int64]uint8
	pairs map[[2]Site]map[int64]uint8
}

// fresh returns the flags f of event g (trace number) of window w not yet
// counted by the window before, and records f as counted in next.
func (s *seen) fresh(w *window, g int64, f uint8, prev, next map[int64]uint8) uint8 {
	if g < w.fresh {
		f &^= prev[g]
	}
	next[g] |= f | prev[g]
	return f
}

// settleFar settles the far pairs of window w (its findings merged): the
// location pair of a far pair has lower-bound counts unless the later
// event already counts as racing with an earlier event of that pair; if
// no window finds a witness for it, the far pair was examined nowhere and
// the result is incomplete (farResult). A dereferenced read that may read
// an old write does the same to its site's null dereference.
func (d *driver) settleFar(w *window, k *knowledge) {
	if len(w.far) == 0 {
		return
	}
	groups := map[[2]Site]*group{}
	for _, g := range k.groups {
		groups[[2]Site{w.sites[g.sites[0]], w.sites[g.sites[1]]}] = g
	}
	for _, f := range w.far {
		sb := w.sites[w.site[f.p]]
		if f.null {
			d.farNulls[sb] = true
			continue
		}
		key := [2]Site{f.site, sb}
		if sb.less(f.site) {
			key = [2]Site{sb, f.site}
		}
		if g := groups[key]; g == nil || g.flags[f.p]&laterFlag == 0 {
			d.farKeys[key] = true
		}
	}
	d.tally.do(func(s *Stats) { s.FarPairs += int64(len(w.far)) })
}

// farResult applies the far pairs to the final result: lower-bound counts
// where their location pair (or null site) has a finding, else an
// incomplete result.
func (d *driver) farResult() {
	var open int64
	for key := range d.farKeys {
		if r := d.races[key]; r != nil {
			r.AtLeast = true
		} else {
			open++
		}
	}
	for site := range d.farNulls {
		if n := d.nulls[site]; n != nil {
			n.AtLeast = true
		} else {
			open++
		}
	}
	d.tally.do(func(s *Stats) { s.FarOpen = open })
	if open > 0 {
		d.incomplete("pairs of events further apart than the window overlap, in no common window, were not examined (far_open; raise --window or --overlap)")
	}
}
