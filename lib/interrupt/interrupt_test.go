package interrupt

import (
	"context"
	"syscall"
	"testing"
)

// A signal cancels the context with itself as the cause and the exit
// status that goes with it; stopping without a signal leaves no cause.
func TestContext(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		exit int
		text string
	}{
		{syscall.SIGINT, 130, "interrupted by SIGINT"},
		{syscall.SIGTERM, 143, "interrupted by SIGTERM"},
	} {
		ctx, stop := Context(context.Background())
		if err := syscall.Kill(syscall.Getpid(), tc.sig); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		in := Cause(ctx)
		if in == nil || in.Signal != tc.sig || in.ExitStatus() != tc.exit || in.Error() != tc.text {
			t.Errorf("after %v: cause %v, want %q with exit status %d", tc.sig, in, tc.text, tc.exit)
		}
		stop()
	}
	ctx, stop := Context(context.Background())
	stop()
	<-ctx.Done()
	if in := Cause(ctx); in != nil {
		t.Errorf("stopped without a signal: cause %v", in)
	}
}
