package printer

import (
	"slices"
	"strconv"

	"cliff/lib/ir"
)

// funcPrinter prints one function into buf. It holds what write.rs reads
// off Cranelift's data-flow graph and cliff's plain data does not store:
// which block each instruction is in, and the reverse alias map.
type funcPrinter struct {
	opts Options
	f    *ir.Function
	buf  []byte

	// instBlock maps an Inst to the layout block holding it, or NoBlock;
	// instPos to its position in that block.
	instBlock []ir.Block
	instPos   []int32
	// aliases maps a value to the aliases whose destination it is, in value
	// order; nil when the function has no aliases. aliasDone marks the
	// aliases already printed.
	aliases   [][]ir.Value
	aliasDone []bool
	// indent is the instruction indentation: 4, or 36 when the function
	// has source locations or debug tags.
	indent int
}

func newFuncPrinter(o Options, f *ir.Function) *funcPrinter {
	p := &funcPrinter{}
	p.reset(o, f)
	return p
}

// reset prepares p to print f, reusing its tables (Module and File print
// many functions with one printer).
func (p *funcPrinter) reset(o Options, f *ir.Function) {
	p.opts, p.f, p.indent = o, f, 4
	p.instBlock = slices.Grow(p.instBlock[:0], len(f.Insts))[:len(f.Insts)]
	p.instPos = slices.Grow(p.instPos[:0], len(f.Insts))[:len(f.Insts)]
	for k := range p.instBlock {
		p.instBlock[k] = ir.NoBlock
	}
	for _, b := range f.Layout {
		if int(b) >= len(f.Blocks) {
			continue
		}
		for pos, i := range f.Blocks[b].Insts {
			if int(i) < len(f.Insts) {
				p.instBlock[i] = b
				p.instPos[i] = int32(pos)
				if d := &f.Insts[i]; !o.Compact && (len(d.DebugTags) > 0 || d.SrcLoc.IsSet()) {
					p.indent = 36
				}
			}
		}
	}
	p.aliases, p.aliasDone = nil, nil
	for v := range f.Values {
		vd := &f.Values[v]
		if vd.Kind != ir.DefAlias || int(vd.AliasOf) >= len(f.Values) {
			continue
		}
		if p.aliases == nil {
			p.aliases = make([][]ir.Value, len(f.Values))
			p.aliasDone = make([]bool, len(f.Values))
		}
		p.aliases[vd.AliasOf] = append(p.aliases[vd.AliasOf], ir.Value(v))
	}
}

// appendFunction appends f's text to buf.
func (p *funcPrinter) appendFunction(buf []byte, o Options, f *ir.Function) []byte {
	p.reset(o, f)
	p.buf = buf
	p.appendFunc()
	buf, p.buf, p.f = p.buf, nil, nil
	return buf
}

func (p *funcPrinter) str(s string) { p.buf = append(p.buf, s...) }
func (p *funcPrinter) spaces(n int) {
	for ; n > 0; n-- {
		p.buf = append(p.buf, ' ')
	}
}

func (p *funcPrinter) appendFunc() {
	f := p.f
	p.str("function ")
	if f.Name == "" {
		p.str("<missing name>")
	} else {
		p.str(f.Name)
	}
	p.appendSig(&f.Sig)
	p.str(" {\n")
	any := p.appendPreamble()
	for _, b := range f.Layout {
		if any {
			p.str("\n")
		}
		any = true
		p.appendBlock(b)
	}
	p.appendStrayAliases()
	p.str("}\n")
}

// appendSig writes `(i64, i32 uext) -> i64, f32 system_v`; the calling
// convention and its space are left out when the IR has none.
func (p *funcPrinter) appendSig(s *ir.Signature) {
	p.str("(")
	p.appendAbiParams(s.Params)
	p.str(")")
	if len(s.Returns) > 0 {
		p.str(" -> ")
		p.appendAbiParams(s.Returns)
	}
	if s.CallConv != ir.CallConvNone {
		p.str(" ")
		p.str(string(s.CallConv))
	}
}

