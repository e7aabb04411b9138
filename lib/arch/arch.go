// Package arch is cliff's one list of the architectures it compiles
// Cranelift's code for and runs: each row names an architecture as
// Cranelift's targets do and says what the tools around it call it (Go's
// GOARCH, Debian's package names) and which ISA flags cliff compiles for
// by default. Every package that enumerates architectures (the harness,
// the run engine, the profiles) reads this table, so that adding one is
// one row here plus the per-architecture data those packages need (the
// harness's CPU table, a profile); their tests check that none is
// missing.
//
// It imports nothing of cliff's, so that any package may use it without
// a cycle or a heavy dependency.
package arch

import (
	"runtime"
	"slices"
)

// An Arch is one architecture cliff compiles for.
type Arch struct {
	// Name is Cranelift's name, as on a CLIF target line and in target
	// triples: "x86_64".
	Name string
	// GOARCH is Go's name for a host of this architecture: its code runs
	// natively there.
	GOARCH string
	// Debian is Debian's name, as in the names of its cross compiler and
	// C library packages (libc6-dev-arm64-cross).
	Debian string
	// DefaultISAFlags are the ISA flags a case is compiled with when the
	// command line does not say: the richest set that QEMU 7.2 executes,
	// so that the most lowering rules are exercised. They do not depend
	// on the machine, so a campaign spread over several compiles the same
	// code everywhere; a host whose CPU lacks some of them runs the code
	// that needs them under QEMU. Callers must not modify them.
	DefaultISAFlags []string
	// FlagSets are the named sets of ISA flags a campaign compiles with
	// (flagsets.go), the first one "default" (DefaultISAFlags): each a
	// set that QEMU 7.2 executes, so that code paths behind other flags
	// are compiled and run too. Callers must not modify them.
	FlagSets []FlagSet
	// VectorFlag is the ISA flag without which Cranelift compiles no
	// vector type for the architecture (riscv64's has_v: its backend
	// lowers vectors only to the V extension, and panics on them
	// without it); "" when vectors always compile.
	VectorFlag string
	// Bytecode marks Cranelift's Pulley targets: portable bytecode that
	// cliff-pulley (driver/src/runner) runs in pulley-interpreter on any
	// host, with no GOARCH, Debian package, gcc or QEMU. They are in
	// Backends, Lookup and Known, not in All and Names, which list the
	// machine architectures (whose toolchains, CPU tables and flag
	// swarms the other packages keep).
	Bytecode bool
	// PointerBytes is 4 for the 32-bit Pulley targets, else 8.
	PointerBytes int
}

// table is the list, in the order tools print and combine architectures.
// The machine architectures' names, for the code that is specific to one
// of them. Elsewhere an architecture is its name, a string, as in records.
const (
	X86_64  = "x86_64"
	AArch64 = "aarch64"
	RISCV64 = "riscv64"
	S390X   = "s390x"
)

var table = []Arch{
	{Name: X86_64, GOARCH: "amd64", Debian: "amd64", DefaultISAFlags: x86Default, FlagSets: x86FlagSets},
	{Name: AArch64, GOARCH: "arm64", Debian: "arm64", DefaultISAFlags: aarch64Default, FlagSets: aarch64FlagSets},
	{Name: RISCV64, GOARCH: "riscv64", Debian: "riscv64", DefaultISAFlags: riscv64Default, FlagSets: riscv64FlagSets, VectorFlag: "has_v"},
	{Name: S390X, GOARCH: "s390x", Debian: "s390x", DefaultISAFlags: s390xDefault, FlagSets: s390xFlagSets},
}

// pulleyFlagSets: Pulley has no ISA flag cliff varies (its pointer width
// and byte order are the target's name).
var pulleyFlagSets = []FlagSet{{Name: DefaultSet, Flags: []string{}, Why: "Pulley bytecode: no ISA flags"}}

// bytecode are Cranelift's Pulley targets, in the order of its names.
var bytecode = []Arch{
	{Name: "pulley32", DefaultISAFlags: []string{}, FlagSets: pulleyFlagSets, Bytecode: true, PointerBytes: 4},
	{Name: "pulley32be", DefaultISAFlags: []string{}, FlagSets: pulleyFlagSets, Bytecode: true, PointerBytes: 4},
	{Name: "pulley64", DefaultISAFlags: []string{}, FlagSets: pulleyFlagSets, Bytecode: true, PointerBytes: 8},
	{Name: "pulley64be", DefaultISAFlags: []string{}, FlagSets: pulleyFlagSets, Bytecode: true, PointerBytes: 8},
}

func init() {
	for i := range table {
		table[i].PointerBytes = 8
	}
}

// Interp is the pseudo-architecture of Cranelift's interpreter in
// cliff-run's configurations (--arch interp). It is not in the table:
// nothing is compiled for it.
const Interp = "interp"

// Ref is the pseudo-architecture of cliff's own CLIF interpreter
// (lib/refinterp) in cliff-run's configurations (--arch ref): the reference
// that shares no code with Cranelift. It is not in the table either.
const Ref = "ref"

// All lists the architectures, in table order.
func All() []Arch { return slices.Clone(table) }

// Names lists the architectures' names, in table order.
func Names() []string {
	names := make([]string, len(table))
	for i, a := range table {
		names[i] = a.Name
	}
	return names
}

// Backends lists every target cliff compiles for and runs: the machine
// architectures, then the Pulley targets.
func Backends() []Arch { return append(All(), bytecode...) }

// BackendNames lists the names of Backends.
func BackendNames() []string {
	var names []string
	for _, a := range Backends() {
		names = append(names, a.Name)
	}
	return names
}

// IsBytecode reports whether name is a Pulley target.
func IsBytecode(name string) bool {
	a, ok := Lookup(name)
	return ok && a.Bytecode
}

// Lookup returns the architecture or Pulley target named name, if cliff
// compiles for it.
func Lookup(name string) (Arch, bool) {
	for _, t := range [][]Arch{table, bytecode} {
		if i := slices.IndexFunc(t, func(a Arch) bool { return a.Name == name }); i >= 0 {
			return t[i], true
		}
	}
	return Arch{}, false
}

// Known reports whether cliff compiles for the architecture (or Pulley
// target) name.
func Known(name string) bool {
	_, ok := Lookup(name)
	return ok
}

// Host is the name of this machine's architecture, whose code runs
// natively, or "" when cliff does not compile for it.
func Host() string { return forGOARCH(runtime.GOARCH) }

func forGOARCH(goarch string) string {
	for _, a := range table {
		if a.GOARCH == goarch {
			return a.Name
		}
	}
	return ""
}
