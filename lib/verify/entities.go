package verify

import (
	"fmt"
	"strings"

	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
)

// Entities: the preamble declares each entity once, declarations refer to
// declared entities, global values form no cycle, and instructions refer
// only to declared entities.

// decls finds a preamble declaration by its number: the index into the
// matching Preamble slice.
type decls struct {
	slots    declIndex[ir.StackSlot]
	dynSlots declIndex[ir.DynamicStackSlot]
	dynTypes declIndex[ir.DynamicType]
	gvs      declIndex[ir.GlobalValue]
	sigs     declIndex[ir.SigRef]
	funcRefs declIndex[ir.FuncRef]
	consts   declIndex[ir.Constant]
	regions  declIndex[ir.AliasRegion]

	// dups lists the entities declared more than once.
	dups []string
}

// declIndex maps the numbers of one kind of declaration to the index of
// the first declaration with that number. Numbers are small in practice
// (sig0, sig1, ...), so it is a slice by number, kept from function to
// function like the rest of a verifier; larger numbers go to a map.
type declIndex[K ~uint32] struct {
	byNum  []int32 // index+1 by number; 0: not declared
	sparse map[K]int
}

// maxDenseNum bounds the numbers declIndex keeps in its slice.
const maxDenseNum = 1 << 10

// index makes x the index of ds and appends repeated numbers to dups.
func index[K interface {
	~uint32
	fmt.Stringer
}, D any](x *declIndex[K], ds []D, num func(*D) K, dups *[]string) {
	top := 0 // one past the largest number for byNum
	for k := range ds {
		if n := int(num(&ds[k])); n < maxDenseNum {
			top = max(top, n+1)
		}
	}
	x.byNum = reuse.Zeroed(x.byNum, top)
	x.sparse = nil
	for k := range ds {
		n := num(&ds[k])
		if _, ok := x.find(n); ok {
			*dups = append(*dups, n.String())
			continue
		}
		if int(n) < top {
			x.byNum[n] = int32(k) + 1
			continue
		}
		if x.sparse == nil {
			x.sparse = make(map[K]int)
		}
		x.sparse[n] = k
	}
}

// find returns the index of the declaration numbered n.
func (x *declIndex[K]) find(n K) (int, bool) {
	if int(n) < len(x.byNum) {
		k := x.byNum[n]
		return int(k) - 1, k != 0
	}
	k, ok := x.sparse[n]
	return k, ok
}

func (x *declIndex[K]) has(n K) bool { _, ok := x.find(n); return ok }

func (v *verifier) indexDecls() {
	p := &v.f.Preamble
	d := &v.decls
	d.dups = nil
	index(&d.slots, p.StackSlots, func(s *ir.StackSlotDecl) ir.StackSlot { return s.Num }, &d.dups)
	index(&d.dynSlots, p.DynStackSlots, func(s *ir.DynStackSlotDecl) ir.DynamicStackSlot { return s.Num }, &d.dups)
	index(&d.dynTypes, p.DynTypes, func(s *ir.DynTypeDecl) ir.DynamicType { return s.Num }, &d.dups)
	index(&d.gvs, p.GlobalValues, func(s *ir.GlobalValueDecl) ir.GlobalValue { return s.Num }, &d.dups)
	index(&d.sigs, p.Sigs, func(s *ir.SigDecl) ir.SigRef { return s.Num }, &d.dups)
	index(&d.funcRefs, p.FuncRefs, func(s *ir.FuncRefDecl) ir.FuncRef { return s.Num }, &d.dups)
	index(&d.consts, p.Constants, func(s *ir.ConstantDecl) ir.Constant { return s.Num }, &d.dups)
	index(&d.regions, p.Regions, func(s *ir.RegionDecl) ir.AliasRegion { return s.Num }, &d.dups)
}

// Lookups; nil when the entity is not declared.

func (v *verifier) sig(r ir.SigRef) *ir.Signature {
	if k, ok := v.decls.sigs.find(r); ok {
		return &v.f.Sigs[k].Sig
	}
	return nil
}

func (v *verifier) funcRef(r ir.FuncRef) *ir.FuncRefDecl {
	if k, ok := v.decls.funcRefs.find(r); ok {
		return &v.f.FuncRefs[k]
	}
	return nil
}

func (v *verifier) gv(r ir.GlobalValue) *ir.GlobalValueDecl {
	if k, ok := v.decls.gvs.find(r); ok {
		return &v.f.GlobalValues[k]
	}
	return nil
}

func (v *verifier) constant(r ir.Constant) *ir.ConstantDecl {
	if k, ok := v.decls.consts.find(r); ok {
		return &v.f.Constants[k]
	}
	return nil
}

