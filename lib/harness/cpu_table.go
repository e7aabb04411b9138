package harness

import (
	"cliff/lib/arch"
	"strconv"
)

// How to ask qemu-user for each ISA flag of Cranelift, and what an x86_64
// host must have to run it natively. Whether a given QEMU can run the
// flag's code is not written here but probed (emulators.go): an
// instruction that needs the feature runs under the emulator with the
// -cpu these rules build, once per QEMU binary. Each row with a property
// or a need has such a probe (probes.go); TestCPUTableAgainstQemu checks
// the rows against the installed QEMU.
//
// Flags absent from a table are unknown: QemuCPU rejects them when true
// and ignores them when false.

// A flagRule says how to run code compiled with one ISA flag.
type flagRule struct {
	flag string // Cranelift setting, as in the driver's isa_flags: "has_zba"
	// on and off are qemu -cpu properties added to the model when the flag
	// is true or false.
	on, off string
	// oldOn and oldOff are the same properties as older QEMUs spell them
	// (7.2's "Zfhmin", 10's "zfhmin"), tried when the emulator refuses on.
	oldOn, oldOff string
	// needs is a CPU feature the flag needs, in the vocabulary of the
	// table's models (aarch64) or of /proc/cpuinfo (x86_64, for Host).
	needs string
	// vlen: for riscv64 has_zvl<N>b, the minimum vector length N.
	vlen int
	// baseline, when set, is why QEMU 7.2 (Debian 12's, the oldest
	// cliff supports) cannot run code using the flag: what cliff assumes
	// of an emulator it could not probe.
	baseline string
	// base: the flag is part of the base CPU (rv64gc), which cannot be
	// switched off, so it needs no probe.
	base bool
}

// A cpuModel is a qemu -cpu model and the features (needs) it has.
type cpuModel struct {
	name     string
	features []string
}

// A cpuTable describes one architecture.
type cpuTable struct {
	base   string     // the -cpu model that properties are added to
	models []cpuModel // if set: the first model with every needed feature is used instead of base
	rules  []flagRule
	// vectorFlag turns the vector unit on; then vlen is set from the
	// largest has_zvl<N>b (riscv64).
	vectorFlag string
}

