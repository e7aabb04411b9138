package harness

import (
	"debug/elf"
	"fmt"
	"slices"
	"sort"
	"strings"

	"cliff/lib/ir"
)

// Compiled code may call only Cranelift's libcalls. A case's CLIF can
// name any function (`fn0 = %system(i64) -> i32`), and the static link
// would resolve it from libc, so a .clif from a bug report could run a
// shell command. The harness therefore provides, and Link lets a batch
// object use, only the symbols that Cranelift's own code generation may
// need: the libcalls of ir.Libcalls (Cranelift 0.135's ir::LibCall under
// the names cranelift-module's default_libcall_names gives them), minus
// those the harness cannot provide, which say why (Libcall.Hint). None of
// them makes a system call, so a job's seccomp filter (harness.c) need
// not allow any for them. harness.c defines a wrapper for each
// (TestHarnessCDefinesLibcalls).

// provides reports whether the harness for arch provides symbol.
func provides(arch, symbol string) bool {
	for _, l := range ir.Libcalls() {
		if l.Symbol == symbol && (l.Harness == ir.HarnessAll || l.Harness == arch) {
			return true
		}
	}
	return false
}

// providedAnywhere reports whether the harness provides symbol on some
// architecture.
func providedAnywhere(symbol string) bool {
	return slices.ContainsFunc(ir.Libcalls(), func(l ir.Libcall) bool { return l.Symbol == symbol && l.Harness != "" })
}

// providedFor is the sorted list of the symbols the harness provides for
// arch: what its program must hold.
func providedFor(arch string) []string {
	var symbols []string
	for _, l := range ir.Libcalls() {
		if provides(arch, l.Symbol) && !slices.Contains(symbols, l.Symbol) {
			symbols = append(symbols, l.Symbol)
		}
	}
	sort.Strings(symbols)
	return symbols
}

// unprovidedHint says why a symbol Cranelift itself may emit is missing,
// and what to do instead; "" when nothing is known.
func unprovidedHint(symbol string) string {
	for _, l := range ir.Libcalls() {
		if l.Symbol == symbol && l.Hint != "" {
			return l.Hint
		}
	}
	return ""
}

// CheckExternalName checks a name that a module refers to but does not
// define (a function reference, or a symbol global value; tls for a
// thread-local one), as CLIF writes it ("%memcpy", "%CeilF32", "u1:3"):
// nil if the harness provides its symbol on some architecture, else an
// error that says so. Link refuses what a given architecture lacks.
func CheckExternalName(name string, tls bool) error {
	symbol := externalSymbol(name)
	if providedAnywhere(symbol) && !tls {
		return nil
	}
	msg := "external name " + name
	if tls {
		msg += " (thread-local)"
	}
	if hint := unprovidedHint(symbol); hint != "" {
		return fmt.Errorf("%s: %s", msg, hint)
	}
	return fmt.Errorf("%s: not one of Cranelift's libcalls, the only functions the harness provides", msg)
}

// externalSymbol is the object's symbol for an external name, as the
// driver makes it (driver/src/clif.rs, symbol_fragment): a libcall's
// default name, else the name without its % and with every character
// other than a letter, digit or _ made a _.
func externalSymbol(name string) string {
	if l, ok := ir.LookupLibcall(name); ok {
		return l.Symbol
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
	Arch    string
	Object  string
	Symbols []string // sorted
}

func (e *RefusedSymbolsError) Error() string {
	var parts []string
	for _, s := range e.Symbols {
		if hint := unprovidedHint(s); hint != "" {
			s += " (" + hint + ")"
		}
		parts = append(parts, s)
	}
	return fmt.Sprintf("external symbol %s, which the %s harness does not provide (it links only Cranelift's libcalls)", strings.Join(parts, ", "), e.Arch)
}

// checkImports refuses an object whose undefined symbols are not all
// provided for arch (or in alsoAllowed).
func checkImports(arch, objPath string, alsoAllowed []string) error {
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
