package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
)

// TestExternalNames checks which external names compiled code and the
// interpreter refuse: everything a module does not define except the
// libcalls each provides.
func TestExternalNames(t *testing.T) {
	fn := func(decl string) string {
		return "function %f(i64) -> i64 {\n    " + decl + "\nblock0(v0: i64):\n    return v0\n}\n"
	}
	tests := []struct {
		name, clif       string
		compiled, interp string // substrings of the refusals; "" runs
	}{
		{"own function", fn("fn0 = %f(i64) -> i64"), "", ""},
		{"own function by user name", "function u0:1() {\nblock0:\n    return\n}\n" + fn("fn0 = u0:1()"), "", ""},
		{"float libcall", fn("fn0 = %CeilF32(f32) -> f32"), "", ""},
		{"memory libcall", fn("fn0 = %Memcpy(i64, i64, i64) -> i64"), "", "external name %Memcpy: the interpreter calls only"},
		{"libc name of a libcall", fn("fn0 = %memcpy(i64, i64, i64) -> i64"), "", "external name %memcpy: "},
		{"pshufb", fn("fn0 = %X86Pshufb(i8x16, i8x16) -> i8x16"), "", "external name %X86Pshufb: "},
		{"exit", fn("fn0 = %exit(i32)"), "external name %exit: not one of Cranelift's libcalls", "external name %exit: not one of"},
		{"user name", fn("fn0 = u1:7(i32)"), "external name u1:7: ", "external name u1:7: "},
		{"outline stack probe", fn("fn0 = %Probestack()"), "external name %Probestack: the outline stack probe", "external name %Probestack: "},
		{"TLS libcall", fn("fn0 = %ElfTlsGetAddr(i64) -> i64"), "external name %ElfTlsGetAddr: thread-local storage", "external name %ElfTlsGetAddr: "},
		{"symbol", fn("gv0 = symbol %environ"), "external name %environ: ", "external name %environ: "},
		{"symbol of an own function", fn("gv0 = symbol %f"), "", ""},
		{"thread-local symbol", fn("gv0 = symbol tls %f"), "external name %f (thread-local): ", "external name %f (thread-local): "},
		{"exception runtime", fn("fn0 = %__cranelift_throw(i64)"), "external name %__cranelift_throw: the exception-unwinding runtime", "external name %__cranelift_throw: "},
	}
	for _, tt := range tests {
		m, err := parser.ParseModuleString(tt.name, tt.clif)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		u := &unit{funcs: map[string]*ir.Function{}}
		for _, f := range m.Funcs {
			u.funcs[f.Name] = f
		}
		compiled, interp := unrunnableReason(m.Funcs), u.interpRefusal()
		if (compiled == "") != (tt.compiled == "") || !strings.Contains(compiled, tt.compiled) {
			t.Errorf("%s: compiled code: refusal %q, want %q", tt.name, compiled, tt.compiled)
		}
		if (interp == "") != (tt.interp == "") || !strings.Contains(interp, tt.interp) {
			t.Errorf("%s: interpreter: refusal %q, want %q", tt.name, interp, tt.interp)
		}
	}
}

// TestVersionRefusal: a module with an opcode an older release does not
// know (sequence_point came in 0.126) is refused for that release, with
// the opcode and the releases that know it, and taken by the others; a
// version the release table cannot place refuses nothing.
func TestVersionRefusal(t *testing.T) {
	m, err := parser.ParseModule("t.clif", []byte("function %f(i64) -> i64 {\nblock0(v0: i64):\n    sequence_point\n    return v0\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*ir.Function{}
	for _, f := range m.Funcs {
		funcs[f.Name] = f
	}
	tests := []struct{ version, want string }{
		{"0.120.2", "opcode sequence_point: Cranelift 0.120.2 does not know it (releases that do: 0.126-)"},
		{"0.125.4", "opcode sequence_point: Cranelift 0.125.4 does not know it"},
		{"0.126.2", ""},
		{"0.135.8", ""},
		{"0.137.1", ""},
		{"0.139.0@0123456789ab", ""},
		{"0.119.1", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got := versionRefusal(tt.version, funcs)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("versionRefusal(%q) = %q, want %q", tt.version, got, tt.want)
		}
	}
}

// TestDriverInterpretsTheFloatLibcalls: the driver's interpreter
// (driver/src/interpret.rs, which cannot read Go) computes exactly the
// libcalls ir.Libcalls gives an operation, the ones interpRefusal lets
// through.
func TestDriverInterpretsTheFloatLibcalls(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "driver", "src", "interpret.rs"))
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, m := range regexp.MustCompile(`LibCall::(\w+) =>`).FindAllStringSubmatch(string(src), -1) {
		got = append(got, "%"+m[1])
	}
	for _, l := range ir.Libcalls() {
		if l.Op != "" {
			want = append(want, l.Name)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("interpret.rs computes %q, ir.Libcalls gives an operation to %q", got, want)
	}
}
