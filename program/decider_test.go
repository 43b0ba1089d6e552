package program

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeAnswer is the answer of the fake query kind: a query q (an int) is
// satisfiable with witness q; any other witness is invalid.
type fakeAnswer struct {
	sat     bool
	witness int
}

var fakeKind = QueryKind[int, fakeAnswer]{
	Name: "fake",
	Sat:  func(a fakeAnswer) bool { return a.sat },
	Validate: func(_ context.Context, q int, a fakeAnswer) error {
		if a.witness != q {
			return fmt.Errorf("witness %d, want %d", a.witness, q)
		}
		return nil
	},
	Describe: func(q int) string { return fmt.Sprintf("query %d", q) },
}

// fake answers every query with ans and err and counts its calls and
// closes.
type fake struct {
	name           string
	ans            fakeAnswer
	err            error
	calls, closed  int
	cancelOnAnswer context.CancelFunc
}

func (f *fake) Name() string { return f.name }

func (f *fake) Decide(context.Context, int) (fakeAnswer, error) {
	f.calls++
	if f.cancelOnAnswer != nil {
		f.cancelOnAnswer()
	}
	return f.ans, f.err
}

func (f *fake) Close() { f.closed++ }

func TestFallback(t *testing.T) {
	b := fakeAnswer{sat: true, witness: 7}
	cases := []struct {
		name     string
		errA     error
		cancel   bool // ctx is done once A answers
		wantB    bool
		wantErrA bool
	}{
		{"A answers", nil, false, false, false},
		{"A unknown", fmt.Errorf("z3: timeout: %w", ErrUnknown), false, true, false},
		{"A malformed query", errors.New("bad query"), false, false, true},
		{"A unsupported", fmt.Errorf("x: %w", ErrUnsupported), false, false, true},
		{"A unknown, ctx done", fmt.Errorf("z3: %w: %w", context.Canceled, ErrUnknown), true, false, true},
	}
	for _, c := range cases {
		ctx, cancel := context.WithCancel(context.Background())
		A := &fake{name: "a", err: c.errA}
		if c.cancel {
			A.cancelOnAnswer = cancel
		}
		B := &fake{name: "b", ans: b}
		var used atomic.Int64
		f := Fallback[int, fakeAnswer]{A: A, B: B, Used: &used}
		got, err := f.Decide(ctx, 7)
		cancel()
		switch {
		case c.wantB && (err != nil || got != b || B.calls != 1 || used.Load() != 1):
			t.Errorf("%s: got %v, %v (B asked %d times, used %d); want B's answer", c.name, got, err, B.calls, used.Load())
		case c.wantErrA && (!errors.Is(err, c.errA) || B.calls != 0 || used.Load() != 0):
			t.Errorf("%s: got %v, %v (B asked %d times); want A's error, B not asked", c.name, got, err, B.calls)
		case !c.wantB && !c.wantErrA && (err != nil || B.calls != 0):
			t.Errorf("%s: got %v, %v (B asked %d times); want A's answer", c.name, got, err, B.calls)
		}
	}
	A, B := &fake{name: "a"}, &fake{name: "b"}
	f := Fallback[int, fakeAnswer]{A: A, B: B}
	if f.Name() != "a (fallback b)" {
		t.Errorf("name %q", f.Name())
	}
	if _, err := (Fallback[int, fakeAnswer]{A: &fake{err: ErrUnknown}, B: B}).Decide(context.Background(), 1); err != nil {
		t.Errorf("no Used counter: %v", err)
	}
	f.Close()
	if A.closed != 1 || B.closed != 1 {
		t.Errorf("Close closed A %d and B %d times", A.closed, B.closed)
	}
}

func TestCross(t *testing.T) {
	stats := &CrossStats{}
	ctx := context.Background()
	ask := func(a, b *fake, q int) (fakeAnswer, error) {
		return Cross[int, fakeAnswer]{Kind: fakeKind, A: a, B: b, CrossStats: stats}.Decide(ctx, q)
	}
	yes := fakeAnswer{sat: true, witness: 3}
	// Agreement.
	if got, err := ask(&fake{name: "a", ans: yes}, &fake{name: "b", ans: yes}, 3); err != nil || got != yes {
		t.Errorf("agreement: %v %v", got, err)
	}
	// A disagreement: A's answer is returned, the first one described.
	if got, err := ask(&fake{name: "a", ans: yes}, &fake{name: "b"}, 3); err != nil || got != yes {
		t.Errorf("disagreement: %v %v", got, err)
	}
	ask(&fake{name: "c"}, &fake{name: "d", ans: yes}, 3)
	// An invalid witness (B's), no disagreement.
	ask(&fake{name: "a", ans: yes}, &fake{name: "b", ans: fakeAnswer{sat: true, witness: 4}}, 3)
	// A fails: B's answer; no disagreement is counted without two answers.
	if got, err := ask(&fake{name: "a", err: ErrUnknown}, &fake{name: "b"}, 3); err != nil || got.sat {
		t.Errorf("A fails: %v %v", got, err)
	}
	if stats.Queries != 5 || stats.Disagreements != 2 || stats.Invalid != 1 {
		t.Errorf("stats %d queries, %d disagreements, %d invalid; want 5, 2, 1", stats.Queries, stats.Disagreements, stats.Invalid)
	}
	if want := "a says true, b says false on query 3"; stats.First != want {
		t.Errorf("first disagreement %q, want %q", stats.First, want)
	}
	a, b := &fake{name: "a"}, &fake{name: "b"}
	c := Cross[int, fakeAnswer]{Kind: fakeKind, A: a, B: b, CrossStats: stats}
	if c.Name() != "a+b" {
		t.Errorf("name %q", c.Name())
	}
	c.Close()
	if a.closed != 1 || b.closed != 1 {
		t.Errorf("Close closed A %d and B %d times", a.closed, b.closed)
	}
}

func TestChecked(t *testing.T) {
	ctx := context.Background()
	if got, err := Checked(ctx, fakeKind, &fake{name: "a", ans: fakeAnswer{sat: true, witness: 2}}, 2); err != nil || !got.sat {
		t.Errorf("valid: %v %v", got, err)
	}
	if _, err := Checked(ctx, fakeKind, &fake{name: "a", ans: fakeAnswer{sat: true, witness: 1}}, 2); err == nil ||
		!strings.Contains(err.Error(), "a returned an invalid witness") {
		t.Errorf("invalid: %v", err)
	}
	if got, err := Checked(ctx, fakeKind, &fake{name: "a"}, 2); err != nil || got.sat {
		t.Errorf("unsat: %v %v", got, err)
	}
}
