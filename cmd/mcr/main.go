// Command mcr is a stateless model checker and predictive analyser for
// concurrent programs built on Maximal Causality Reduction. See the README
// and DESIGN.md for what each verb does.
//
// Exit codes: 0 no finding, 1 finding, 2 bad input or usage, 3 incomplete
// (a bound, timeout or interruption cut the search).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
)

// Exit codes (DESIGN.md, "Conventions").
const (
	exitOK         = 0
	exitFinding    = 1
	exitBadInput   = 2
	exitIncomplete = 3
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func badInput(err error) error { return &exitError{exitBadInput, err} }

// runContext is the context of a long-running verb: cancelled by Ctrl-C,
// so that the verb stops cleanly with partial results, and after timeout
// when it is positive. Call the returned function when done.
func runContext(timeout time.Duration) (context.Context, func()) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	if timeout <= 0 {
		return ctx, stop
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	return ctx, func() { cancel(); stop() }
}

var version = "0.1.0-dev"

// commands are the verbs; each command's file adds its constructor in an
// init function, so that adding a verb touches no shared line.
var commands []func() *cobra.Command

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "mcr",
		Short:         "mcr: a model checker for concurrent programs (Maximal Causality Reduction)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	for _, mk := range commands {
		root.AddCommand(mk())
	}
	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Run:   func(cmd *cobra.Command, _ []string) { fmt.Fprintf(cmd.OutOrStdout(), "mcr %s\n", version) },
	})
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return badInput(err) })
	return root
}

func main() {
	if os.Getenv("GOGC") == "" {
		// The explorers allocate short-lived traces, clocks and instances
		// fast while their live heap stays small: collecting a fifth as
		// often saves a quarter of the time (lastzero N=11: 3.7 s to
		// 2.8 s) for tens of MB. GOGC overrides it.
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot()
	prof := addProfileFlags(root)
	defer prof.stop()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "mcr:", ee.err)
		}
		return ee.code
	}
	// cobra's own errors: unknown command, wrong number of arguments
	fmt.Fprintln(stderr, "mcr:", err)
	return exitBadInput
}
