package cluster

import (
	"regexp"
	"slices"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/record"
)

// A shape is a structural fact of a reduced case that recognises a known
// finding when no opcode mask can (rule 1b of Known): finding 23's
// riscv64 miscompile needs a float returned through the return area,
// whatever the instructions around it. A finding's header names its
// shape, and the verdict it gives, on a line
//
//	Recognised by: VERDICT SHAPE
//
// ("Recognised by: divergent float-return-area"); the shape must hold on
// the reduced file cliff-locate wrote (record.Location.Repro), for an
// architecture the finding is about.
type shape func(m *ir.Module, arch string) bool

// shapes are the shapes a finding's header may name.
var shapes = map[string]shape{
	"float-return-area": floatReturnArea,
}

// recognisedBy reads a flattened header's "Recognised by: VERDICT SHAPE".
var recognisedBy = regexp.MustCompile(` Recognised by: ([a-z_]+) ([a-z0-9-]+)`)

// A recognition is a finding's verdict and shape, from its header.
type recognition struct {
	verdict record.Outcome
	shape   string
}

// recognitions reads a flattened header's recognitions; an unknown shape
// name is left out (TestRecognitions checks every header's).
func recognitions(text string) []recognition {
	var out []recognition
	for _, m := range recognisedBy.FindAllStringSubmatch(text, -1) {
		if shapes[m[2]] != nil {
			out = append(out, recognition{verdict: record.Outcome(m[1]), shape: m[2]})
		}
	}
	return out
}

// floatReturnRegs are the registers each architecture's system ABI
// returns scalar floats in: a float after them comes back through the
// return area (Cranelift's enable_multi_ret_implicit_sret).
var floatReturnRegs = map[string]int{
	"riscv64": 2, // fa0, fa1
	"x86_64":  2, // xmm0, xmm1
	"aarch64": 8, // v0-v7
	"s390x":   4, // f0, f2, f4, f6
}

// floatReturnArea reports whether some signature of the module (a
// function's own, or one it calls) returns a scalar float through the
// return area on arch: more float returns than the ABI has registers for.
func floatReturnArea(m *ir.Module, arch string) bool {
	regs, ok := floatReturnRegs[arch]
	if !ok {
		return false
	}
	over := func(s ir.Signature) bool {
		n := 0
		for _, r := range s.Returns {
			if r.Type.IsScalar() && r.Type.IsFloat() && r.Type != ir.F128 {
				n++
			}
		}
		return n > regs
	}
	for _, f := range m.Funcs {
		if over(f.Sig) || slices.ContainsFunc(f.Sigs, func(d ir.SigDecl) bool { return over(d.Sig) }) {
			return true
		}
	}
	return false
}

// byShape names the findings whose recognition holds on a located
// cluster: its verdict, and its shape on the reduced file for one of the
// failing architectures the finding is about (rule 1b).
func (k *Known) byShape(sig Signature, loc *record.Location, arches []string) []string {
	if loc == nil || loc.Repro == "" {
		return nil
	}
	var mod *ir.Module
	var out []string
	for _, d := range k.docs {
		for _, r := range d.recognitions {
			if r.verdict != sig.Verdict {
				continue
			}
			if mod == nil {
				f, err := parser.ParseFile(loc.CaseID, []byte(loc.Repro))
				if err != nil {
					return nil
				}
				mod = &f.Module
			}
			for _, a := range d.arches {
				if archMatches(a, arches) && shapes[r.shape](mod, a) && !slices.Contains(out, d.name) {
					out = append(out, d.name)
				}
			}
		}
	}
	return out
}
