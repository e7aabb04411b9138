package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// DriverPath is drivertest.Path, set by drivertest_test.go: this package's
// internal tests cannot import drivertest, which imports it.
var DriverPath func() (string, error)

// realDriver is the driver under test (drivertest's rule); these tests
// talk to the real Cranelift, so a missing driver is a failure, not a skip.
func realDriver(t testing.TB) *Client {
	t.Helper()
	p, err := DriverPath()
	if err != nil {
		t.Fatal(err)
	}
	c := New(p)
	t.Cleanup(func() { c.Close() })
	return c
}

// fakeDriver is a shell script standing in for a driver that misbehaves.
func fakeDriver(t *testing.T, script string) *Client {
	t.Helper()
	p := filepath.Join(t.TempDir(), "driver.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	c := New(p)
	t.Cleanup(func() { c.Close() })
	return c
}

func ctx(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return c
}

func TestVersionAndOneProcessForManyRequests(t *testing.T) {
	c := realDriver(t)
	for range 3 {
		v, err := c.Version(ctx(t, time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`^0\.\d{3}\.\d+$`).MatchString(v.Cranelift) || len(v.Targets) != 8 {
			t.Fatalf("version answer %+v", v)
		}
		if want := pinnedVersion(t); want != "" && v.Cranelift != want {
			t.Fatalf("the default driver is Cranelift %s, driver/Cargo.toml pins %s: rebuild it (make driver)", v.Cranelift, want)
		}
	}
	if c.Starts != 1 {
		t.Errorf("%d driver processes for 3 requests, want 1", c.Starts)
	}
}

// pinnedVersion is the release driver/Cargo.toml pins, when the tests
// run the default driver (no $CLIFF_DRIVER, no $CLIFF_CRANELIFT); "" else.
func pinnedVersion(t *testing.T) string {
	if os.Getenv("CLIFF_DRIVER") != "" || os.Getenv("CLIFF_CRANELIFT") != "" {
		return ""
	}
	data, err := os.ReadFile("../../driver/Cargo.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^cranelift-codegen = \{ version = "=([0-9.]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("driver/Cargo.toml pins no cranelift-codegen version")
	}
	return string(m[1])
}

func TestVerifierComplaintIsAFailure(t *testing.T) {
	c := realDriver(t)
	err := c.Verify(ctx(t, time.Minute), "function %f() -> i32 {\nblock0:\n    v0 = iconst.i64 1\n    return v0\n}\n", "", nil)
	var f *Failure
	if !errors.As(err, &f) || f.Status != StatusError || !strings.Contains(f.Message, "%f") {
		t.Fatalf("Verify of a mistyped return: %v, want an error Failure naming %%f", err)
	}
	if err := c.Verify(ctx(t, time.Minute), "function %f() -> i64 {\nblock0:\n    v0 = iconst.i64 1\n    return v0\n}\n", "x86_64", nil); err != nil {
		t.Fatalf("Verify of a valid function: %v", err)
	}
}

func TestCompileReportsEachModule(t *testing.T) {
	c := realDriver(t)
	out := filepath.Join(t.TempDir(), "b.o")
	good := "function %f(i32, i32) -> i32 {\nblock0(v0: i32, v1: i32):\n    v2 = udiv v0, v1\n    return v2\n}\n"
	// s390x cannot lower struct arguments: a real Cranelift panic.
	panics := "function %f(i64 sarg(64)) -> i64 system_v {\nblock0(v0: i64):\n    v1 = load.i64 v0\n    return v1\n}\n"
	a, err := c.Compile(ctx(t, time.Minute), &CompileRequest{
		Target:  "s390x",
		Flags:   []string{"opt_level=speed"},
		Output:  out,
		Modules: []string{good, panics, "function %f( {"},
		Entries: []Entry{{Module: 0, Func: "%f"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := a.Modules[0]; m.Status != StatusOK || len(m.Functions) != 1 || m.Functions[0].Symbol != "cliff_m0_f" {
		t.Errorf("good module: %+v", m)
	} else if len(m.Functions[0].Traps) == 0 || m.Functions[0].Traps[0].Code != "int_divz" {
		t.Errorf("udiv has no int_divz trap site: %+v", m.Functions[0].Traps)
	}
	if m := a.Modules[1]; m.Status != StatusCrash || !strings.Contains(m.Location, "s390x") {
		t.Errorf("panicking module: %+v, want a crash located in the s390x backend", m)
	}
	if m := a.Modules[2]; m.Status != StatusError || m.Message == "" {
		t.Errorf("unparsable module: %+v, want an error with a message", m)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Errorf("no object written: %v", err)
	}
	if c.Starts != 1 {
		t.Errorf("the driver restarted after a caught panic")
	}
}

func TestInterpretValuesRoundTrip(t *testing.T) {
	c := realDriver(t)
	a, err := c.Interpret(ctx(t, time.Minute), &InterpretRequest{
		CLIF: "function %f(i32) -> i32 {\nblock0(v0: i32):\n    v1 = bnot v0\n    return v1\n}\n",
		Func: "%f",
		Args: []Value{{Type: "i32", Hex: "01000000"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Results) != 1 || a.Results[0] != (Value{Type: "i32", Hex: "feffffff"}) {
		t.Fatalf("results %+v, want i32 feffffff", a.Results)
	}
	dv, err := a.Results[0].DataValue()
	if err != nil || dv.Type.String() != "i32" || dv.Bytes[0] != 0xfe {
		t.Errorf("DataValue() = %v, %v", dv, err)
	}
	if _, err := (Value{Type: "i32", Hex: "0100"}).DataValue(); err == nil {
		t.Error("a 2-byte i32 was accepted")
	}
}

func TestDeathIsReportedWithTheSignalAndTheNextCallRestarts(t *testing.T) {
	c := fakeDriver(t, "read line\necho 'fatal runtime error: stack overflow' >&2\nkill -SEGV $$\n")
	_, err := c.Version(ctx(t, 10*time.Second))
	var died *DiedError
	if !errors.As(err, &died) || died.Signal != "SIGSEGV" || !strings.Contains(died.Stderr, "stack overflow") {
		t.Fatalf("err = %v, want a DiedError with SIGSEGV and the driver's stderr", err)
	}
	_, err = c.Version(ctx(t, 10*time.Second))
	if !errors.As(err, &died) || c.Starts != 2 {
		t.Fatalf("second call: err = %v, starts = %d; want a fresh process that dies again", err, c.Starts)
	}
}

func TestSilentDriverIsKilledAtTheDeadline(t *testing.T) {
	c := fakeDriver(t, "exec sleep 600\n")
	start := time.Now()
	_, err := c.Version(ctx(t, 300*time.Millisecond))
	var died *DiedError
	if !errors.As(err, &died) || !strings.Contains(died.How, "timed out") {
		t.Fatalf("err = %v, want a timeout DiedError", err)
	}
	if time.Since(start) > time.Minute {
		t.Errorf("the deadline was not enforced")
	}
}

func TestGarbledAnswerIsAnError(t *testing.T) {
	c := fakeDriver(t, "read line\necho '{\"id\":99,\"status\":\"ok\"}'\nsleep 600\n")
	_, err := c.Version(ctx(t, 10*time.Second))
	if err == nil || !strings.Contains(err.Error(), "answer for request 99") {
		t.Fatalf("err = %v, want a mismatched-id error", err)
	}
}

func TestRequestLine(t *testing.T) {
	for _, tc := range []struct {
		req  any
		want string
	}{
		{struct{}{}, `{"id":7,"op":"version"}` + "\n"},
		{&InterpretRequest{CLIF: "x", Func: "%f"}, `{"id":7,"op":"version","clif":"x","func":"%f","args":null}` + "\n"},
	} {
		got, err := requestLine(7, "version", tc.req)
		if err != nil || string(got) != tc.want {
			t.Errorf("requestLine(%+v) = %q, %v; want %q", tc.req, got, err, tc.want)
		}
	}
	if _, err := requestLine(1, "x", []int{1}); err == nil {
		t.Error("a non-object request was accepted")
	}
}
