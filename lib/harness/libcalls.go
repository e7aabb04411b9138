package harness

import (
	"debug/elf"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Compiled code may call only Cranelift's libcalls. A case's CLIF can
// name any function (`fn0 = %system(i64) -> i32`), and the static link
// would resolve it from libc, so a .clif from a bug report could run a
// shell command. The harness therefore provides, and Link lets a batch
// object use, only the symbols that Cranelift's own code generation may
// need: the libcalls of ir::LibCall (Cranelift 0.135) under the names
// cranelift-module's default_libcall_names gives them, minus those the
// harness cannot provide. None of them makes a system call, so a job's
// seccomp filter (harness.c) need not allow any for them.
//
// What each is for:
//
//	ceilf ceil floorf floor truncf trunc nearbyintf nearbyint
//	                        x86_64 rounding without SSE4.1 (the x64 backend's
//	                        lowering of ceil, floor, trunc, nearest)
//	fmaf fma                x86_64 fma without the FMA extension
//	memcpy                  struct arguments (every backend's ABI copies them)
//	memset memmove memcmp   the other memory libcalls CLIF may name
//	__cranelift_x86_pshufb  x86_64 shuffles and swizzles without SSSE3
//	                        (harness.c defines it, for x86_64 only)
//	_GLOBAL_OFFSET_TABLE_   %ElfGlobalOffsetTable: defined by the linker
//
// Not provided, so refused: __cranelift_probestack (the outline stack
// probe of x86_64 and riscv64; the inline strategy needs none), and
// __tls_get_addr and __tls_get_offset (thread-local symbols, which a case
// cannot define).
var providedSymbols = map[string][]Arch{
	"ceilf": nil, "ceil": nil, "floorf": nil, "floor": nil, "truncf": nil, "trunc": nil,
	"nearbyintf": nil, "nearbyint": nil, "fmaf": nil, "fma": nil,
	"memcpy": nil, "memset": nil, "memmove": nil, "memcmp": nil,
	"__cranelift_x86_pshufb": {X86_64},
	"_GLOBAL_OFFSET_TABLE_":  nil,
}

// provides reports whether the harness for arch provides symbol; nil
// architectures mean every one.
func provides(arch Arch, symbol string) bool {
	arches, ok := providedSymbols[symbol]
	return ok && (arches == nil || slices.Contains(arches, arch))
}

// providedFor is the sorted list of the symbols the harness provides for
// arch: what its program must hold.
func providedFor(arch Arch) []string {
	var symbols []string
	for symbol := range providedSymbols {
		if provides(arch, symbol) {
			symbols = append(symbols, symbol)
		}
	}
	sort.Strings(symbols)
	return symbols
}

// unprovidedHints say why a symbol Cranelift itself may emit is missing,
// and what to do instead.
var unprovidedHints = map[string]string{
	"__cranelift_probestack": "the outline stack probe; set probestack_strategy=inline",
	"__tls_get_addr":         "thread-local storage, which the harness does not have",
	"__tls_get_offset":       "thread-local storage, which the harness does not have",
}

// clifLibcalls maps the names CLIF gives Cranelift's libcalls and known
// symbols (`fn0 = %CeilF32(f32) -> f32`, parsed as ExternalName::LibCall)
// to the symbols the object uses for them.
var clifLibcalls = map[string]string{
	"%Probestack": "__cranelift_probestack",
	"%CeilF32":    "ceilf", "%CeilF64": "ceil", "%FloorF32": "floorf", "%FloorF64": "floor",
	"%TruncF32": "truncf", "%TruncF64": "trunc", "%NearestF32": "nearbyintf", "%NearestF64": "nearbyint",
	"%FmaF32": "fmaf", "%FmaF64": "fma",
	"%Memcpy": "memcpy", "%Memset": "memset", "%Memmove": "memmove", "%Memcmp": "memcmp",
	"%ElfTlsGetAddr": "__tls_get_addr", "%ElfTlsGetOffset": "__tls_get_offset",
	"%X86Pshufb":            "__cranelift_x86_pshufb",
	"%ElfGlobalOffsetTable": "_GLOBAL_OFFSET_TABLE_",
	"%CoffTlsIndex":         "_tls_index",
}

// CheckExternalName checks a name that a module refers to but does not
// define (a function reference, or a symbol global value; tls for a
// thread-local one), as CLIF writes it ("%memcpy", "%CeilF32", "u1:3"):
// nil if the harness provides its symbol on some architecture, else an
// error that says so. Link refuses what a given architecture lacks.
func CheckExternalName(name string, tls bool) error {
	symbol := externalSymbol(name)
	if _, ok := providedSymbols[symbol]; ok && !tls {
		return nil
	}
	msg := "external name " + name
	if tls {
		msg += " (thread-local)"
	}
	if hint, ok := unprovidedHints[symbol]; ok {
		return fmt.Errorf("%s: %s", msg, hint)
	}
	return fmt.Errorf("%s: not one of Cranelift's libcalls, the only functions the harness provides", msg)
}

// externalSymbol is the object's symbol for an external name, as the
// driver makes it (driver/src/clif.rs, symbol_fragment): a libcall's
// default name, else the name without its % and with every character
// other than a letter, digit or _ made a _.
func externalSymbol(name string) string {
	if s, ok := clifLibcalls[name]; ok {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, strings.TrimPrefix(name, "%"))
}

// A RefusedSymbolsError is a batch object that uses symbols the harness
// does not provide. It is the harness's refusal, not Cranelift's failure:
// cliff-run reports the modules as unsupported.
type RefusedSymbolsError struct {
	Arch    Arch
	Object  string
	Symbols []string // sorted
}

func (e *RefusedSymbolsError) Error() string {
	var parts []string
	for _, s := range e.Symbols {
		if hint, ok := unprovidedHints[s]; ok {
			s += " (" + hint + ")"
		}
		parts = append(parts, s)
	}
	return fmt.Sprintf("external symbol %s, which the %s harness does not provide (it links only Cranelift's libcalls)", strings.Join(parts, ", "), e.Arch)
}

// checkImports refuses an object whose undefined symbols are not all
// provided for arch (or in alsoAllowed).
func checkImports(arch Arch, objPath string, alsoAllowed []string) error {
	f, err := elf.Open(objPath)
	if err != nil {
		return fmt.Errorf("link %s for %s: %w", objPath, arch, err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil && err != elf.ErrNoSymbols {
		return fmt.Errorf("link %s for %s: symbol table: %w", objPath, arch, err)
	}
	var refused []string
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF || s.Name == "" || provides(arch, s.Name) || slices.Contains(alsoAllowed, s.Name) {
			continue
		}
		if !slices.Contains(refused, s.Name) {
			refused = append(refused, s.Name)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	sort.Strings(refused)
	return &RefusedSymbolsError{Arch: arch, Object: objPath, Symbols: refused}
}
