package pp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mcr/mcr/predict"
	"mcr/program/tracefile"
)

func TestRun(t *testing.T) {
	files, _ := filepath.Glob("/work/shared/data/traces/*")
	dec := os.Getenv("DEC")
	for _, f := range files {
		if strings.Contains(f, "enum-input") { continue }
		if p := os.Getenv("ONLY"); p != "" && !strings.Contains(f, p) { continue }
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		res, err := predict.File(ctx, f, tracefile.Options{}, predict.Options{Decider: dec, QueryTimeout: 10 * time.Second})
		cancel()
		if err != nil { fmt.Println(f, "ERR", err); continue }
		s := res.Stats
		fmt.Printf("%-40s ev=%d pairs=%d mhb=%d ls=%d cand=%d known=%d swept=%d fast=%d q=%d sat=%d unsat=%d unk=%d undec=%d races=%d racy=%d later=%d dis=%d inv=%d %.2fs complete=%v %v\n",
			filepath.Base(f), s.Events, s.Pairs, s.PrunedMHB, s.PrunedLockset, s.Candidates, s.Known, s.Swept, s.Fast, s.Queries, s.Sat, s.Unsat, s.Unknown, s.Undecided, len(res.Races), s.RacyEvents, s.LaterEvents, s.Disagreements, s.Invalid, s.Seconds, s.Complete, s.Phases)
		for _, d := range res.Disagreements { fmt.Println("   DIS", d.Query, d.Events, d.Answers) }
	}
}
