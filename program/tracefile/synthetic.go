// This file implements Synthetic, a generator of random well-formed traces
// for scale tests and benchmarks.

package tracefile

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
)

// SynthConfig describes a random trace for Synthetic.
type SynthConfig struct {
	Format  string // FormatSTD or FormatVals
	Events  int    // lines written, exactly; at least 2*(Threads-1) (3* for FormatVals)
	Threads int    // threads, the main thread included; at least 1
	Vars    int    // shared variables; at least 1
	Locks   int    // locks; 0 for none
	Seed    int64  // the same config writes the same trace
}

// Synthetic writes a random well-formed trace to w: the main thread (T0,
// "0" in the value format) forks every other thread first and joins them all
// last; in between, threads chosen at random read and write the variables
// V0.. and take the locks L0.. (one at a time per thread, never one that is
// held, always released before the thread ends). The value format adds Begin
// after each Fork and End before each Join, and its values are sequentially
// consistent: each write writes a random value in 0..100, each read returns
// the last value written (0 initially). STD lines carry random program
// locations in 1..1000. Errors: a bad configuration, or w's error.
func Synthetic(w io.Writer, c SynthConfig) error {
	vals := c.Format == FormatVals
	perChild := 2 // fork, join
	if vals {
		perChild = 4 // and begin, end
	}
	switch {
	case c.Format != FormatSTD && !vals:
		return fmt.Errorf("synthetic trace: unknown format %q", c.Format)
	case c.Threads < 1 || c.Vars < 1 || c.Locks < 0:
		return fmt.Errorf("synthetic trace: want at least 1 thread and 1 variable and no negative lock count, have %d, %d, %d",
			c.Threads, c.Vars, c.Locks)
	case c.Events < perChild*(c.Threads-1):
		return fmt.Errorf("synthetic trace: %d threads need at least %d events, have %d", c.Threads, perChild*(c.Threads-1), c.Events)
	}
	g := &synth{w: bufio.NewWriterSize(w, 1<<16), vals: vals, rng: rand.New(rand.NewPCG(uint64(c.Seed), 0x6d6372)),
		mem: make([]int64, c.Vars), holder: make([]int, c.Locks), held: make([]int, c.Threads)}
	for i := range g.holder {
		g.holder[i] = -1
	}
	for i := range g.held {
		g.held[i] = -1
	}
	for k := 1; k < c.Threads; k++ {
		g.line(0, "fork", "Fork", "", k, 0)
		if vals {
			g.line(k, "begin", "Begin", "", -1, 0)
		}
	}
	remaining := c.Events - (perChild/2)*(c.Threads-1)
	closing := (perChild / 2) * (c.Threads - 1) // end and join per child
	locked := 0                                 // threads holding a lock
	for ; remaining > closing+locked; remaining-- {
		t := g.rng.IntN(c.Threads)
		if l := g.held[t]; l >= 0 && g.rng.IntN(4) == 0 {
			g.line(t, "rel", "Rel", "L", l, 0)
			g.held[t], g.holder[l] = -1, -1
			locked--
			continue
		}
		if l := g.rng.IntN(c.Locks + 1); g.held[t] < 0 && l < c.Locks && g.holder[l] < 0 &&
			g.rng.IntN(8) == 0 && remaining >= closing+locked+2 {
			g.line(t, "acq", "Acq", "L", l, 0)
			g.held[t], g.holder[l] = l, t
			locked++
			continue
		}
		v := g.rng.IntN(c.Vars)
		if g.rng.IntN(2) == 0 {
			g.line(t, "r", "Read", "V", v, g.mem[v])
		} else {
			g.mem[v] = int64(g.rng.IntN(101))
			g.line(t, "w", "Write", "V", v, g.mem[v])
		}
	}
	for t := c.Threads - 1; t >= 0; t-- {
		if l := g.held[t]; l >= 0 {
			g.line(t, "rel", "Rel", "L", l, 0)
		}
		if vals && t > 0 {
			g.line(t, "end", "End", "", -1, 0)
		}
	}
	for k := 1; k < c.Threads; k++ {
		g.line(0, "join", "Join", "", k, 0)
	}
	if g.err != nil {
		return g.err
	}
	return g.w.Flush()
}

// synth is the state of one Synthetic run.
type synth struct {
	w      *bufio.Writer
	vals   bool
	rng    *rand.Rand
	buf    []byte
	err    error
	mem    []int64 // current value per variable
	holder []int   // thread holding each lock, -1 if free
	held   []int   // lock held by each thread, -1 if none
}

// line writes one event of thread t: std and val name the operation in
// each format; the argument is prefix+arg (a thread when prefix is "" and
// arg >= 0, nothing when arg < 0).
func (g *synth) line(t int, std, val, prefix string, arg int, value int64) {
	if g.err != nil {
		return
	}
	b := g.buf[:0]
	if g.vals {
		b = append(b, val...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(t), 10)
		b = append(b, ' ')
		if arg < 0 {
			b = append(b, '0')
		} else {
			b = append(b, prefix...)
			b = strconv.AppendInt(b, int64(arg), 10)
		}
		b = append(b, ' ')
		b = strconv.AppendInt(b, value, 10)
	} else {
		b = append(b, 'T')
		b = strconv.AppendInt(b, int64(t), 10)
		b = append(b, '|')
		b = append(b, std...)
		if arg >= 0 {
			b = append(b, '(')
			if prefix == "" {
				b = append(b, 'T')
			} else {
				b = append(b, prefix...)
			}
			b = strconv.AppendInt(b, int64(arg), 10)
			b = append(b, ')')
		}
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(1+g.rng.IntN(1000)), 10)
	}
	b = append(b, '\n')
	g.buf = b
	_, g.err = g.w.Write(b)
}
