package randprog

import "testing"

// TestInputsOption: with Inputs, programs read inputs; without it the
// programs are those of earlier versions (TestGolden).
func TestInputsOption(t *testing.T) {
	o := SmallOptions()
	o.Inputs = true
	n := 0
	for seed := int64(0); seed < 20; seed++ {
		if src := Generate(seed, o); contains(src, "__VERIFIER_nondet_") {
			n++
		}
	}
	if n < 10 {
		t.Errorf("%d of 20 programs read inputs", n)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
