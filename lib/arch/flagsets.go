package arch

import (
	"slices"
	"strings"
)

// A FlagSet is a named set of ISA flags for one architecture, as on a
// CLIF target line. Campaigns draw configurations from these sets (the
// flag swarm), and cliff-run takes their names (--isa-flags
// riscv64=base), so that a result's flags can be told by name.
type FlagSet struct {
	Name  string
	Flags []string
	// Why says what the set exercises.
	Why string
	// Beyond, when set, says what the set needs beyond Debian 12's QEMU
	// 7.2, cliff's baseline: a newer QEMU ("QEMU 8 or later") or a host
	// CPU feature no QEMU emulates ("a host with AVX-512"). Such a set is
	// drawn like any other, so that a seed draws the same everywhere;
	// where it cannot run, its results are skipped with the reason.
	Beyond string
}

// DefaultSet is the name of every architecture's first set: its
// DefaultISAFlags.
const DefaultSet = "default"

// The flag sets. A set without Beyond runs under qemu-user 7.2 (Debian
// 12) with the -cpu that lib/harness builds for its flags; a set with it
// runs under the QEMU, or on the host CPU, it names, and is skipped with
// the reason elsewhere, never blamed on Cranelift. lib/engine's
// TestFlagSetsRunUnderQemu checks each set against the CPU table, and
// lib/engine's tests compile and run them. Left out: s390x arch15 (MIE4,
// vector enhancements 3), which neither QEMU 7.2 nor 10 runs and no
// host here has; riscv64 Zvkb, which Cranelift has no flag for. s390x
// arch14 adds no facility Cranelift uses: its code is arch13's.
var (
	x86Default = []string{"has_sse3", "has_ssse3", "has_sse41", "has_sse42", "has_popcnt", "has_avx", "has_avx2", "has_fma", "has_bmi1", "has_bmi2", "has_lzcnt"}
	x86V2      = []string{"has_sse3", "has_ssse3", "has_cmpxchg16b", "has_sse41", "has_sse42", "has_popcnt"}

	x86FlagSets = []FlagSet{
		{DefaultSet, x86Default, "AVX2, FMA, BMI1/2, LZCNT: the VEX encodings and the scalar bit instructions", ""},
		{"sse2", []string{}, "the x86-64 baseline: SSE2 only, every SIMD fallback sequence", ""},
		{"sse41", []string{"has_sse3", "has_ssse3", "has_sse41"}, "SSE4.1 without SSE4.2 and POPCNT", ""},
		{"v2", x86V2, "x86-64-v2: SSE4.2, POPCNT, CMPXCHG16B, no AVX", ""},
		{"avx", append(slices.Clone(x86V2), "has_avx"), "AVX without AVX2, FMA and BMI", ""},
		{"avx512", append(slices.Clone(x86Default), "has_avx512f", "has_avx512vl", "has_avx512dq", "has_avx512vbmi"),
			"AVX-512 F, VL, DQ and VBMI: the EVEX encodings", "a host with AVX-512 (no QEMU emulates it)"},
		{"avx512-icelake", append(slices.Clone(x86Default), "has_avx512f", "has_avx512vl", "has_avx512dq", "has_avx512vbmi", "has_avx512bitalg", "has_avx512vnni"),
			"AVX-512 with BITALG and VNNI (Ice Lake and later)", "a host with AVX-512 BITALG and VNNI (no QEMU emulates them)"},
	}

	aarch64Default  = []string{"has_lse"}
	aarch64FlagSets = []FlagSet{
		{DefaultSet, aarch64Default, "LSE atomics", ""},
		{"base", []string{}, "Armv8.0: atomics as load/store-exclusive loops", ""},
		{"pauth", []string{"has_lse", "has_pauth", "sign_return_address", "sign_return_address_all"}, "return addresses signed and checked (PAuth) in every function", ""},
	}

	riscv64Default  = []string{"has_v", "has_zba", "has_zbb", "has_zbc", "has_zbs"}
	riscv64FlagSets = []FlagSet{
		{DefaultSet, riscv64Default, "V with the bit-manipulation extensions Zba, Zbb, Zbc, Zbs", ""},
		{"base", []string{}, "rv64gc: no vectors (cases with vector types are skipped), no bit manipulation", ""},
		{"v", []string{"has_v"}, "V without bit manipulation", ""},
		{"bitmanip", []string{"has_zba", "has_zbb", "has_zbs", "has_zbkb"}, "Zba, Zbb, Zbs and Zbkb without V (cases with vector types are skipped)", ""},
		{"zfh", []string{"has_v", "has_zba", "has_zbb", "has_zbc", "has_zbs", "has_zbkb", "has_zfhmin", "has_zfh"}, "the default with Zbkb and the half-precision extensions", ""},
		{"zcb", append(slices.Clone(riscv64Default), "has_zca", "has_zcd", "has_zcb"), "the default with the compressed instructions, Zcb's among them", qemu8},
		{"zfa", append(slices.Clone(riscv64Default), "has_zfa", "has_zfhmin", "has_zfh"), "the default with Zfa's float instructions (fli, fminm, fround), at every float width", qemu8},
		{"zicond", append(slices.Clone(riscv64Default), "has_zicond"), "the default with Zicond's conditional zeroing for select", qemu8},
		{"zvbb", append(slices.Clone(riscv64Default), "has_zbkb", "has_zvbb"), "the default with Zvbb's vector bit manipulation", qemu8},
		{"all", append(slices.Clone(riscv64Default), "has_zbkb", "has_zca", "has_zcd", "has_zcb", "has_zfa", "has_zfhmin", "has_zfh", "has_zvfh", "has_zicond", "has_zvbb"),
			"every extension Cranelift has and QEMU 10 runs, together", qemu8},
	}

	// qemu8 is the Beyond of the riscv64 sets QEMU 7.2 cannot run: Zcb,
	// Zfa, Zicond and Zvbb came with QEMU 8; Debian 12 has 10 in
	// bookworm-backports.
	qemu8 = "QEMU 8 or later (Zcb, Zfa, Zicond, Zvbb)"

	s390xDefault  = []string{}
	s390xFlagSets = []FlagSet{
		{DefaultSet, s390xDefault, "z14 (arch12), Cranelift's baseline", ""},
		{"arch13", []string{"has_mie3", "has_vxrs_ext2"}, "z15 (arch13; arch14 adds nothing Cranelift uses): MIE3 and vector enhancements 2", ""},
	}
)

