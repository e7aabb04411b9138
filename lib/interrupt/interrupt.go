// Package interrupt turns SIGINT and SIGTERM into the cancellation of a
// context, so that cliff's tools stop cleanly instead of dying where they
// stand: workers and their child processes stopped, scratch directories
// removed, outputs closed (the zstd frame finished, the temporary file of
// a named output renamed, so the records finished before the signal are
// kept and readable).
//
// Only the first signal is caught: after it SIGINT and SIGTERM have their
// default effect again, so a second one kills a tool that is slow to stop.
// SIGPIPE is left alone (cliff-gen | head ends quietly).
//
// A tool interrupted this way exits with 128 + the signal's number (130
// for SIGINT, 143 for SIGTERM), as a shell reports a process killed by it,
// so that scripts can tell an interrupted run from a failed one.
package interrupt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Interrupted is the cause of a context that a signal cancelled.
type Interrupted struct {
	Signal syscall.Signal
}

func (e *Interrupted) Error() string {
	return fmt.Sprintf("interrupted by %s", name(e.Signal))
}

// ExitStatus is the exit status of a tool stopped by the signal. (Not
// ExitCode: urfave/cli would take the error for a cli.ExitCoder and exit
// in the middle of App.Run.)
func (e *Interrupted) ExitStatus() int { return 128 + int(e.Signal) }

func name(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// Context returns a context that the first SIGINT or SIGTERM cancels,
// with an *Interrupted as its cause. stop releases the signals (they get
// their default effect back) and cancels the context.
func Context(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			signal.Reset(syscall.SIGINT, syscall.SIGTERM)
			cancel(&Interrupted{Signal: s.(syscall.Signal)})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// Cause returns the *Interrupted that cancelled ctx, or nil if no signal
// did.
func Cause(ctx context.Context) *Interrupted {
	var in *Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in
	}
	return nil
}