func (v *verifier) hasSlot(s ir.StackSlot) bool           { return v.decls.slots.has(s) }
func (v *verifier) hasDynSlot(s ir.DynamicStackSlot) bool { return v.decls.dynSlots.has(s) }
func (v *verifier) hasDynType(t ir.DynamicType) bool      { return v.decls.dynTypes.has(t) }
func (v *verifier) hasRegion(r ir.AliasRegion) bool       { return v.decls.regions.has(r) }

// checkDecls checks the preamble declarations other than global values.
func (v *verifier) checkDecls() {
	p := &v.f.Preamble
	for _, name := range v.decls.dups {
		v.entityErr(name, "duplicate declaration of %s", name)
	}
	for k := range p.FuncRefs {
		fr := &p.FuncRefs[k]
		if v.sig(fr.Sig) == nil {
			v.entityErr(fr.Num.String(), "invalid signature reference %s", fr.Sig)
		}
	}
	for k := range p.DynStackSlots {
		s := &p.DynStackSlots[k]
		if !v.hasDynType(s.Type) {
			v.entityErr(s.Num.String(), "invalid dynamic type %s", s.Type)
		}
	}
	for k := range p.DynTypes {
		t := &p.DynTypes[k]
		if !t.Base.IsVector() {
			v.entityErr(t.Num.String(), "dynamic type base %s is not a vector type", t.Base)
		}
		if v.gv(t.Scale) == nil {
			v.entityErr(t.Num.String(), "invalid global value %s", t.Scale)
		}
	}
	v.checkRegions()
	if p.StackLimit != ir.NoGlobalValue && v.gv(p.StackLimit) == nil {
		v.funcErr("invalid global value %s in stack_limit", p.StackLimit)
	}
}

// checkRegions reports alias regions that share a user id.
func (v *verifier) checkRegions() {
	var seen map[uint32]ir.AliasRegion
	for _, r := range v.f.Regions {
		if prev, ok := seen[r.UserID]; ok {
			v.entityErr(r.Num.String(), "duplicate alias region user_id %d: %s and %s", r.UserID, prev, r.Num)
			continue
		}
		if seen == nil {
			seen = make(map[uint32]ir.AliasRegion)
		}
		seen[r.UserID] = r.Num
	}
}

// checkGlobalValues checks each global value declaration: bases exist and
// form no cycle (reported once per function, as Cranelift does), vmctx is a
// param of the function, and, when the target is known, types fit the
// pointer type.
func (v *verifier) checkGlobalValues() {
	gvs := v.f.GlobalValues
	cycleSeen := false
	var chain []ir.GlobalValue
	for k := range gvs {
		g := &gvs[k]
		name := g.Num.String()
		// Walk the base chain; a cycle makes every later check meaningless.
		chain = append(chain[:0], g.Num)
		cyclic := false
		for cur := g; cur.Kind == ir.GVLoad || cur.Kind == ir.GVIAddImm; {
			next := v.gv(cur.Base)
			if next == nil {
				if cur == g {
					v.entityErr(name, "invalid global value %s", cur.Base)
				}
				break
			}
			if containsGV(chain, cur.Base) {
				cyclic = true
				break
			}
			chain = append(chain, cur.Base)
			cur = next
		}
		if cyclic {
			if !cycleSeen {
				v.entityErr(name, "global value cycle: [%s]", joinGVs(chain))
				cycleSeen = true
			}
			continue
		}
		v.checkGlobalValue(g)
	}
}

func (v *verifier) checkGlobalValue(g *ir.GlobalValueDecl) {
	name := g.Num.String()
	ptr := v.opts.PointerType
	switch g.Kind {
	case ir.GVVMContext:
		if !v.hasVMContextParam() {
			v.entityErr(name, "undeclared vmctx reference %s", g.Num)
		}
	case ir.GVIAddImm:
		if !isScalarInt(g.Type) {
			v.entityErr(name, "iadd_imm global value with non-int type %s", g.Type)
		} else if base := v.gv(g.Base); ptr != ir.Invalid && base != nil {
			if bt := v.gvType(base); bt != g.Type {
				v.entityErr(name, "iadd_imm type %s differs from operand type %s", g.Type, bt)
			}
		}
	case ir.GVLoad:
		if base := v.gv(g.Base); ptr != ir.Invalid && base != nil {
			if bt := v.gvType(base); bt != ptr {
				v.entityErr(name, "base %s has type %s, which is not the pointer type %s", g.Base, bt, ptr)
			}
		}
		if g.Flags.HasRegion && !v.hasRegion(g.Flags.Region) {
			v.entityErr(name, "undefined alias region %s", g.Flags.Region)
		}
	}
}

