package verify

import (
	"strings"

	"cliff/lib/ir"
)

// PointerType is the pointer type of a Cranelift target ISA name as written
// on a `target` line: i32 for the 32-bit pulley targets, i64 for the
// others, Invalid for names Cranelift does not know.
func PointerType(isa string) ir.Type {
	switch isa {
	case "pulley32", "pulley32be":
		return ir.I32
	case "x86_64", "aarch64", "s390x", "pulley64", "pulley64be":
		return ir.I64
	}
	if strings.HasPrefix(isa, "riscv64") {
		return ir.I64
	}
	return ir.Invalid
}

// OptionsFor returns the options under which Cranelift's filetest runner
// verifies the functions of file. The verifier gets a target (and so a
// pointer type) when the file names exactly one, or when one of its tests
// compiles code, which happens once per target (cliff takes the first
// target's pointer type; a file's targets agree on it in practice). The
// reader's default calling convention is the host's, system_v, for `test
// run` files, fast otherwise. The settings the verifier reads come from the
// `set` lines before the first target.
func OptionsFor(file *ir.File) Options {
	var opts Options
	var targets []string
	for _, h := range file.Header {
		switch {
		case h.Kind == ir.HeaderTarget && len(h.Words) > 0:
			targets = append(targets, h.Words[0])
		case h.Kind == ir.HeaderSet && len(targets) == 0:
			// Settings before the first target apply to it.
			opts.applySettings(h.Words)
		}
	}
	compiles := false
	for _, t := range file.Tests {
		if len(t.Words) == 0 {
			continue
		}
		switch t.Words[0] {
		case "compile", "optimize":
			compiles = true
		case "run":
			compiles = true
			opts.DefaultCallConv = ir.CallConvSystemV
		}
	}
	if len(targets) == 1 || len(targets) > 1 && compiles {
		opts.PointerType = PointerType(targets[0])
	}
	return opts
}

// OptionsForSettings returns the options for a 64-bit target compiled with
// the given Cranelift settings (`NAME=VALUE`, or a bare NAME for true), as
// a case record carries them.
func OptionsForSettings(settings []string) Options {
	opts := DefaultOptions()
	opts.applySettings(settings)
	return opts
}

// applySettings takes the settings the verifier reads from `NAME=VALUE`
// words; the others do not matter to it.
func (opts *Options) applySettings(words []string) {
	for _, w := range words {
		name, value, _ := strings.Cut(w, "=")
		on := value == "" || value == "true"
		switch name {
		case "preserve_frame_pointers":
			opts.PreserveFramePointers = on
		case "enable_pinned_reg":
			opts.EnablePinnedReg = on
		}
	}
}
