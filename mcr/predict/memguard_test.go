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
	expectStop(t, newMemGuard(1, false)) // any heap is above one byte
	if newMemGuard(0, true) != nil {
		t.Error("limit 0 should give no guard")
	}
}

// expectStop checks that guard g cancels a query with errMemory, and
// closes it.
func expectStop(t *testing.T, g *memGuard) {
	t.Helper()
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
}
