package main

// This file implements the hidden --cpuprofile and --memprofile flags of
// every verb: what `go tool pprof` reads, so that a slow or memory-hungry
// run on a user's input can be profiled with the released binary; and of
// the hidden --exectrace flag, an execution trace (`go tool trace`), which
// shows what the workers of --workers do and where they wait.

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"

	"github.com/spf13/cobra"
)

// profiling holds the flags and the open CPU profile.
type profiling struct {
	cpuPath, memPath, tracePath string
	cpu, trace                  *os.File
}

// addProfileFlags adds the flags to root and starts the CPU profile before
// every verb; the caller calls stop when the verb returns (also on error,
// when cobra runs no post-run hook). Errors: a profile file cannot be
// created (bad input).
func addProfileFlags(root *cobra.Command) *profiling {
	p := &profiling{}
	fl := root.PersistentFlags()
	fl.StringVar(&p.cpuPath, "cpuprofile", "", "write a CPU profile (pprof format) to this file")
	fl.StringVar(&p.memPath, "memprofile", "", "write a heap profile (pprof format, in-use and allocated) to this file at the end")
	fl.StringVar(&p.tracePath, "exectrace", "", "write an execution trace (go tool trace) to this file")
	_ = fl.MarkHidden("cpuprofile")
	_ = fl.MarkHidden("memprofile")
	_ = fl.MarkHidden("exectrace")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if p.tracePath != "" {
			f, err := os.Create(p.tracePath)
			if err != nil {
				return badInput(fmt.Errorf("--exectrace: %w", err))
			}
			if err := trace.Start(f); err != nil {
				f.Close()
				return badInput(fmt.Errorf("--exectrace: %w", err))
			}
			p.trace = f
		}
		if p.cpuPath == "" {
			return nil
		}
		f, err := os.Create(p.cpuPath)
		if err != nil {
			return badInput(fmt.Errorf("--cpuprofile: %w", err))
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return badInput(fmt.Errorf("--cpuprofile: %w", err))
		}
		p.cpu = f
		return nil
	}
	return p
}

// stop ends the execution trace and the CPU profile and writes the heap profile (after a
// collection, so that it shows what is live at the end).
func (p *profiling) stop() {
	if p.trace != nil {
		trace.Stop()
		p.trace.Close()
		p.trace = nil
	}
	if p.cpu != nil {
		pprof.StopCPUProfile()
		p.cpu.Close()
		p.cpu = nil
	}
	if p.memPath != "" {
		f, err := os.Create(p.memPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcr: --memprofile:", err)
			return
		}
		runtime.GC()
		if err := pprof.WriteHeapProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "mcr: --memprofile:", err)
		}
		f.Close()
		p.memPath = ""
	}
}
