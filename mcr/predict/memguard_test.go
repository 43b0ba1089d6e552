package predict

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestMemGuard checks that a guard whose limit the heap exceeds cancels a
// running query with errMemory.
func TestMemGuard(t *testing.T) {
	g := newMemGuard(1, false) // any heap is above one byte
	ctx, release := g.query(context.Background())
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute): // a safety net, not a timing check
		t.Fatal("the guard did not cancel the query")
	}
	release()
	if !errors.Is(context.Cause(ctx), errMemory) {
		t.Errorf("cause %v, want errMemory", context.Cause(ctx))
	}
	if n := g.close(); n != 1 {
		t.Errorf("%d queries cancelled, want 1", n)
	}
	if newMemGuard(0, true) != nil {
		t.Error("limit 0 should give no guard")
	}
}
