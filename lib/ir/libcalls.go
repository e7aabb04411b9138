package ir

// A Libcall is a name CLIF gives one of Cranelift's libcalls or known
// symbols (`fn0 = %CeilF32(f32) -> f32`, parsed as ExternalName::LibCall:
// ir::LibCall and ir::KnownSymbol of Cranelift 0.135). Libcalls is the one
// list of them: lib/harness provides their symbols to compiled code (and
// its tests check harness.c's definitions against it), and the
// interpreters, Cranelift's (lib/engine) and cliff's (lib/refinterp),
// compute the float ones.
type Libcall struct {
	// Name is CLIF's: "%CeilF32".
	Name string
	// Symbol is the object's symbol for it, the name cranelift-module's
	// default_libcall_names gives it: "ceilf".
	Symbol string
	// Harness says whose harness program provides Symbol: HarnessAll,
	// an architecture ("x86_64"), or "" for none; then Hint, when set,
	// says why and what to do instead.
	Harness string
	Hint    string
	// Op, for the libcalls that compute a float from floats (the only
	// ones the interpreters call), is the operation: "ceil", "floor",
	// "trunc", "nearest" (to even) or "fma"; Type is the float type of
	// its operands and result. "" for the others.
	Op   string
	Type Type
}

// HarnessAll is Libcall.Harness for a symbol every harness provides.
const HarnessAll = "all"

var libcalls = []Libcall{
	// The rounding of x86_64 without SSE4.1 (the x64 backend's lowering
	// of ceil, floor, trunc and nearest), and fma without FMA.
	{Name: "%CeilF32", Symbol: "ceilf", Harness: HarnessAll, Op: "ceil", Type: F32},
	{Name: "%CeilF64", Symbol: "ceil", Harness: HarnessAll, Op: "ceil", Type: F64},
	{Name: "%FloorF32", Symbol: "floorf", Harness: HarnessAll, Op: "floor", Type: F32},
	{Name: "%FloorF64", Symbol: "floor", Harness: HarnessAll, Op: "floor", Type: F64},
	{Name: "%TruncF32", Symbol: "truncf", Harness: HarnessAll, Op: "trunc", Type: F32},
	{Name: "%TruncF64", Symbol: "trunc", Harness: HarnessAll, Op: "trunc", Type: F64},
	{Name: "%NearestF32", Symbol: "nearbyintf", Harness: HarnessAll, Op: "nearest", Type: F32},
	{Name: "%NearestF64", Symbol: "nearbyint", Harness: HarnessAll, Op: "nearest", Type: F64},
	{Name: "%FmaF32", Symbol: "fmaf", Harness: HarnessAll, Op: "fma", Type: F32},
	{Name: "%FmaF64", Symbol: "fma", Harness: HarnessAll, Op: "fma", Type: F64},
	// Struct arguments (every backend's ABI copies them with memcpy),
	// and the other memory libcalls CLIF may name.
	{Name: "%Memcpy", Symbol: "memcpy", Harness: HarnessAll},
	{Name: "%Memset", Symbol: "memset", Harness: HarnessAll},
	{Name: "%Memmove", Symbol: "memmove", Harness: HarnessAll},
	{Name: "%Memcmp", Symbol: "memcmp", Harness: HarnessAll},

	// x86_64's shuffles and swizzles without SSSE3 (harness.c defines it).
	{Name: "%X86Pshufb", Symbol: "__cranelift_x86_pshufb", Harness: "x86_64"},
	// Defined by the linker.
	{Name: "%ElfGlobalOffsetTable", Symbol: "_GLOBAL_OFFSET_TABLE_", Harness: HarnessAll},
	// Not provided, so refused.
	{Name: "%Probestack", Symbol: "__cranelift_probestack", Hint: "the outline stack probe; set probestack_strategy=inline"},
	{Name: "%ElfTlsGetAddr", Symbol: "__tls_get_addr", Hint: "thread-local storage, which the harness does not have"},
	{Name: "%ElfTlsGetOffset", Symbol: "__tls_get_offset", Hint: "thread-local storage, which the harness does not have"},
	{Name: "%CoffTlsIndex", Symbol: "_tls_index"},
}

// Libcalls lists the libcalls; callers must not modify it.
func Libcalls() []Libcall { return libcalls }

// LookupLibcall finds a libcall by its CLIF name ("%CeilF32").
func LookupLibcall(name string) (Libcall, bool) {
	for _, l := range libcalls {
		if l.Name == name {
			return l, true
		}
	}
	return Libcall{}, false
}
