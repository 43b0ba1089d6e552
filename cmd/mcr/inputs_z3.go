package main

import (
	"time"

	"mcr/encode"
	"mcr/encode/z3"
	"mcr/program/sym"
)

func init() {
	if z3.Available() {
		newZ3InputSolver = func(timeout time.Duration) sym.Solver { return encode.InputSolver{Timeout: timeout} }
	}
}
