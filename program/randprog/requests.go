package randprog

import (
	"fmt"
	"strings"
)

// This file generates the request shape that Options.Requests enables, the
// shape of Nidhugg's dispatcher benchmark: every global gi has a lock li of
// its own (a channel), the threads (servers) may check a channel under its
// lock, and main, after creating them, makes n requests in a loop. A request
// creates a helper thread that stores constants to globals, loads a global,
// works on one of two channels under their locks depending on the value,
// and joins the helper. mcr-seeds lost outcomes on this shape
// (testdata/c/dispatch_reread.c) while the programs without it found
// nothing: a channel's critical section that reads its global twice, with
// main's later reads fixed, is what its relaxation probe got wrong.

// channelBlock emits a critical section of gl's own lock: one or two of a
// load, an increment, and a check that reads gl twice (if gl > c, store it
// in another global).
func (g *gen) channelBlock(i int) {
	gl := g.globals[i]
	g.line("pthread_mutex_lock(&l%d);", i)
	for range 1 + g.rng.IntN(2) {
		switch g.rng.IntN(3) {
		case 0:
			g.line("%s = %s;", g.local(), load(gl))
		case 1:
			g.store(gl, fmt.Sprintf("%s + %d", load(gl), 1+g.rng.IntN(2)))
		default:
			g.line("if (%s > %d)", load(gl), g.small()-1)
			g.indent++
			g.store(g.pick(), load(gl))
			g.indent--
		}
	}
	g.line("pthread_mutex_unlock(&l%d);", i)
}

// requestFuncs returns the helper thread's function and request().
func (g *gen) requestFuncs() string {
	var out strings.Builder
	g.begin()
	for range 1 + g.rng.IntN(2) {
		g.store(g.pick(), fmt.Sprint(g.small()))
	}
	out.WriteString("void *helper(void *arg)\n{\n\t(void)arg;\n")
	out.WriteString(g.body.String())
	out.WriteString("\treturn NULL;\n}\n\n")

	g.begin()
	g.line("pthread_create(&h, NULL, helper, NULL);")
	c := g.local()
	g.line("%s = %s;", c, load(g.pick()))
	g.line("if (%s %s %d) {", c, g.cmp(), g.small())
	g.indent++
	g.channelBlock(g.rng.IntN(len(g.globals)))
	g.indent--
	g.line("} else {")
	g.indent++
	g.channelBlock(g.rng.IntN(len(g.globals)))
	g.indent--
	g.line("}")
	g.line("pthread_join(h, NULL);")
	out.WriteString("static void request(void)\n{\n\tpthread_t h;\n")
	if g.declare(&out) {
		out.WriteString("\n")
	}
	out.WriteString(g.body.String())
	g.unused(&out)
	out.WriteString("}\n")
	return out.String()
}
