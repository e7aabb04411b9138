package engine

import (
	"fmt"
	"strconv"
	"strings"

	"cliff/lib/arch"
	"cliff/lib/ir"
	"cliff/lib/record"
	"cliff/lib/verify"
)

// Two limits of the 32-bit Pulley targets (pulley32, pulley32be) on the
// 64-bit hosts cliff runs on, where Cranelift's filetest runner never runs
// them (function_runner's is_isa_compatible runs Pulley only when the
// host's pointer width and endianness are the target's). Each refuses an
// entry on those configurations with the reason, before compiling: its
// run lines are skipped, not failed.
//
// Stack arguments. pulley-interpreter's push_frame and push_frame_save
// store lr and fp as host pointers, 2×8 bytes on a 64-bit host, while
// Cranelift's pulley32 frame layout counts 2×4 (pulley_shared/abi.rs,
// setup_area_size), so a pulley32 callee reads its stack arguments 8
// bytes below where its caller stored them: a function of 16 i64
// parameters returns the saved lr for the 16th (push_frame; xload64le_o32
// x0, sp, 8), and tail calls with stack arguments crash. Nothing in the
// runner can reconcile the two, so an entry whose reachable functions
// take arguments on the stack does not run there (pulley32StackArgs).
//
// Pointer widths in `test interpret` files. Cranelift verifies a file that
// only interprets, with several targets, without an ISA, so it may mix
// address widths (stack-addr-32.clif's stack_addr.i64 beside
// stack_addr.i32 on pulley32); cliff-run also compiles such a file on its
// targets, where Cranelift's verifier rejects the function. An entry whose
// reachable functions verify without a pointer type but not with the
// configuration's is refused (unverifiedWidth); a file that Cranelift
// verifies with a target (one target line, or a test that compiles)
// compiles as usual, and such an error is Cranelift's to report.

// hostPointerBytes is the pointer size of cliff-pulley, which is built
// for this host as cliff is.
const hostPointerBytes = strconv.IntSize / 8

// entryRefusal says why cfg cannot run e, or "".
func (u *unit) entryRefusal(cfg record.Config, e *entry) string {
	if why := u.unverifiedWidth(cfg, e); why != "" {
		return why
	}
	a, ok := arch.Lookup(cfg.Arch)
	if !ok || !a.Bytecode || a.PointerBytes >= hostPointerBytes {
		return ""
	}
	for _, name := range u.reachable(e) {
		if f := u.funcs[name]; f != nil && pulley32StackArgs(&f.Sig) {
			return fmt.Sprintf("%s takes arguments on the stack, which %s code reads at frame offsets that only a %d-bit host's pulley-interpreter matches (upstream runs %s only on such hosts)",
				f.Name, cfg.Arch, 8*a.PointerBytes, cfg.Arch)
		}
	}
	return ""
}

// unverifiedWidth says why e's functions are not valid CLIF for cfg's
// pointer width although the file, as Cranelift verifies it, needs none
// (see above), or "".
func (u *unit) unverifiedWidth(cfg record.Config, e *entry) string {
	if u.fileVerify == nil || u.fileVerify.PointerType != ir.Invalid {
		return ""
	}
	opts := *u.fileVerify
	opts.PointerType = verify.PointerType(cfg.Arch)
	if opts.PointerType == ir.Invalid {
		return ""
	}
	for _, name := range u.reachable(e) {
		f := u.funcs[name]
		if f == nil || len(verify.FunctionWith(f, *u.fileVerify)) > 0 {
			continue
		}
		if errs := verify.FunctionWith(f, opts); len(errs) > 0 {
			return fmt.Sprintf("the file only interprets, and Cranelift verifies it without a target; for %s (pointer type %s) %s",
				cfg.Arch, opts.PointerType, strings.SplitN(errs.Error(), "\n", 2)[0])
		}
	}
	return ""
}

// pulley32StackArgs reports whether a function of signature sig receives
// an argument on the stack under Pulley's calling convention
// (pulley_shared/abi.rs, compute_arg_locs, the same for every call
// conv): integers in x0-x14 (an i128 takes two), floats in f0-f15,
// vectors in v0-v15, and x0 first for the return area's address when the
// returns overflow their registers (enable_multi_ret_implicit_sret).
func pulley32StackArgs(sig *ir.Signature) bool {
	const xRegs, fRegs, vRegs = 15, 16, 16
	count := func(params []ir.AbiParam) (x, f, v int) {
		for _, p := range params {
			switch t := p.Type; {
			case t.IsVector():
				v++
			case t.IsFloat():
				f++
			case t == ir.I128:
				x += 2
			default:
				x++
			}
		}
		return x, f, v
	}
	rx, rf, rv := count(sig.Returns)
	x, f, v := count(sig.Params)
	if rx > xRegs || rf > fRegs || rv > vRegs {
		x++
	}
	return x > xRegs || f > fRegs || v > vRegs
}
