//go:build !cgo || noz3

package z3

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestStub(t *testing.T) {
	if Available() {
		t.Error("Available() = true in a build without Z3")
	}
	c, err := NewContext()
	if c != nil || !errors.Is(err, ErrNotBuilt) {
		t.Fatalf("NewContext = %v, %v; want nil, ErrNotBuilt", c, err)
	}
	if !strings.Contains(err.Error(), "explicit backend") {
		t.Errorf("error %q does not point to the explicit backend", err)
	}
	var z Context
	if z.BVBin(BVAdd, z.BVVar("x", 8), z.BV(1, 8)) != (Term{}) || !errors.Is(z.Err(), ErrNotBuilt) {
		t.Error("a bit-vector builder succeeded without Z3")
	}
	if _, ok := (Model{}).BV(Term{}); ok {
		t.Error("Model.BV succeeded without Z3")
	}
	if _, ok := (Model{}).Bool(Term{}); ok {
		t.Error("Model.Bool succeeded without Z3")
	}
	var s Solver
	if res, err := s.Check(context.Background(), 0); res != Unknown || !errors.Is(err, ErrNotBuilt) {
		t.Errorf("Check = %v, %v; want Unknown, ErrNotBuilt", res, err)
	}
}