// gvType is the type of a global value's value (Cranelift's global_type):
// the pointer type except for loads and iadd_imm, which say theirs.
func (v *verifier) gvType(g *ir.GlobalValueDecl) ir.Type {
	switch g.Kind {
	case ir.GVLoad, ir.GVIAddImm:
		return g.Type
	}
	return v.opts.PointerType
}

func (v *verifier) hasVMContextParam() bool {
	for _, p := range v.f.Sig.Params {
		if p.Purpose == "vmctx" {
			return true
		}
	}
	return false
}

func containsGV(gs []ir.GlobalValue, g ir.GlobalValue) bool {
	for _, x := range gs {
		if x == g {
			return true
		}
	}
	return false
}

func joinGVs(gs []ir.GlobalValue) string {
	s := make([]string, len(gs))
	for k, g := range gs {
		s[k] = g.String()
	}
	return strings.Join(s, ", ")
}

// checkEntityRefs checks the entities an instruction's immediates name, by
// the immediate kinds of its format, and those its debug tags and stack map
// name. Cranelift checks neither of the last two: its parser takes any
// stack slot number there and its verifier does not look; a slot that is
// not declared is a broken reference all the same.
func (v *verifier) checkEntityRefs(inst ir.Inst, d *ir.InstData, r *opRules) {
	for _, t := range d.DebugTags {
		switch {
		case t.Kind == ir.TagStackSlot && !v.hasSlot(t.Slot):
			v.instErr(inst, "invalid stack slot %s in debug tags", t.Slot)
		case t.Kind != ir.TagUser && t.Kind != ir.TagStackSlot:
			v.instErr(inst, "invalid debug tag kind %d", t.Kind)
		}
	}
	for _, e := range d.StackMap {
		if !v.hasSlot(e.Slot) {
			v.instErr(inst, "invalid stack slot %s in stack map", e.Slot)
		}
		if !e.Type.Valid() || e.Type.IsDynamic() {
			v.instErr(inst, "invalid stack map entry type %s", e.Type)
		}
	}
	for _, k := range r.entityImms {
		immChecks[k](v, inst, d)
	}
}

// immChecks check the immediates of an instruction by kind: the entities
// they name are declared and the values are in range. Kinds without an
// entry need no check.
var immChecks = [...]instCheck{
	ir.ImmFuncRef: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if v.funcRef(d.Func) == nil {
			v.instErr(inst, "invalid function reference %s", d.Func)
		}
	},
	ir.ImmSigRef:         checkSigRef,
	ir.ImmExceptionTable: checkSigRef,
	ir.ImmStackSlot: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if !v.hasSlot(d.Slot) {
			v.instErr(inst, "invalid stack slot %s", d.Slot)
		}
	},
	ir.ImmDynStackSlot: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if !v.hasDynSlot(d.DynSlot) {
			v.instErr(inst, "invalid dynamic stack slot %s", d.DynSlot)
		}
	},
	ir.ImmGlobalValue: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if v.gv(d.GV) == nil {
			v.instErr(inst, "invalid global value %s", d.GV)
		}
	},
	ir.ImmConstant: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if d.Const != ir.NoConstant && v.constant(d.Const) == nil {
			v.instErr(inst, "invalid constant %s", d.Const)
		}
	},
	ir.ImmMemFlags: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if d.Flags.HasRegion && !v.hasRegion(d.Flags.Region) {
			v.instErr(inst, "undefined alias region %s", d.Flags.Region)
		}
	},
	ir.ImmIntCC: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if strings.HasPrefix(d.IntCC.String(), "<") {
			v.instErr(inst, "invalid integer condition code %d", d.IntCC)
		}
	},
	ir.ImmFloatCC: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if strings.HasPrefix(d.FloatCC.String(), "<") {
			v.instErr(inst, "invalid float condition code %d", d.FloatCC)
		}
	},
	ir.ImmAtomicRmwOp: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if strings.HasPrefix(d.RmwOp.String(), "<") {
			v.instErr(inst, "invalid atomic_rmw operation %d", d.RmwOp)
		}
	},
	ir.ImmUint8: func(v *verifier, inst ir.Inst, d *ir.InstData) {
		if d.Imm < 0 || d.Imm > 255 {
			v.instErr(inst, "immediate %d does not fit in uimm8", d.Imm)
		}
	},
}

func checkSigRef(v *verifier, inst ir.Inst, d *ir.InstData) {
	if v.sig(d.Sig) == nil {
		v.instErr(inst, "invalid signature reference %s", d.Sig)
	}
}
