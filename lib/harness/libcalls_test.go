package harness

import (
	"cliff/lib/arch"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"cliff/lib/ir"
	"cliff/lib/record"
)

// TestCheckExternalName checks which names a module may leave to the
// harness, as CLIF writes them: Cranelift's libcalls under either
// spelling, nothing else.
func TestCheckExternalName(t *testing.T) {
	tests := []struct {
		name string
		tls  bool
		want string // a substring of the error; "" for none
	}{
		{"%CeilF32", false, ""},
		{"%NearestF64", false, ""},
		{"%FmaF32", false, ""},
		{"%Memcpy", false, ""},
		{"%memcpy", false, ""},
		{"%memcmp", false, ""},
		{"%X86Pshufb", false, ""}, // provided on x86_64; Link refuses it elsewhere
		{"%ElfGlobalOffsetTable", false, ""},
		{"%exit", false, "external name %exit: not one of Cranelift's libcalls"},
		{"%system", false, "external name %system: "},
		{"%mem.cpy", false, "external name %mem.cpy: "}, // the symbol would be mem_cpy
		{"u0:1", false, "external name u0:1: "},
		{"%Probestack", false, "external name %Probestack: the outline stack probe; set probestack_strategy=inline"},
		{"%ElfTlsGetAddr", false, "thread-local storage"},
		{"%CoffTlsIndex", false, "external name %CoffTlsIndex: "},
		{"%memcpy", true, "external name %memcpy (thread-local): "},
	}
	for _, tt := range tests {
		err := CheckExternalName(tt.name, tt.tls)
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s (tls %v): error %v, want %q", tt.name, tt.tls, err, tt.want)
		}
	}
}

// TestProvides checks the per-architecture symbols Link accepts.
func TestProvides(t *testing.T) {
	for _, target := range Arches() {
		for _, s := range []string{"memcpy", "ceilf", "fma", "_GLOBAL_OFFSET_TABLE_"} {
			if !provides(target, s) {
				t.Errorf("%s: %s refused", target, s)
			}
		}
		for _, s := range []string{"exit", "system", "syscall", "__cranelift_probestack", "__tls_get_addr", "cliff_gate"} {
			if provides(target, s) {
				t.Errorf("%s: %s provided", target, s)
			}
		}
		if got := provides(target, "__cranelift_x86_pshufb"); got != (target == arch.X86_64) {
			t.Errorf("%s: __cranelift_x86_pshufb provided %v", target, got)
		}
	}
}

// TestLibcallsRun calls every libcall the harness provides on all targets
// from a batch image, natively or under qemu-user, and checks the
// answers: the image's link must resolve each to code that computes it,
// not to an IFUNC's resolver (static glibc's memcpy, ceil and fma are
// IFUNCs on x86_64, aarch64 and s390x).
func TestLibcallsRun(t *testing.T) {
	f64 := func(d float64) uint64 { return math.Float64bits(d) }
	f32 := func(f float32) uint64 { return uint64(math.Float32bits(f)) }
	want := []uint64{
		f64(3), f64(2), f64(2), f64(2), // 2.5 rounds to even
		f32(-2), f32(-3), f32(-2), f32(-2),
		f64(7), f32(7),
		1,
		0x5a5a5a5a5a5a5a07, // byte 8 of the moved args, then memset's
	}
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			requireArch(t, arch)
			dir := t.TempDir()
			obj, err := compileTestdataFlags(arch, "libcalls.c", dir, "-fno-builtin")
			if err != nil {
				t.Fatal(err)
			}
			exe, err := Link(context.Background(), arch, obj, filepath.Join(dir, "image"))
			if err != nil {
				t.Fatal(err)
			}
			args := binary.LittleEndian.AppendUint64(nil, 0x0706050403020100)
			out, err := exe.Run(context.Background(), placeFor(arch), []Job{{Entry: 0, Args: args, ResultSize: 8 * len(want)}}, 10*time.Second, nil)
			if err != nil {
				t.Fatal(err)
			}
			if out[0].Status != record.StatusOK {
				t.Fatalf("job: %s %s", out[0].Status, out[0].Message)
			}
			for i, w := range want {
				if got := binary.LittleEndian.Uint64(out[0].Results[8*i:]); got != w {
					t.Errorf("result %d: %#x, want %#x", i, got, w)
				}
			}
		})
	}
}

// TestHarnessCDefinesLibcalls checks harness.c against ir.Libcalls, which
// C cannot read: it defines a wrapper cliff_libcall_SYMBOL for each
// symbol the harness provides (or the symbol itself: the x86_64 pshufb),
// with the float libcalls' arity and type, and no wrapper for anything
// else.
func TestHarnessCDefinesLibcalls(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("csrc", "harness.c"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	macro := regexp.MustCompile(`(?m)^LIBCALL([13])\((float|double), (\w+)\)$`)
	plain := regexp.MustCompile(`(?m)^[\w *]*\bcliff_libcall_(\w+)\(.*\) \{`)
	defined := map[string]string{} // symbol: "1 float", ... or "" for a plain definition
	for _, m := range macro.FindAllStringSubmatch(text, -1) {
		defined[m[3]] = m[1] + " " + m[2]
	}
	for _, m := range plain.FindAllStringSubmatch(text, -1) {
		defined[m[1]] = ""
	}
	for _, l := range ir.Libcalls() {
		if l.Harness == "" || l.Symbol == "_GLOBAL_OFFSET_TABLE_" {
			if _, ok := defined[l.Symbol]; ok {
				t.Errorf("%s: harness.c defines cliff_libcall_%s, which the table says the harness does not provide", l.Name, l.Symbol)
			}
			continue
		}
		got, ok := defined[l.Symbol]
		delete(defined, l.Symbol)
		if !ok {
			if regexp.MustCompile(`(?m)^\S.*\b` + regexp.QuoteMeta(l.Symbol) + `\(.*\)$`).MatchString(text) {
				continue // defined under its own name
			}
			t.Errorf("%s: harness.c defines no cliff_libcall_%s", l.Name, l.Symbol)
			continue
		}
		if l.Op != "" {
			arity, ctype := "1", map[ir.Type]string{ir.F32: "float", ir.F64: "double"}[l.Type]
			if l.Op == "fma" {
				arity = "3"
			}
			if want := arity + " " + ctype; got != want {
				t.Errorf("%s: harness.c's LIBCALL is %q, want %q", l.Name, got, want)
			}
		}
	}
	for symbol := range defined {
		t.Errorf("harness.c defines cliff_libcall_%s, which ir.Libcalls does not list", symbol)
	}
}
