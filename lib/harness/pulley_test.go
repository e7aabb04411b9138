package harness

import (
	"cliff/lib/driver/drivertest"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cliff/lib/driver"
	"cliff/lib/record"
)

// batchFile encodes a Pulley batch file as driver/src/pulley.rs does.
func batchFile(flags uint32, image []byte, funcs []function, relocs []PulleyReloc, names []string, entries []uint32) []byte {
	le := binary.LittleEndian
	b := []byte("CLIFPULY")
	for _, v := range []uint32{1, flags, uint32(len(image)), uint32(len(funcs)), uint32(len(relocs)), uint32(len(names)), uint32(len(entries)), 0} {
		b = le.AppendUint32(b, v)
	}
	b = append(b, image...)
	for _, f := range funcs {
		b = le.AppendUint32(b, uint32(f.addr))
		b = le.AppendUint32(b, uint32(f.size))
		b = le.AppendUint32(b, uint32(len(f.name)))
		b = append(b, f.name...)
	}
	for _, r := range relocs {
		b = le.AppendUint32(b, r.Offset)
		b = le.AppendUint32(b, r.Kind)
		b = le.AppendUint64(b, uint64(r.Addend))
		b = le.AppendUint32(b, r.TargetKind)
		b = le.AppendUint32(b, r.Target)
	}
	for _, n := range names {
		b = le.AppendUint32(b, uint32(len(n)))
		b = append(b, n...)
	}
	for _, e := range entries {
		b = le.AppendUint32(b, e)
	}
	return b
}

func TestParsePulleyBatch(t *testing.T) {
	image := make([]byte, 32)
	funcs := []function{{name: "cliff_m0_f", addr: 16, size: 8}}
	abs := PulleyReloc{Offset: 18, Kind: pulleyAbs8, Addend: 2, TargetKind: pulleyTargetImage, Target: 16}
	good := batchFile(0, image, funcs, []PulleyReloc{abs}, nil, []uint32{16, 0})
	tests := []struct {
		name string
		data []byte
		err  string
	}{
		{"good", good, ""},
		{"bad magic", append([]byte("CLIFPULX"), good[8:]...), "not a Pulley batch"},
		{"version", func() []byte { b := append([]byte(nil), good...); b[8] = 2; return b }(), "version 2"},
		{"truncated", good[:len(good)-2], "truncated"},
		{"trailing bytes", append(append([]byte(nil), good...), 0), "1 bytes after"},
		{"function outside", batchFile(0, image, []function{{name: "f", addr: 30, size: 8}}, nil, nil, nil), "outside the image"},
		{"entry outside", batchFile(0, image, funcs, nil, nil, []uint32{40}), "entry 0 at 40"},
		{"reloc outside", batchFile(0, image, funcs, []PulleyReloc{{Offset: 28, Kind: pulleyAbs8}}, nil, nil), "relocation at 28"},
		{"reloc kind", batchFile(0, image, funcs, []PulleyReloc{{Offset: 0, Kind: 9}}, nil, nil), "kind 9"},
		{"unknown name", batchFile(0, image, funcs, []PulleyReloc{{Offset: 0, Kind: pulleyAbs4, TargetKind: pulleyTargetName, Target: 0}}, nil, nil), "name 0 of 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParsePulleyBatch(tt.data)
			switch {
			case tt.err == "" && err != nil:
				t.Fatal(err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want %q", err, tt.err)
			case tt.err == "":
				if len(b.Functions) != 1 || b.Functions[0].name != "cliff_m0_f" || len(b.Entries) != 2 || b.Entries[0] != 16 || b.Relocs[0] != abs {
					t.Errorf("parsed %+v", b)
				}
			}
		})
	}
}

