package mcr_test

import (
	"context"
	"testing"

	"mcr/encode"
	"mcr/explicit"
	"mcr/program"
	"mcr/program/cfront"
)

// largeTrace runs a program whose threads do many shared accesses under
// and outside a lock, and returns its trace.
func largeTrace(b *testing.B, iters string) *program.Trace {
	src := `#include <pthread.h>
int x, y, z;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
	long id = (long)a;
	for (int i = 0; i < ITERS; i++) {
		x = x + id;
		pthread_mutex_lock(&m); y = y + 1; pthread_mutex_unlock(&m);
		if (z == i) z = i + 1;
	}
	return 0;
}
int main(void) { pthread_t t[3]; for (long i = 0; i < 3; i++) pthread_create(&t[i], 0, w, (void *)(i + 1)); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); return 0; }`
	p, err := cfront.LoadSource("large.c", []byte(src), cfront.Options{Defines: []string{"ITERS=" + iters}})
	if err != nil {
		b.Fatal(err)
	}
	x, err := program.Replay(p, nil)
	if err != nil {
		b.Fatal(err)
	}
	return x.Trace()
}

// seedQuery flips thread 2's first read of x to the value thread 1 wrote
// in its fifth iteration: a satisfiable query whose seed interleaves the
// first iterations of thread 1 (with their lock sections) before the read.
func seedQuery(b *testing.B, t *program.Trace) program.SeedQuery {
	var r int32 = -1
	var v int64
	writes := 0
	for i := range t.Events {
		e := &t.Events[i]
		if e.Kind != program.Read && e.Kind != program.Write || t.LocName(e.Loc) != "x" {
			continue
		}
		switch name := t.Threads[e.Thread].Name; {
		case name == "0.2" && e.Kind == program.Read && r < 0:
			r = int32(i)
		case name == "0.0" && e.Kind == program.Write:
			if writes++; writes == 5 {
				v = e.Value
			}
		}
	}
	if r < 0 || writes < 5 {
		b.Fatal("no read to flip")
	}
	q := program.NewSeedQuery(t, nil)
	q.Read, q.Value = r, v
	return q
}

func benchSeed(b *testing.B, d program.SeedDecider, iters string) {
	t := largeTrace(b, iters)
	q := seedQuery(b, t)
	var a program.SeedAnswer
	var err error
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if a, err = d.Decide(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if !a.Sat {
		b.Fatal("the benchmark query should be satisfiable")
	}
	if a.Sat {
		if _, err := program.CheckSeed(context.Background(), q, a); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(t.Events)), "events")
	b.ReportMetric(float64(len(a.Schedule)), "seed-steps")
}

// BenchmarkSeedQuery measures encoding and solving one seed query on
// traces of about 230, 450 and 900 events.
func BenchmarkSeedQuery(b *testing.B) {
	for _, iters := range []string{"10", "20", "40"} {
		b.Run("explicit/iters="+iters, func(b *testing.B) { benchSeed(b, explicit.Seeder{}, iters) })
		b.Run("z3/iters="+iters, func(b *testing.B) {
			needZ3(b)
			if iters == "40" {
				// Z3 times out (60 s) at ~900 events: the pairwise
				// lock-section disjunctions; the explicit search is the default
				b.Skip("z3 is too slow on this size")
			}
			z, err := encode.NewZ3Seeder(0)
			if err != nil {
				b.Fatal(err)
			}
			defer z.Close()
			benchSeed(b, z, iters)
		})
	}
}

// frontierInstance is the good-writes instance Explore asks when thread
// 2's first read of x (seedQuery's) is flipped at the end of the trace:
// every event of the other threads is in it with the value it read, and
// thread 2's events up to the read; main from its first join on is left
// out.
func frontierInstance(b *testing.B, t *program.Trace, q program.SeedQuery) *program.Instance {
	r := t.Events[q.Read]
	sub := *t
	sub.Events = nil
	joined := map[program.ThreadID]bool{} // threads past their first join
	for i, e := range t.Events {
		joined[e.Thread] = joined[e.Thread] || e.Kind == program.Join
		switch {
		case e.Thread == r.Thread && e.Index > r.Index, joined[e.Thread]:
			continue
		case int32(i) == q.Read:
			e.Value = q.Value
		}
		sub.Events = append(sub.Events, e)
	}
	inst, err := program.InstanceFromTrace(&sub, program.GoodWrites)
	if err != nil {
		b.Fatal(err)
	}
	inst.Guide = nil // let the deciders search
	return inst
}

// BenchmarkSeedInstance measures deciding the good-writes instance that
// Explore asks for the seed of BenchmarkSeedQuery at the end of the trace
// (frontierInstance: about as many events as the trace), with VerifySC and
// with Z3 over order variables (encode.Z3Decider), without the guide that
// Explore passes.
func BenchmarkSeedInstance(b *testing.B) {
	for _, iters := range []string{"10", "20", "40"} {
		t := largeTrace(b, iters)
		inst := frontierInstance(b, t, seedQuery(b, t))
		for _, d := range []program.Decider{&explicit.VerifySC{}, &encode.Z3Decider{}} {
			b.Run(d.Name()+"/iters="+iters, func(b *testing.B) {
				if d.Name() == "z3" {
					needZ3(b)
				}
				for i := 0; i < b.N; i++ {
					a, err := d.Decide(context.Background(), inst)
					if err != nil || !a.Sat {
						b.Fatalf("%v, %v", a.Sat, err)
					}
					if i == 0 {
						if err := program.ValidateWitness(inst, a.Witness); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(len(inst.Events)), "events")
			})
		}
	}
}
