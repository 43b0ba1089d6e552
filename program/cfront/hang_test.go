package cfront

import (
	"testing"
	"time"
)

// TestParserDoesNotHang keeps the inputs on which cc/v4's parser looped
// forever (found by FuzzLoad): loading must answer, with an error or not.
func TestParserDoesNotHang(t *testing.T) {
	for _, src := range []string{"*", "*\n#define A 1\n", "*\n#include <a>", "*/\n#include <pt", "*/\n#include \"a"} {
		done := make(chan error, 1)
		go func() {
			_, err := LoadSource("h.c", []byte(src), Options{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%q: accepted", src)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%q: loading does not finish", src)
		}
	}
}
