package harness_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cliff/lib/arch"
	"cliff/lib/driver"
	"cliff/lib/driver/drivertest"
	"cliff/lib/harness"
)

// TestFinding36 runs finding 36 (lib/profile/data/findings/abi): a C
// caller keeps values in fs0 and fs1 across a call of a riscv64 function
// Cranelift compiled, and fs1, callee-saved under the RISC-V psABI, comes
// back changed. cliff's differential runs cannot see this (between
// Cranelift functions f9 is clobbered anyway, and the harness keeps
// nothing in fs1), so the finding has its own check: it fails when the
// Cranelift under test saves fs1, which is the day to move the finding to
// "fixed upstream".
func TestFinding36(t *testing.T) {
	dir := filepath.Join("..", "profile", "data", "findings", "abi")
	clif, err := os.ReadFile(filepath.Join(dir, "36-riscv64-fs1-not-callee-saved.clif"))
	if err != nil {
		t.Fatal(err)
	}
	// The driver compiles a module: the function, without the file's
	// test and target lines.
	text := string(clif)
	text = text[strings.Index(text, "\nfunction ")+1:]

	drv, err := drivertest.Path()
	if err != nil {
		t.Fatal(err)
	}
	rv := arch.RISCV64
	emu, err := harness.EmulatorPath(rv)
	if err != nil {
		t.Skipf("no riscv64 emulator: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := driver.New(drv)
	defer c.Close()
	tmp := t.TempDir()
	obj := filepath.Join(tmp, "f.o")
	ans, err := c.Compile(ctx, &driver.CompileRequest{Target: "riscv64", Output: obj,
		Modules: []string{text}, Entries: []driver.Entry{{Module: 0, Func: "%f"}}})
	if err != nil {
		t.Fatal(err)
	}
	if m := ans.Modules[0]; m.Status != driver.StatusOK {
		t.Fatalf("the function does not compile: %+v", m)
	}
	exe := filepath.Join(tmp, "caller")
	cc := exec.CommandContext(ctx, harness.Compiler(rv), "-O1", "-static", filepath.Join(dir, "36-caller.c"), obj, "-o", exe)
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", harness.Compiler(rv), err, out)
	}
	out, err := exec.CommandContext(ctx, emu, exe).CombinedOutput()
	const want = "result 26; after the call fs0 = 42 (was 42), fs1 = 1 (was 43)\n"
	if got := string(out); got != want {
		t.Errorf("the caller printed %q (%v), want %q: has this Cranelift fixed finding 36 (fs1 saved now)?", got, err, want)
	}
}