var cpuTables = map[string]cpuTable{
	arch.RISCV64: {
		base:       "rv64",
		vectorFlag: "has_v",
		rules: append([]flagRule{
			// The base is rv64gc: glibc and the harness need it, so the
			// extensions cannot be turned off.
			{flag: "has_m", base: true},
			{flag: "has_a", base: true},
			{flag: "has_f", base: true},
			{flag: "has_d", base: true},
			{flag: "has_zicsr", base: true},
			{flag: "has_zifencei", base: true},
			{flag: "has_zca", base: true},
			{flag: "has_zcd", base: true},
			{flag: "has_zcb", on: "zcb=true", off: "zcb=false", baseline: "QEMU 7.2 has no Zcb (no zcb property; c.not raises SIGILL)"},
			{flag: "has_zfa", on: "zfa=true", off: "zfa=false", baseline: "QEMU 7.2 has no Zfa (no zfa property; fli.s raises SIGILL)"},
			{flag: "has_zfhmin", on: "zfhmin=true", off: "zfhmin=false", oldOn: "Zfhmin=true", oldOff: "Zfhmin=false"},
			{flag: "has_zfh", on: "zfh=true", off: "zfh=false", oldOn: "Zfh=true", oldOff: "Zfh=false"},
			{flag: "has_v", on: "v=true,vext_spec=v1.0,elen=64", off: "v=false"},
			// QEMU 7.2 has no zvfh property and runs SEW=16 vector
			// floating point whenever V is on; QEMU 10 gates it, and
			// refuses Zvfh without Zfhmin, which the ISA requires of it
			// but Cranelift's flags do not. QEMU 10 also runs Zfa's fli.h
			// only with Zfh, where the ISA allows Zfh or Zvfh (finding
			// 31), so Zfh is on with Zvfh: scalar Zfh code wrongly
			// emitted for Zvfh alone is not caught.
			{flag: "has_zvfh", on: "zvfh=true,zfhmin=true,zfh=true", off: "zvfh=false"},
			{flag: "has_zvbb", on: "zvbb=true", off: "zvbb=false", baseline: "QEMU 7.2 has no Zvbb (no zvbb property; vandn.vv raises SIGILL)"},
			{flag: "has_zbkb", on: "zbkb=true", off: "zbkb=false"},
			{flag: "has_zba", on: "zba=true", off: "zba=false"},
			{flag: "has_zbb", on: "zbb=true", off: "zbb=false"},
			{flag: "has_zbc", on: "zbc=true", off: "zbc=false"},
			{flag: "has_zbs", on: "zbs=true", off: "zbs=false"},
			{flag: "has_zicond", on: "zicond=true", off: "zicond=false", baseline: "QEMU 7.2 has no Zicond (no zicond property; czero.eqz raises SIGILL)"},
		}, vlenRules()...),
	},
	arch.S390X: {
		// "qemu" is the only model TCG accepts that covers Cranelift's z14
		// baseline; z14, z15 (gen15a) and their -base variants are refused
		// for facilities TCG lacks.
		base: "qemu",
		rules: []flagRule{
			{flag: "has_mie3", on: "minste3=on", off: "minste3=off"},
			// Only some instructions are gated: vcefb raises SIGILL with
			// vxeh2=off, vlbrg and vsld do not.
			{flag: "has_vxrs_ext2", on: "vxeh2=on", off: "vxeh2=off"},
			{flag: "has_mie4", on: "mie4=on", off: "mie4=off", baseline: "QEMU 7.2 has no Miscellaneous-Instruction-Extensions 4 (arch15: clzg raises SIGILL even with -cpu max)"},
			{flag: "has_vxrs_ext3", on: "vxeh3=on", off: "vxeh3=off", baseline: "QEMU 7.2 has no Vector-Enhancements 3 (arch15: vclzq raises SIGILL even with -cpu max)"},
		},
	},
	arch.AArch64: {
		// QEMU has no properties for these features, so a model is picked:
		// the smallest that has every needed feature, so that code using a
		// feature it was not given raises SIGILL where possible.
		models: []cpuModel{
			{name: "cortex-a57"}, // Armv8.0, Cranelift's baseline
			{name: "cortex-a76", features: []string{"lse", "fp16", "dotprod"}},
			{name: "max,pauth=off", features: []string{"lse", "fp16", "dotprod", "i8mm"}},
			{name: "max", features: []string{"lse", "fp16", "dotprod", "i8mm", "pauth"}},
		},
		rules: []flagRule{
			{flag: "has_lse", needs: "lse"},
			{flag: "has_fp16", needs: "fp16"},
			{flag: "has_dotprod", needs: "dotprod"},
			{flag: "has_i8mm", needs: "i8mm"},
			{flag: "has_pauth", needs: "pauth"},
			// paciasp/autiasp are hints (no-ops) without PAuth: ask for a
			// CPU that really checks the signed return address.
			{flag: "sign_return_address", needs: "pauth"},
			{flag: "sign_return_address_all"},
			{flag: "sign_return_address_with_bkey"},
			// BTI landing pads are hints; qemu-user enforces them only for
			// binaries marked for BTI, which the harness is not.
			{flag: "use_bti"},
			{flag: "use_csdb"},
		},
	},
	arch.X86_64: {
		// needs are /proc/cpuinfo names: code runs natively when the host
		// has them (Place), else under qemu-x86_64 from qemu64 (SSE3 and
		// CMPXCHG16B on) with each feature switched on. QEMU 7.2's TCG
		// runs VEX code only with XSAVE on. Without ABM, LZCNT decodes as
		// BSR and gives another answer instead of SIGILL (the probe checks
		// the answer).
		base: "qemu64",
		rules: []flagRule{
			{flag: "has_sse3", needs: "pni", on: "pni=on", off: "pni=off"},
			{flag: "has_ssse3", needs: "ssse3", on: "ssse3=on", off: "ssse3=off"},
			{flag: "has_cmpxchg16b", needs: "cx16", on: "cx16=on", off: "cx16=off"},
			{flag: "has_sse41", needs: "sse4_1", on: "sse4.1=on", off: "sse4.1=off"},
			// QEMU 10's decoder runs SSE4.2's instructions only with the
			// levels below it on (7.2's did not care); Cranelift's
			// has_sse42 implies them anyway.
			{flag: "has_sse42", needs: "sse4_2", on: "sse4.2=on,sse4.1=on,ssse3=on,pni=on", off: "sse4.2=off"},
			{flag: "has_avx", needs: "avx", on: "avx=on,xsave=on", off: "avx=off"},
			{flag: "has_avx2", needs: "avx2", on: "avx2=on,avx=on,xsave=on", off: "avx2=off"},
			{flag: "has_fma", needs: "fma", on: "fma=on,avx=on,xsave=on", off: "fma=off"},
			{flag: "has_avx_vnni", needs: "avx_vnni", on: "avx-vnni=on,avx=on,xsave=on", off: "avx-vnni=off", baseline: "QEMU 7.2 has no AVX-VNNI ({vex} vpdpbusd raises SIGILL even with -cpu max)"},
			{flag: "has_avx512bitalg", needs: "avx512_bitalg", on: "avx512-bitalg=on,avx512f=on,avx2=on,avx=on,xsave=on", off: "avx512-bitalg=off", baseline: qemuNoAVX512},
			{flag: "has_avx512dq", needs: "avx512dq", on: "avx512dq=on,avx512f=on,avx2=on,avx=on,xsave=on", off: "avx512dq=off", baseline: qemuNoAVX512},
			{flag: "has_avx512vl", needs: "avx512vl", on: "avx512vl=on,avx512f=on,avx2=on,avx=on,xsave=on", off: "avx512vl=off", baseline: qemuNoAVX512},
			{flag: "has_avx512vbmi", needs: "avx512vbmi", on: "avx512vbmi=on,avx512f=on,avx2=on,avx=on,xsave=on", off: "avx512vbmi=off", baseline: qemuNoAVX512},
			{flag: "has_avx512f", needs: "avx512f", on: "avx512f=on,avx2=on,avx=on,xsave=on", off: "avx512f=off", baseline: qemuNoAVX512},
			{flag: "has_avx512vnni", needs: "avx512_vnni", on: "avx512-vnni=on,avx512f=on,avx2=on,avx=on,xsave=on", off: "avx512-vnni=off", baseline: qemuNoAVX512},
			{flag: "has_popcnt", needs: "popcnt", on: "popcnt=on", off: "popcnt=off"},
			{flag: "has_bmi1", needs: "bmi1", on: "bmi1=on", off: "bmi1=off"},
			// QEMU 7.2 decodes SHLX, SARX and SHRX (BMI2) only with BMI1
			// on too.
			{flag: "has_bmi2", needs: "bmi2", on: "bmi2=on,bmi1=on", off: "bmi2=off"},
			// Linux and QEMU call LZCNT "abm"; QEMU 10 decodes it only with
			// BMI1 on too.
			{flag: "has_lzcnt", needs: "abm", on: "abm=on,bmi1=on", off: "abm=off"},
		},
	},
}

const qemuNoAVX512 = "QEMU 7.2 has no AVX-512 (vpaddd on zmm registers raises SIGILL even with -cpu max)"

// QEMU 7.2 and 10 accept a VLEN "in the range [128, 1024]"; an emulator
// that was probed says its own maximum (Emulator.MaxVlen).
const (
	qemuMinVlen = 128
	qemuMaxVlen = 1024
)

// vlenRules are riscv64's has_zvl<N>b flags: N is the minimum vector
// length, emulated as QEMU's vlen (at least 128, QEMU's minimum).
func vlenRules() []flagRule {
	var rules []flagRule
	for n := 32; n <= 65536; n *= 2 {
		r := flagRule{flag: "has_zvl" + strconv.Itoa(n) + "b", vlen: n}
		if n > qemuMaxVlen {
			r.baseline = "QEMU 7.2 supports VLEN up to 1024 bits"
		}
		rules = append(rules, r)
	}
	return rules
}
