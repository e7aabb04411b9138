package harness

// A probe is an instruction that needs a CPU feature, as bytes in memory
// order for csrc/probe.c, with the flags it also needs (a vector
// instruction needs has_v) and its assembly, for the reasons that name it.
// Encodings come from binutils 2.40 where it knows the instruction, from
// the ISA manuals (and Cranelift's emitters) where it does not (zicond,
// zfa, zcb, zvbb, s390x arch15). ProbeEmulator runs them under each
// emulator, and the tests natively.
type probe struct {
	hex  string
	with []string
	insn string
}

// probeKey is the probes' key for an ISA flag.
func probeKey(arch, flag string) string { return arch + "/" + flag }

var probes = map[string]probe{
	"riscv64/has_m":        {hex: "3385c502", insn: "mul a0, a1, a2"},
	"riscv64/has_a":        {hex: "2f200500", insn: "amoadd.w zero, zero, (a0)"},
	"riscv64/has_f":        {hex: "53700000", insn: "fadd.s ft0, ft0, ft0"},
	"riscv64/has_d":        {hex: "53700002", insn: "fadd.d ft0, ft0, ft0"},
	"riscv64/has_zicsr":    {hex: "73253000", insn: "frcsr a0"},
	"riscv64/has_zifencei": {hex: "0f100000", insn: "fence.i"},
	"riscv64/has_zca":      {hex: "0100", insn: "c.nop"},
	"riscv64/has_zcd":      {hex: "0220", insn: "c.fldsp ft0, 0(sp)"},
	"riscv64/has_zcb":      {hex: "759d", insn: "c.not a0"},
	"riscv64/has_zfa":      {hex: "530018f0", insn: "fli.s ft0, 1.0"},
	"riscv64/has_zfhmin":   {hex: "53002040", insn: "fcvt.s.h ft0, ft0"},
	"riscv64/has_zfh":      {hex: "53700004", insn: "fadd.h ft0, ft0, ft0"},
	"riscv64/has_v":        {hex: "57750001" + "57000002", insn: "vsetvli a0, zero, e32; vadd.vv v0, v0, v0"},
	"riscv64/has_zvfh":     {hex: "57758000" + "57100002", with: []string{"has_v"}, insn: "vsetvli a0, zero, e16; vfadd.vv v0, v0, v0"},
	"riscv64/has_zvbb":     {hex: "57750001" + "57000006", with: []string{"has_v"}, insn: "vsetvli a0, zero, e32; vandn.vv v0, v0, v0"},
	"riscv64/has_zbkb":     {hex: "33c5c508", insn: "pack a0, a1, a2"},
	"riscv64/has_zba":      {hex: "33a5c520", insn: "sh1add a0, a1, a2"},
	"riscv64/has_zbb":      {hex: "33f5c540", insn: "andn a0, a1, a2"},
	"riscv64/has_zbc":      {hex: "3395c50a", insn: "clmul a0, a1, a2"},
	"riscv64/has_zbs":      {hex: "3395c528", insn: "bset a0, a1, a2"},
	"riscv64/has_zicond":   {hex: "33d5c50e", insn: "czero.eqz a0, a1, a2"},

	"s390x/has_mie3":      {hex: "b9f53012", insn: "ncrk %r1, %r2, %r3"},
	"s390x/has_vxrs_ext2": {hex: "e712000020c3", insn: "vcefb %v1, %v2, 0, 0"},
	"s390x/has_mie4":      {hex: "b9680012", insn: "clzg %r1, %r2"},
	"s390x/has_vxrs_ext3": {hex: "e71200004053", insn: "vclzq %v1, %v2"},

	"aarch64/has_lse":             {hex: "020021b8", insn: "ldadd w1, w2, [x0]"},
	"aarch64/has_fp16":            {hex: "2028e21e", insn: "fadd h0, h1, h2"},
	"aarch64/has_dotprod":         {hex: "2094824e", insn: "sdot v0.4s, v1.16b, v2.16b"},
	"aarch64/has_i8mm":            {hex: "209c824e", insn: "usdot v0.4s, v1.16b, v2.16b"},
	"aarch64/has_pauth":           {hex: "4100c1da", insn: "pacia x1, x2"},
	"aarch64/sign_return_address": {hex: "4100c1da", insn: "pacia x1, x2"},

	"x86_64/has_sse3":       {hex: "f20f7cc0", insn: "haddps %xmm0, %xmm0"},
	"x86_64/has_ssse3":      {hex: "660f3800c0", insn: "pshufb %xmm0, %xmm0"},
	"x86_64/has_cmpxchg16b": {hex: "f0480fc70f", insn: "lock cmpxchg16b (%rdi)"},
	"x86_64/has_sse41":      {hex: "660f3817c0", insn: "ptest %xmm0, %xmm0"},
	"x86_64/has_sse42":      {hex: "660f3837c0", insn: "pcmpgtq %xmm0, %xmm0"},
	"x86_64/has_avx":        {hex: "c5fc58c0", insn: "vaddps %ymm0, %ymm0, %ymm0"},
	"x86_64/has_avx2":       {hex: "c5fdfec0", insn: "vpaddd %ymm0, %ymm0, %ymm0"},
	"x86_64/has_fma":        {hex: "c4e279b8c0", insn: "vfmadd231ps %xmm0, %xmm0, %xmm0"},
	"x86_64/has_popcnt":     {hex: "f3480fb8c0", insn: "popcnt %rax, %rax"},
	"x86_64/has_bmi1":       {hex: "c4e2f8f2c0", insn: "andn %rax, %rax, %rax"},
	"x86_64/has_bmi2":       {hex: "c4e2f9f7c0", insn: "shlx %rax, %rax, %rax"},
	// Without LZCNT the bytes are BSR, which answers 0 for 1 instead of
	// 63: mov $1, %eax; lzcnt %rax, %rax; cmp $63, %rax; je 1f; ud2; 1: nop
	"x86_64/has_lzcnt":        {hex: "b801000000" + "f3480fbdc0" + "4883f83f" + "7402" + "0f0b" + "90", insn: "lzcnt %rax, %rax (answering 63 for 1)"},
	"x86_64/has_avx_vnni":     {hex: "c4e27950c0", insn: "{vex} vpdpbusd %xmm0, %xmm0, %xmm0"},
	"x86_64/has_avx512f":      {hex: "62f17d48fec0", insn: "vpaddd %zmm0, %zmm0, %zmm0"},
	"x86_64/has_avx512vl":     {hex: "62a17d00fec0", insn: "vpaddd %xmm16, %xmm16, %xmm16"},
	"x86_64/has_avx512dq":     {hex: "62f2fd4840c0", insn: "vpmullq %zmm0, %zmm0, %zmm0"},
	"x86_64/has_avx512bitalg": {hex: "62f27d4854c0", insn: "vpopcntb %zmm0, %zmm0"},
	"x86_64/has_avx512vbmi":   {hex: "62f27d488dc0", insn: "vpermb %zmm0, %zmm0, %zmm0"},
	"x86_64/has_avx512vnni":   {hex: "62f27d4850c0", insn: "vpdpbusd %zmm0, %zmm0, %zmm0"},
}