func (p *funcPrinter) appendAbiParams(ps []ir.AbiParam) {
	for k, a := range ps {
		if k > 0 {
			p.str(", ")
		}
		p.appendType(a.Type)
		switch a.Ext {
		case ir.ExtNone:
		case ir.ExtUext, ir.ExtSext:
			p.str(" ")
			p.str(a.Ext.String())
		default:
			p.str(" <bad extension>")
		}
		if a.Purpose != "" {
			p.str(" ")
			p.str(string(a.Purpose))
		}
	}
}

// appendType writes a type; a dynamic vector type is written as the first
// declared dynamic type (`dt0`) that stands for it, since CLIF has no other
// spelling for it.
func (p *funcPrinter) appendType(t ir.Type) {
	switch {
	case t == ir.Invalid:
		p.str("<invalid type>")
		return
	case t.IsDynamic() && t.Valid():
		if dt, ok := p.dynTypeName(t); ok {
			p.ent("dt", uint32(dt))
			return
		}
	}
	if int(t) < len(typeNames) && typeNames[t] != "" {
		p.str(typeNames[t])
		return
	}
	p.str(t.String())
}

// typeNames caches the spelling of every valid type (Type uses 9 bits), so
// that printing a vector type does not build a string each time.
var typeNames = func() (names [1 << 9]string) {
	for t := range names {
		if ir.Type(t).Valid() {
			names[t] = ir.Type(t).String()
		}
	}
	return names
}()

func (p *funcPrinter) dynTypeName(t ir.Type) (ir.DynamicType, bool) {
	best, found := ir.NoDynType, false
	for _, d := range p.f.DynTypes {
		if ir.DynamicOf(d.Base) == t && (!found || d.Num < best) {
			best, found = d.Num, true
		}
	}
	return best, found
}