// TestLinkPulley: relocations are applied at PulleyImageBase, an import
// is refused, a batch for another target is an error.
func TestLinkPulley(t *testing.T) {
	runner := filepath.Join(t.TempDir(), "cliff-pulley")
	os.WriteFile(runner, nil, 0o755)
	image := make([]byte, 32)
	funcs := []function{{name: "cliff_m0_f", addr: 16, size: 8}}
	write := func(data []byte) string {
		p := filepath.Join(t.TempDir(), "b.pulley")
		os.WriteFile(p, data, 0o644)
		return p
	}
	relocs := []PulleyReloc{
		{Offset: 0, Kind: pulleyAbs8, Addend: 4, TargetKind: pulleyTargetImage, Target: 16},
		{Offset: 8, Kind: pulleyAbs4, TargetKind: pulleyTargetImage, Target: 16},
	}
	e, err := LinkPulley("pulley64", write(batchFile(0, image, funcs, relocs, nil, []uint32{16, 0})), runner)
	if err != nil {
		t.Fatal(err)
	}
	img := e.segments[0].data
	if got := binary.LittleEndian.Uint64(img); got != PulleyImageBase+20 {
		t.Errorf("Abs8 = 0x%x", got)
	}
	if got := binary.LittleEndian.Uint32(img[8:]); got != PulleyImageBase+16 {
		t.Errorf("Abs4 = 0x%x", got)
	}
	if e.EntryAddress(0) != PulleyImageBase+16 || e.EntryAddress(1) != 0 || e.describePC(PulleyImageBase+18) != "cliff_m0_f+0x2" {
		t.Errorf("entries %v, %s", e.entries, e.describePC(PulleyImageBase+18))
	}
	imported := []PulleyReloc{{Offset: 0, Kind: pulleyAbs8, TargetKind: pulleyTargetName, Target: 0}}
	var refused *RefusedSymbolsError
	if _, err := LinkPulley("pulley64", write(batchFile(0, image, funcs, imported, []string{"memcpy"}, nil)), runner); !errors.As(err, &refused) || refused.Symbols[0] != "memcpy" {
		t.Errorf("an import: %v", err)
	}
	if _, err := LinkPulley("pulley32", write(batchFile(0, image, funcs, nil, nil, nil)), runner); err == nil || !strings.Contains(err.Error(), "another target") {
		t.Errorf("a pulley64 batch for pulley32: %v", err)
	}
}

// pulleyCases are compiled by the real driver and run by the real
// cliff-pulley (both built by make): one job per outcome.
const pulleyModule = `
function %div(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2 = sdiv v0, v1
    return v2
}

function %user(i32) -> i32 {
block0(v0: i32):
    trapz v0, user7
    return v0
}

function %toint(f32) -> i32 {
block0(v0: f32):
    v1 = fcvt_to_sint.i32 v0
    return v1
}

function %spin(i32) -> i32 {
block0(v0: i32):
    jump block1(v0)
block1(v1: i32):
    v3 = iconst.i32 1
    v2 = iadd v1, v3
    jump block1(v2)
}

function %recurse(i32) -> i32 {
    fn0 = colocated %recurse(i32) -> i32
block0(v0: i32):
    v1 = call fn0(v0)
    v3 = iconst.i32 1
    v2 = iadd v1, v3
    return v2
}

function %wild(i64) -> i32 {
block0(v0: i64):
    v1 = load.i32 v0
    return v1
}
`

