package registry_test

import (
	"context"
	"fmt"
	"testing"

	"mcr/mcr/registry"
	"mcr/program/cfront"
	"mcr/program/explore"
)

// BenchmarkExplore measures the cost per execution of the exploring
// algorithms on BENCHMARKS.md rows (one worker): the ns/op and B/op
// reported are per whole exploration, and "ns/exec" divides by the
// executions. Run with go test -bench Explore -benchmem ./mcr/registry.
func BenchmarkExplore(b *testing.B) {
	for _, row := range []struct {
		file string
		n    int
	}{{"lastzero", 8}, {"casrot", 7}, {"readers", 10}} {
		p, err := cfront.Load(fmt.Sprintf("../../testdata/c/%s.c", row.file), cfront.Options{Defines: []string{fmt.Sprintf("N=%d", row.n)}})
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range []string{"rf", "rvf", "mcr"} {
			a, err := registry.Lookup(name)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s-N%d/%s", row.file, row.n, name), func(b *testing.B) {
				b.ReportAllocs()
				execs := 0
				for i := 0; i < b.N; i++ {
					res := a.Run(context.Background(), p, explore.Options{KeepGoing: true}, explore.Config{Workers: 1})
					if !res.Stats.Complete {
						b.Fatal("incomplete")
					}
					execs += res.Stats.Executions
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(execs), "ns/exec")
			})
		}
	}
}