// sortedByNum returns the declarations ordered by number, the order in
// which Cranelift prints its entity maps; it copies only when needed.
func sortedByNum[T any](decls []T, num func(*T) uint32) []T {
	if slices.IsSortedFunc(decls, func(a, b T) int { return cmpU32(num(&a), num(&b)) }) {
		return decls
	}
	out := slices.Clone(decls)
	slices.SortStableFunc(out, func(a, b T) int { return cmpU32(num(&a), num(&b)) })
	return out
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// appendPreamble writes the entity declarations in write.rs order, dynamic
// types (which Cranelift does not print) after the global values their
// scales name. It reports whether it wrote anything.
func (p *funcPrinter) appendPreamble() bool {
	f := p.f
	start := len(p.buf)
	for _, d := range sortedByNum(f.DynStackSlots, func(d *ir.DynStackSlotDecl) uint32 { return uint32(d.Num) }) {
		p.decl("dss", uint32(d.Num))
		p.str(orMissing(d.Kind, "<missing slot kind>"))
		p.str(" ")
		p.ent("dt", uint32(d.Type))
		p.str("\n")
	}
	for _, d := range sortedByNum(f.StackSlots, func(d *ir.StackSlotDecl) uint32 { return uint32(d.Num) }) {
		p.decl("ss", uint32(d.Num))
		p.str(orMissing(d.Kind, "<missing slot kind>"))
		p.str(" ")
		p.buf = strconv.AppendUint(p.buf, uint64(d.Size), 10)
		if d.Align != 0 {
			p.str(", align = ")
			p.buf = strconv.AppendUint(p.buf, uint64(d.Align), 10)
		}
		if d.HasKey {
			p.str(", key = ")
			p.buf = strconv.AppendUint(p.buf, d.Key, 10)
		}
		p.str("\n")
	}
	for _, d := range sortedByNum(f.Regions, func(d *ir.RegionDecl) uint32 { return uint32(d.Num) }) {
		p.decl("region", uint32(d.Num))
		p.buf = strconv.AppendUint(p.buf, uint64(d.UserID), 10)
		p.str(" \"")
		p.str(d.Description)
		p.str("\"\n")
	}
	for _, d := range sortedByNum(f.GlobalValues, func(d *ir.GlobalValueDecl) uint32 { return uint32(d.Num) }) {
		p.decl("gv", uint32(d.Num))
		p.appendGlobalValue(&d)
		p.str("\n")
	}
	for _, d := range sortedByNum(f.DynTypes, func(d *ir.DynTypeDecl) uint32 { return uint32(d.Num) }) {
		p.decl("dt", uint32(d.Num))
		p.appendType(d.Base)
		p.str("*")
		p.ent("gv", uint32(d.Scale))
		p.str("\n")
	}
	for _, d := range sortedByNum(f.Sigs, func(d *ir.SigDecl) uint32 { return uint32(d.Num) }) {
		p.decl("sig", uint32(d.Num))
		p.appendSig(&d.Sig)
		p.str("\n")
	}
	for _, d := range sortedByNum(f.FuncRefs, func(d *ir.FuncRefDecl) uint32 { return uint32(d.Num) }) {
		p.decl("fn", uint32(d.Num))
		if d.Colocated {
			p.str("colocated ")
		}
		if d.Patchable {
			p.str("patchable ")
		}
		p.str(orMissing(d.Name, "<missing name>"))
		p.str(" ")
		p.ent("sig", uint32(d.Sig))
		p.str("\n")
	}
	for _, d := range sortedByNum(f.Constants, func(d *ir.ConstantDecl) uint32 { return uint32(d.Num) }) {
		p.decl("const", uint32(d.Num))
		p.buf = appendLEHex(p.buf, d.Bytes)
		p.str("\n")
	}
	if f.StackLimit != ir.NoGlobalValue {
		p.str("    stack_limit = ")
		p.ent("gv", uint32(f.StackLimit))
		p.str("\n")
	}
	return len(p.buf) > start
}

// decl starts a preamble line: `    ss3 = `.
func (p *funcPrinter) decl(prefix string, n uint32) {
	p.str("    ")
	p.ent(prefix, n)
	p.str(" = ")
}

// ent writes an entity reference, `v12` or `block3`; the invalid sentinel
// is written `v?`, as the ir String methods do.
func (p *funcPrinter) ent(prefix string, n uint32) {
	p.str(prefix)
	if n == ^uint32(0) {
		p.str("?")
		return
	}
	p.buf = strconv.AppendUint(p.buf, uint64(n), 10)
}

func orMissing(s, marker string) string {
	if s == "" {
		return marker
	}
	return s
}

// appendGlobalValue writes the right-hand side of a `gvN = ...` line.
func (p *funcPrinter) appendGlobalValue(d *ir.GlobalValueDecl) {
	switch d.Kind {
	case ir.GVVMContext:
		p.str("vmctx")
	case ir.GVLoad:
		p.str("load.")
		p.appendType(d.Type)
		p.str(d.Flags.String())
		p.str(" ")
		p.ent("gv", uint32(d.Base))
		p.buf = appendOffset32(p.buf, d.Offset)
	case ir.GVIAddImm:
		p.str("iadd_imm.")
		p.appendType(d.Type)
		p.str(" ")
		p.ent("gv", uint32(d.Base))
		p.str(", ")
		p.buf = appendImm64(p.buf, d.Offset)
	case ir.GVSymbol:
		p.str("symbol ")
		if d.Colocated {
			p.str("colocated ")
		}
		if d.TLS {
			p.str("tls ")
		}
		p.str(orMissing(d.Name, "<missing name>"))
		if d.Offset > 0 {
			p.str("+")
		}
		if d.Offset != 0 {
			p.buf = appendImm64(p.buf, d.Offset)
		}
	case ir.GVDynScaleConst:
		p.str("dyn_scale_target_const.")
		p.appendType(d.Type)
	default:
		p.str("<bad global value kind>")
	}
}

// appendBlock writes a block header, the aliases of its params and its
// instructions.
func (p *funcPrinter) appendBlock(b ir.Block) {
	f := p.f
	p.spaces(p.indent - 4)
	p.ent("block", uint32(b))
	if int(b) >= len(f.Blocks) || !f.Blocks[b].Used {
		p.str("<undefined>")
	}
	if int(b) >= len(f.Blocks) {
		p.str(":\n")
		return
	}
	bd := &f.Blocks[b]
	if len(bd.Params) > 0 {
		p.str("(")
		for k, v := range bd.Params {
			if k > 0 {
				p.str(", ")
			}
			p.appendValue(v)
			p.str(": ")
			if int(v) < len(f.Values) {
				p.appendType(f.Values[v].Type)
			} else {
				p.str("<invalid type>")
			}
		}
		p.str(")")
	}
	if bd.Cold {
		p.str(" cold")
	}
	p.str(":\n")
	for _, v := range bd.Params {
		p.appendAliasesOf(v, p.indent)
	}
	for _, i := range bd.Insts {
		if int(i) >= len(f.Insts) {
			p.spaces(p.indent)
			p.str("<bad inst ")
			p.ent("inst", uint32(i))
			p.str(">\n")
			continue
		}
		// The aliases of the results take the instruction's indentation
		// after its debug tags, as in write.rs.
		indent := p.appendLinePrefix(i, p.indent)
		p.appendInst(i)
		for _, r := range f.Insts[i].Results {
			p.appendAliasesOf(r, indent)
		}
	}
}

// appendLinePrefix writes what precedes instruction i on its line as
// write.rs does: the debug tags `<1, ss0> `, which eat into the
// indentation, then the source location `@0019 ` padded with spaces to
// what is left of it (or in full when longer). It returns the indentation
// left after the tags.
func (p *funcPrinter) appendLinePrefix(i ir.Inst, indent int) int {
	d := &p.f.Insts[i]
	if len(d.DebugTags) > 0 {
		start := len(p.buf)
		p.str("<")
		for k, t := range d.DebugTags {
			if k > 0 {
				p.str(", ")
			}
			switch t.Kind {
			case ir.TagUser:
				p.buf = strconv.AppendUint(p.buf, uint64(t.User), 10)
			case ir.TagStackSlot:
				p.ent("ss", uint32(t.Slot))
			default:
				p.str("<bad debug tag>")
			}
		}
		p.str("> ")
		indent = max(0, indent-(len(p.buf)-start))
	}
	start := len(p.buf)
	if d.SrcLoc.IsSet() {
		p.str(d.SrcLoc.String())
		p.str(" ")
	}
	p.spaces(indent - (len(p.buf) - start))
	return indent
}

// appendAliasesOf writes the `vA -> target` lines of every alias whose
// destination is target, then theirs, in write.rs's order.
func (p *funcPrinter) appendAliasesOf(target ir.Value, indent int) {
	if p.aliases == nil || int(target) >= len(p.aliases) {
		return
	}
	todo := []ir.Value{target}
	for len(todo) > 0 {
		t := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, a := range p.aliases[t] {
			if p.aliasDone[a] {
				continue
			}
			p.aliasDone[a] = true
			p.appendAliasLine(a, t, indent)
			todo = append(todo, a)
		}
	}
}

func (p *funcPrinter) appendAliasLine(a, t ir.Value, indent int) {
	p.spaces(indent)
	p.appendValue(a)
	p.str(" -> ")
	p.appendValue(t)
	p.str("\n")
}

// appendStrayAliases writes the aliases no printed definition reaches
// (alias cycles, destinations outside the layout) at the end of the last
// block, so that printing never drops them. Cranelift would not print
// them at all.
func (p *funcPrinter) appendStrayAliases() {
	for v := range p.f.Values {
		vd := &p.f.Values[v]
		if vd.Kind != ir.DefAlias || (p.aliasDone != nil && p.aliasDone[v]) {
			continue
		}
		p.appendAliasLine(ir.Value(v), vd.AliasOf, p.indent)
		if p.aliasDone != nil {
			p.aliasDone[v] = true
		}
	}
}

// appendValue writes a value reference; undefined values get a marker.
func (p *funcPrinter) appendValue(v ir.Value) {
	p.ent("v", uint32(v))
	if v != ir.NoValue && (int(v) >= len(p.f.Values) || p.f.Values[v].Kind == ir.DefNone) {
		p.str("<undefined>")
	}
}

// appendBlockName writes a block reference. A reference to a block the
// function does not define is written as is: it parses (Cranelift's parser
// accepts it, its verifier does not), so marking it would stop the text of
// a verifier test from round-tripping.
func (p *funcPrinter) appendBlockName(b ir.Block) { p.ent("block", uint32(b)) }
