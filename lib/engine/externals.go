package engine

import (
	"fmt"
	"maps"
	"slices"

	"cliff/lib/arch"
	"cliff/lib/harness"
	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// External names. A module may refer to functions and symbols it does not
// define (`fn0 = %memcpy(...)`, `gv0 = symbol %x`). Compiled code can use
// only those the harness provides, Cranelift's libcalls
// (harness.CheckExternalName): any other name, `%exit`, `%kill`,
// `%system`, would be libc's, which the harness program holds. Such a unit
// is refused before it is compiled, on every compiled configuration, with
// StatusUnsupported "external name %x": it says nothing about Cranelift.
// (Link refuses such a symbol too, should one get past this check, and
// the jobs' seccomp filter stops the system calls of code that jumps
// into libc anyway.)
//
// The interpreter refuses such a unit the same way, and more: it calls
// only the module's own functions and the float libcalls, which the
// driver computes (driver/src/interpret.rs), so it cannot reach the
// system, but another external function would fail in it as a compile
// error or, for another libcall, as a false trap `unreachable`, both
// blamed on Cranelift.

// missingRuntime are functions that Cranelift's own test runner provides
// to compiled code and cliff's harness does not, with the reason.
var missingRuntime = map[string]string{
	"%__cranelift_throw": "the exception-unwinding runtime of Cranelift's test runner, which cliff's harness does not provide",
}

// interpreterCalls reports whether the interpreter can call the external
// function name: the float libcalls (ir.Libcall.Op).
func interpreterCalls(name string) bool {
	l, ok := ir.LookupLibcall(name)
	return ok && l.Op != ""
}

// unrunnableReason says why compiled code of a module cannot run in the
// harness: the first name it refers to but does not define that the
// harness does not provide, or "".
func unrunnableReason(funcs []*ir.Function) string {
	return firstRefusal(funcs, func(name string, tls bool) string {
		if why, ok := missingRuntime[name]; ok {
			return "external name " + name + ": " + why
		}
		if err := harness.CheckExternalName(name, tls); err != nil {
			return err.Error()
		}
		return ""
	})
}

// interpRefusal says why the interpreter cannot run a unit: the first
// external name, in the order of the module's function names, that it
// cannot call, or "".
func (u *unit) interpRefusal() string {
	funcs := make([]*ir.Function, 0, len(u.funcs))
	for _, name := range slices.Sorted(maps.Keys(u.funcs)) {
		funcs = append(funcs, u.funcs[name])
	}
	if why := unrunnableReason(funcs); why != "" {
		return why
	}
	return firstRefusal(funcs, func(name string, tls bool) string {
		if tls || !interpreterCalls(name) {
			return "external name " + name + ": the interpreter calls only the float libcalls (%CeilF32 ... %FmaF64)"
		}
		return ""
	})
}

// firstRefusal applies refuse to every function and symbol that funcs
// refer to but do not define, in order, and returns its first refusal.
func firstRefusal(funcs []*ir.Function, refuse func(name string, tls bool) string) string {
	defined := make(map[string]bool, len(funcs))
	for _, f := range funcs {
		defined[f.Name] = true
	}
	for _, f := range funcs {
		for _, fr := range f.Preamble.FuncRefs {
			if defined[fr.Name] {
				continue
			}
			if why := refuse(fr.Name, false); why != "" {
				return why
			}
		}
		for _, gv := range f.Preamble.GlobalValues {
			if gv.Kind != ir.GVSymbol || defined[gv.Name] && !gv.TLS {
				continue
			}
			if why := refuse(gv.Name, gv.TLS); why != "" {
				return why
			}
		}
	}
	return ""
}

// refused gives the entries of a unit that t's configuration cannot run
// for its external names (u.unrunnable compiled, u.interpRefusal in the
// interpreter) an unsupported result, and reports whether it did; their
// run lines count as skipped, as ones the configuration cannot run.
func (w *worker) refused(t *task, u *unit) bool {
	why := u.unrunnable
	switch t.cfg.Executor {
	case record.ExecRef:
		// The reference calls no external code: it answers unsupported
		// for an external callee it does not know, call by call. It
		// refuses only settings that change what the code computes.
		why = referenceRefusal(t.cfg.Settings)
	case record.ExecInterp:
		why = u.interpRefusal()
	default:
		if why == "" && !w.lim.compileRefused {
			why = flagRefusal(t.cfg, u.funcs)
		}
		if why == "" && !w.lim.compileRefused && u.configs == nil {
			why = profileRefusal(t.cfg, u.funcs)
		}
	}
	if why == "" && t.cfg.Executor != record.ExecRef {
		why = versionRefusal(w.crates[t.cfg.Cranelift], u.funcs)
	}
	if why == "" {
		return false
	}
	for _, e := range u.entries {
		if e.results[t.cfgIndex] == nil {
			e.results[t.cfgIndex] = &record.RunResult{Config: t.cfg, Status: record.StatusUnsupported, Message: shorten(why)}
		}
	}
	w.out.skipped(u, t.cfg, string(record.StatusUnsupported)+": "+why)
	return true
}

// versionRefusal says why Cranelift version cannot take a module, or "":
// an opcode that release does not know (lib/ir's release table), which
// its parser would reject as a compile error, blamed on Cranelift. A
// case made for another release is refused so, before compiling.
func versionRefusal(version string, funcs map[string]*ir.Function) string {
	if version == "" {
		return ""
	}
	for _, name := range slices.Sorted(maps.Keys(funcs)) {
		if why := ir.OpcodeRefusal(funcs[name], version); why != "" {
			return why
		}
	}
	return ""
}

// flagRefusal says why cfg cannot compile a module, or "": its ISA flags
// lack one that the architecture's backend needs for what the module
// uses: a vector type (lib/arch's VectorFlag: riscv64's has_v), or an
// opcode whose only lowering rule asks for a flag (the profile's
// NeedsFlag: x86_64's x86_pshufb needs SSSE3, blendv SSE4.1).
// Cranelift's own fuzzer never asks for that either; its panic or "should
// be implemented in ISLE" would blame Cranelift for cliff's choice of
// flags.
func flagRefusal(cfg record.Config, funcs map[string]*ir.Function) string {
	a, ok := arch.Lookup(cfg.Arch)
	if !ok {
		return ""
	}
	needs := func(ir.Opcode) string { return "" } // no profile: no flag is known to be needed
	if p, err := profile.Load(profile.ProfileOf(cfg.Arch)); err == nil {
		needs = func(op ir.Opcode) string { return p.NeedsFlag(op, cfg.Flags) }
	}
	vectors := a.TakesVectors(cfg.Flags)
	for _, name := range slices.Sorted(maps.Keys(funcs)) {
		f := funcs[name]
		if !vectors {
			for _, v := range f.Values {
				if v.Type.IsVector() {
					return fmt.Sprintf("%s uses %s: %s compiles vector types only with %s", name, v.Type, a.Name, a.VectorFlag)
				}
			}
		}
		for _, inst := range f.Insts {
			if inst.Op == ir.OpInvalid {
				continue
			}
			if need := needs(inst.Op); need != "" {
				return fmt.Sprintf("%s uses %s: %s lowers it only with %s", name, inst.Op, a.Name, need)
			}
		}
	}
	return ""
}

// profileRefusal says why a Pulley target cannot take a generated case,
// or "": an instruction its own profile (lib/profile's pulley32 and
// pulley64, from its census) does not allow. A compat case is made for
// the four machine targets; Pulley lowers less (no f16, f128 or atomics,
// little of i128), and a case it does not lower would be a compile error
// blamed on Cranelift. So Pulley joins a compat campaign for the cases it
// lowers. Cranelift's own test files are not filtered: their target lines
// say what runs.
func profileRefusal(cfg record.Config, funcs map[string]*ir.Function) string {
	a, ok := arch.Lookup(cfg.Arch)
	if !ok || !a.Bytecode {
		return ""
	}
	p, err := profile.Load(profile.ProfileOf(cfg.Arch))
	if err != nil {
		return ""
	}
	for _, fname := range slices.Sorted(maps.Keys(funcs)) {
		f := funcs[fname]
		sigs := []ir.Signature{f.Sig}
		for _, d := range f.Sigs {
			sigs = append(sigs, d.Sig)
		}
		for _, sig := range sigs {
			if sig.CallConv != "" && !p.AllowsCallConv(sig.CallConv) { // "": the default, which every target takes
				return fmt.Sprintf("%s: calling convention %s: %s does not take it (its profile, lib/profile)", fname, sig.CallConv, cfg.Arch)
			}
			for _, ps := range [][]ir.AbiParam{sig.Params, sig.Returns} {
				for _, a := range ps {
					if !p.AllowsABIType(a.Type) {
						return fmt.Sprintf("%s: a %s param or return: %s does not take it (its profile, lib/profile)", fname, a.Type, cfg.Arch)
					}
				}
			}
		}
		for i := range f.Insts {
			d := &f.Insts[i]
			if d.Op == ir.OpInvalid {
				continue
			}
			if err := p.CheckInst(f, d); err != nil {
				return fmt.Sprintf("%s: %v: %s does not lower it (its profile, lib/profile)", fname, err, cfg.Arch)
			}
		}
	}
	return ""
}