func TestPulleyRun(t *testing.T) {
	drvPath := drivertest.Require(t)
	runner := filepath.Join(filepath.Dir(drvPath), "cliff-pulley") // built with the driver
	if _, err := os.Stat(runner); err != nil {
		t.Fatalf("%v: run make", err)
	}
	drv := driver.New(drvPath)
	defer drv.Close()
	funcs := []struct{ name, sig, load, store string }{
		{"div", "(i32, i32) -> i32", "v2 = load.i32 notrap little v0\n    v3 = load.i32 notrap little v0+16\n    v4 = call fn0(v2, v3)", "store notrap little v4, v1"},
		{"user", "(i32) -> i32", "v2 = load.i32 notrap little v0\n    v4 = call fn0(v2)", "store notrap little v4, v1"},
		{"toint", "(f32) -> i32", "v2 = load.f32 notrap little v0\n    v4 = call fn0(v2)", "store notrap little v4, v1"},
		{"spin", "(i32) -> i32", "v2 = load.i32 notrap little v0\n    v4 = call fn0(v2)", "store notrap little v4, v1"},
		{"recurse", "(i32) -> i32", "v2 = load.i32 notrap little v0\n    v4 = call fn0(v2)", "store notrap little v4, v1"},
		{"wild", "(i64) -> i32", "v2 = load.i64 notrap little v0\n    v4 = call fn0(v2)", "store notrap little v4, v1"},
	}
	module := pulleyModule
	req := &driver.CompileRequest{Target: "pulley64", Flags: []string{"opt_level=speed"}, Output: filepath.Join(t.TempDir(), "b.pulley")}
	for _, f := range funcs {
		module += "\nfunction %t_" + f.name + "(i64, i64) system_v {\n    fn0 = %" + f.name + f.sig + "\nblock0(v0: i64, v1: i64):\n    " + f.load + "\n    " + f.store + "\n    return\n}\n"
		req.Entries = append(req.Entries, driver.Entry{Module: 0, Func: "%t_" + f.name})
	}
	req.Modules = []string{module}
	ctx := context.Background()
	ans, err := drv.Compile(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if m := ans.Modules[0]; m.Status != driver.StatusOK {
		t.Fatalf("compile: %s %s", m.Status, m.Message)
	}
	var sites []TrapSite
	for _, f := range ans.Modules[0].Functions {
		for _, tr := range f.Traps {
			sites = append(sites, TrapSite{f.Symbol, tr.Offset, tr.Code})
		}
	}
	e, err := LinkPulley("pulley64", req.Output, runner)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	arg := func(vals ...uint64) []byte {
		b := make([]byte, 16*len(vals))
		for i, v := range vals {
			le.PutUint64(b[16*i:], v)
		}
		return b
	}
	tests := []struct {
		name    string
		job     Job
		status  record.Status
		trap    string
		results uint32
		message string
	}{
		{"ok", Job{0, arg(7, 2), 16}, record.StatusOK, "", 3, ""},
		{"ok again in the same child", Job{0, arg(9, 3), 16}, record.StatusOK, "", 3, ""},
		{"divide by zero", Job{0, arg(1, 0), 16}, record.StatusTrap, "int_divz", 0, "Pulley divide_by_zero"},
		{"overflow", Job{0, arg(0x80000000, 0xffffffff), 16}, record.StatusTrap, "int_ovf", 0, ""},
		{"trap site", Job{1, arg(0), 16}, record.StatusTrap, "user7", 0, "cliff_m0_user"},
		{"bad conversion", Job{2, arg(0x7fc00000), 16}, record.StatusTrap, "bad_toint", 0, ""},
		{"timeout", Job{3, arg(0), 16}, record.StatusTimeout, "", 0, "limit"},
		{"stack overflow", Job{4, arg(0), 16}, record.StatusTrap, "stk_ovf", 0, ""},
		{"fault", Job{5, arg(8), 16}, record.StatusCrash, "", 0, "SIGSEGV in the Pulley interpreter, address 0x8"},
	}
	var jobs []Job
	for _, tt := range tests {
		jobs = append(jobs, tt.job)
	}
	outs, err := e.Run(ctx, Placement{}, jobs, 300*time.Millisecond, sites)
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		o := outs[i]
		if o.Status != tt.status || o.Trap != tt.trap || !strings.Contains(o.Message, tt.message) {
			t.Errorf("%s: %+v, want %s %s %q", tt.name, o, tt.status, tt.trap, tt.message)
		}
		if tt.status == record.StatusOK && le.Uint32(o.Results) != tt.results {
			t.Errorf("%s: results %x", tt.name, o.Results)
		}
	}
}

// TestPulleyOutcomeLines: the lines only cliff-pulley writes, without
// running it (a panic and a host call cannot be provoked from CLIF).
func TestPulleyOutcomeLines(t *testing.T) {
	e := &Executable{Arch: "pulley64", pulley: &pulleyHost{hostCalls: map[uint64]string{PulleyImageBase + 20: "CeilF32"}},
		funcs: []function{{name: "cliff_m0_f", addr: PulleyImageBase + 16, size: 16}}}
	tm := &trapMap{codes: map[uint64]string{PulleyImageBase + 18: "user1"}}
	tests := []struct {
		line    string
		status  record.Status
		trap    string
		message string
	}{
		{"0 trap - 0 0x10000012 0x0", record.StatusTrap, "user1", "cliff_m0_f+0x2"},
		{"0 trap memory_out_of_bounds 0 0x10000014 0x0", record.StatusTrap, "heap_oob", ""},
		{"0 trap - 0 0x10000014 0x0", record.StatusCrash, "", "no trap site"},
		{"0 trap disabled_opcode 0 0x10000014 0x0", record.StatusUnsupported, "", "without the opcode"},
		{"0 host - 0 0x10000018 0x0", record.StatusUnsupported, "", "calls CeilF32"},
		{"0 panic " + hexString("attempt to add with overflow (at pulley-interpreter-50.0.1/src/interp.rs:1:2)") + " 0 0x0 0x0", record.StatusCrash, "", "panicked: attempt to add with overflow (at pulley-interpreter-50.0.1/src/interp.rs:1:2)"},
		{"0 syscall - 39 0x7f00 0x0", record.StatusUnsupported, "", "system call 39"},
		{"0 signal - 9 0x0 1234", record.StatusCrash, "", "SIGKILL"},
	}
	for _, tt := range tests {
		l, err := parseLine(tt.line)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.outcome(Job{ResultSize: 0}, l, tm, time.Second, nil)
		if err != nil || o.Status != tt.status || o.Trap != tt.trap || !strings.Contains(o.Message, tt.message) {
			t.Errorf("%q: %+v, %v; want %s %s %q", tt.line, o, err, tt.status, tt.trap, tt.message)
		}
	}
}

func hexString(s string) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(digits[s[i]>>4])
		b.WriteByte(digits[s[i]&15])
	}
	return b.String()
}