// FlagSet returns the architecture's set named name.
func (a Arch) FlagSet(name string) (FlagSet, bool) {
	i := slices.IndexFunc(a.FlagSets, func(s FlagSet) bool { return s.Name == name })
	if i < 0 {
		return FlagSet{}, false
	}
	return a.FlagSets[i], true
}

// SetNames lists the names of the architecture's flag sets, in table
// order.
func (a Arch) SetNames() []string {
	names := make([]string, len(a.FlagSets))
	for i, s := range a.FlagSets {
		names[i] = s.Name
	}
	return names
}

// SetName names the set whose flags are exactly flags (in any order), or
// returns "".
func (a Arch) SetName(flags []string) string {
	for _, s := range a.FlagSets {
		if sameFlags(s.Flags, flags) {
			return s.Name
		}
	}
	return ""
}

// TakesVectors reports whether Cranelift compiles vector types for the
// architecture with these ISA flags ("name", "name=true", "name=false").
func (a Arch) TakesVectors(flags []string) bool {
	return a.VectorFlag == "" || FlagOn(flags, a.VectorFlag)
}

// FlagOn reports whether flags ("name", "name=true", "name=false"; the
// last one counts) turn flag on.
func FlagOn(flags []string, flag string) bool {
	on := false
	for _, f := range flags {
		name, value, hasValue := strings.Cut(f, "=")
		if name == flag {
			on = !hasValue || value == "true"
		}
	}
	return on
}

func sameFlags(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
