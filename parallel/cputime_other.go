//go:build !linux

package parallel

import "time"

var epoch = time.Now()

// threadCPU returns the time since start: without a thread CPU clock,
// measuring (Tree.Measure) counts wall-clock time.
func threadCPU() time.Duration { return time.Since(epoch) }
