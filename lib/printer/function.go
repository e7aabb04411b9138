package printer

import (
	"slices"
	"strconv"

	"cliff/lib/ir"
)

// funcPrinter prints one function. It holds what write.rs reads off
// Cranelift's data-flow graph and cliff's plain data does not store: which
// block each instruction is in, and the reverse alias map.
//
// Its methods take the output buffer and return it extended, like
// strconv's Append functions, rather than keep it in a field: a slice in
// a local variable stays in registers, where storing it back into the
// printer after every append would cost a GC write barrier each time.
type funcPrinter struct {
	f      *ir.Function
	values []ir.ValueData // f.Values, one load nearer
	// smallValues is values[:min(len(values), smallValues)]: the values
	// appendValue spells from the table.
	smallValues []ir.ValueData

	// constComments says whether to write the `  ; v1 = 42` comments
	// (the options ask for them); isConst then tells the values they name
	// (constSource is not nil), worked out once per value rather than for
	// every operand.
	constComments bool
	isConst       []bool
	// instAt tells where each Inst is in the layout.
	instAt []instPlace
	// hasAliases says whether the function has aliases; only then are
	// the alias tables set. aliasDone marks the aliases already printed.
	// The aliases of each destination form a list in flat tables, which a
	// reused printer refills without allocating: firstAlias[t] is the
	// first alias (in value order) whose destination is t, nextAlias[a]
	// the alias after a with the same destination; NoValue ends a list.
	hasAliases bool
	aliasDone  []bool
	firstAlias []ir.Value
	nextAlias  []ir.Value
	aliasTodo  []ir.Value // appendAliasesOf's work list
	// indent is the instruction indentation: 4, or 36 when the function
	// has source locations or debug tags.
	indent int
}

// instPlace is where an instruction is in the layout: its block and its
// position there, when placed (the zero instPlace is in no block).
type instPlace struct {
	block  ir.Block
	pos    int32
	placed bool
}

func newFuncPrinter(o Options, f *ir.Function) *funcPrinter {
	p := &funcPrinter{}
	p.reset(o, f)
	return p
}

// reset prepares p to print f, reusing its tables: one printer prints
// many functions (all of a module, and many modules from the pool).
func (p *funcPrinter) reset(o Options, f *ir.Function) {
	p.f, p.values, p.indent = f, f.Values, 4
	p.smallValues = f.Values[:min(len(f.Values), smallValues)]
	p.constComments = !o.NoConstComments && !o.Compact
	p.instAt = resize(p.instAt, len(f.Insts))
	clear(p.instAt)
	// Compact output keeps the indentation at 4 whatever the instructions
	// carry, so there is nothing to look for.
	wide := o.Compact
	at := p.instAt
	for _, b := range f.Layout {
		if int(b) >= len(f.Blocks) {
			continue
		}
		for pos, i := range f.Blocks[b].Insts {
			if int(i) >= len(at) {
				continue
			}
			at[i] = instPlace{block: b, pos: int32(pos), placed: true}
			if !wide && hasLinePrefix(&f.Insts[i]) {
				p.indent, wide = 36, true
			}
		}
	}
	p.resetAliases()
	if p.constComments {
		p.resetConstValues()
	}
}

// resetConstValues sets isConst[v] to whether constSource(v) is not nil,
// following aliases only for the values that are aliases.
func (p *funcPrinter) resetConstValues() {
	insts := p.f.Insts
	p.isConst = resize(p.isConst, len(p.values))
	for v := range p.values {
		vd := &p.values[v]
		switch vd.Kind {
		case ir.DefResult:
			p.isConst[v] = int(vd.Inst) < len(insts) && planOf(insts[vd.Inst].Op).constImm != ir.ImmNone
		case ir.DefAlias:
			p.isConst[v] = p.constSource(ir.Value(v)) != nil
		default:
			p.isConst[v] = false
		}
	}
}

// resize returns s with length n, reusing its array when large enough; the
// contents are left to the caller to set.
func resize[T any](s []T, n int) []T { return slices.Grow(s[:0], n)[:n] }

// hasLinePrefix reports whether an instruction has debug tags or a source
// location, which widen the indentation of the whole function.
func hasLinePrefix(d *ir.InstData) bool { return len(d.DebugTags) > 0 || d.SrcLoc.IsSet() }

// resetAliases builds the reverse alias map of p.f, if it has aliases.
func (p *funcPrinter) resetAliases() {
	f := p.f
	p.hasAliases = false
	for k := range f.Values {
		if f.Values[k].Kind == ir.DefAlias {
			p.hasAliases = true
			break
		}
	}
	if !p.hasAliases {
		return
	}
	n := len(f.Values)
	p.aliasDone = resize(p.aliasDone, n)
	p.firstAlias = resize(p.firstAlias, n)
	p.nextAlias = resize(p.nextAlias, n)
	for v := range n {
		p.aliasDone[v], p.firstAlias[v], p.nextAlias[v] = false, ir.NoValue, ir.NoValue
	}
	// Prepending in reverse value order leaves each list in value order.
	for v := n - 1; v >= 0; v-- {
		vd := &f.Values[v]
		if vd.Kind == ir.DefAlias && int(vd.AliasOf) < n {
			p.nextAlias[v] = p.firstAlias[vd.AliasOf]
			p.firstAlias[vd.AliasOf] = ir.Value(v)
		}
	}
}

// appendFunction appends f's text to buf.
func (p *funcPrinter) appendFunction(buf []byte, o Options, f *ir.Function) []byte {
	p.reset(o, f)
	buf = p.appendFunc(buf)
	p.f, p.values, p.smallValues = nil, nil, nil // not kept alive by a pooled printer
	return buf
}

// appendSpaces writes n spaces (none when n <= 0), in fixed 16-byte
// appends (two stores each) cut back at the end, rather than a copy of
// varying length: nearly every line starts with some.
func appendSpaces(buf []byte, n int) []byte {
	const blanks = "                "
	for ; n >= len(blanks); n -= len(blanks) {
		buf = append(buf, blanks...)
	}
	if n > 0 {
		buf = append(buf, blanks...)
		buf = buf[:len(buf)-len(blanks)+n]
	}
	return buf
}

func (p *funcPrinter) appendFunc(buf []byte) []byte {
	f := p.f
	buf = append(buf, "function "...)
	buf = append(buf, orMissing(f.Name, "<missing name>")...)
	buf = p.appendSig(buf, &f.Sig)
	buf = append(buf, " {\n"...)
	start := len(buf)
	buf = p.appendPreamble(buf)
	for k, b := range f.Layout {
		if k > 0 || len(buf) > start {
			buf = append(buf, '\n')
		}
		buf = p.appendBlock(buf, b)
	}
	buf = p.appendStrayAliases(buf)
	return append(buf, "}\n"...)
}

// appendSig writes `(i64, i32 uext) -> i64, f32 system_v`; the calling
// convention and its space are left out when the IR has none.
func (p *funcPrinter) appendSig(buf []byte, s *ir.Signature) []byte {
	buf = append(buf, '(')
	buf = p.appendAbiParams(buf, s.Params)
	buf = append(buf, ')')
	if len(s.Returns) > 0 {
		buf = append(buf, " -> "...)
		buf = p.appendAbiParams(buf, s.Returns)
	}
	if s.CallConv != ir.CallConvNone {
		buf = append(buf, ' ')
		buf = append(buf, s.CallConv...)
	}
	return buf
}

func (p *funcPrinter) appendAbiParams(buf []byte, ps []ir.AbiParam) []byte {
	for k, a := range ps {
		if k > 0 {
			buf = append(buf, ", "...)
		}
		buf = p.appendType(buf, a.Type)
		switch a.Ext {
		case ir.ExtNone:
		case ir.ExtUext, ir.ExtSext:
			buf = append(buf, ' ')
			buf = append(buf, a.Ext.String()...)
		default:
			buf = append(buf, " <bad extension>"...)
		}
		if a.Purpose != "" {
			buf = append(buf, ' ')
			buf = append(buf, a.Purpose...)
		}
	}
	return buf
}

// appendType writes a type; a dynamic vector type is written as the first
// declared dynamic type (`dt0`) that stands for it, since CLIF has no other
// spelling for it.
func (p *funcPrinter) appendType(buf []byte, t ir.Type) []byte {
	if name := staticTypeName(t); name != nil {
		return name.appendTo(buf)
	}
	switch {
	case t == ir.Invalid:
		return append(buf, "<invalid type>"...)
	case t.IsDynamic() && t.Valid():
		if dt, ok := p.dynTypeName(t); ok {
			return appendEnt(buf, "dt", uint32(dt))
		}
	}
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return append(buf, typeNames[t]...)
	}
	return append(buf, t.String()...)
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

// staticTypeNames holds the names of typeNames except the dynamic types,
// whose spelling depends on the function's declarations: every other type
// prints straight from this table, which keeps them as shortTexts since
// nearly every instruction prints a type or two.
var staticTypeNames = func() (names [1 << 9]shortText) {
	for t, name := range typeNames {
		if !ir.Type(t).IsDynamic() {
			names[t] = newShortText(name)
		}
	}
	return names
}()

// staticTypeName returns the spelling of t in staticTypeNames, or nil
// when t has none there (invalid and dynamic types). appendInst uses it to
// write the `.type` suffix, which most instructions have, without a call.
func staticTypeName(t ir.Type) *shortText {
	if name := &staticTypeNames[t%(1<<9)]; int(t) < len(staticTypeNames) && name.n > 0 {
		return name
	}
	return nil
}

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
	sorted := true
	for k := 1; k < len(decls) && sorted; k++ {
		sorted = num(&decls[k-1]) <= num(&decls[k])
	}
	if sorted {
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
// scales name.
func (p *funcPrinter) appendPreamble(buf []byte) []byte {
	f := p.f
	for _, d := range sortedByNum(f.DynStackSlots, func(d *ir.DynStackSlotDecl) uint32 { return uint32(d.Num) }) {
		buf = appendDecl(buf, "dss", uint32(d.Num))
		buf = append(buf, orMissing(d.Kind, "<missing slot kind>")...)
		buf = append(buf, ' ')
		buf = appendEnt(buf, "dt", uint32(d.Type))
		buf = append(buf, '\n')
	}
	for _, d := range sortedByNum(f.StackSlots, func(d *ir.StackSlotDecl) uint32 { return uint32(d.Num) }) {
		buf = appendDecl(buf, "ss", uint32(d.Num))
		buf = append(buf, orMissing(d.Kind, "<missing slot kind>")...)
		buf = append(buf, ' ')
		buf = strconv.AppendUint(buf, uint64(d.Size), 10)
		if d.Align != 0 {
			buf = append(buf, ", align = "...)
			buf = strconv.AppendUint(buf, uint64(d.Align), 10)
		}
		if d.HasKey {
			buf = append(buf, ", key = "...)
			buf = strconv.AppendUint(buf, d.Key, 10)
		}
		buf = append(buf, '\n')
	}
	for _, d := range sortedByNum(f.Regions, func(d *ir.RegionDecl) uint32 { return uint32(d.Num) }) {
		buf = appendDecl(buf, "region", uint32(d.Num))
		buf = strconv.AppendUint(buf, uint64(d.UserID), 10)
		buf = append(buf, " \""...)
		buf = append(buf, d.Description...)
		buf = append(buf, "\"\n"...)
	}
	for _, d := range sortedByNum(f.GlobalValues, func(d *ir.GlobalValueDecl) uint32 { return uint32(d.Num) }) {
		buf = appendDecl(buf, "gv", uint32(d.Num))
		buf = p.appendGlobalValue(buf, &d)
		buf = append(buf, '\n')
	}
	for _, d := range sortedByNum(f.DynTypes, func(d *ir.DynTypeDecl) uint32 { return uint32(d.Num) }) {
		buf = appendDecl(buf, "dt", uint32(d.Num))
		buf = p.appendType(buf, d.Base)
		buf = append(buf, '*')
		buf = appendEnt(buf, "gv", uint32(d.Scale))
		buf = append(buf, '\n')
	}
	for _, d := range sortedByNum(f.Sigs, func(d *ir.SigDecl) uint32 { return uint32(d.Num) }) {
		buf = appendDecl(buf, "sig", uint32(d.Num))
		buf = p.appendSig(buf, &d.Sig)
		buf = append(buf, '\n')
	}
	for _, d := range sortedByNum(f.FuncRefs, func(d *ir.FuncRefDecl) uint32 { return uint32(d.Num) }) {
		buf = appendDecl(buf, "fn", uint32(d.Num))
		if d.Colocated {
			buf = append(buf, "colocated "...)
		}
		if d.Patchable {
			buf = append(buf, "patchable "...)
		}
		buf = append(buf, orMissing(d.Name, "<missing name>")...)
		buf = append(buf, ' ')
		buf = appendEnt(buf, "sig", uint32(d.Sig))
		buf = append(buf, '\n')
	}
	for _, d := range sortedByNum(f.Constants, func(d *ir.ConstantDecl) uint32 { return uint32(d.Num) }) {
		buf = appendDecl(buf, "const", uint32(d.Num))
		buf = appendLEHex(buf, d.Bytes)
		buf = append(buf, '\n')
	}
	if f.StackLimit != ir.NoGlobalValue {
		buf = append(buf, "    stack_limit = "...)
		buf = appendEnt(buf, "gv", uint32(f.StackLimit))
		buf = append(buf, '\n')
	}
	return buf
}

// appendDecl starts a preamble line: `    ss3 = `.
func appendDecl(buf []byte, prefix string, n uint32) []byte {
	buf = append(buf, "    "...)
	buf = appendEnt(buf, prefix, n)
	return append(buf, " = "...)
}

// appendEnt writes an entity reference, `v12` or `block3`; the invalid
// sentinel is written `v?`, as the ir String methods do.
func appendEnt(buf []byte, prefix string, n uint32) []byte {
	buf = append(buf, prefix...)
	return appendEntityNum(buf, n)
}

func orMissing(s, marker string) string {
	if s == "" {
		return marker
	}
	return s
}

// appendGlobalValue writes the right-hand side of a `gvN = ...` line.
func (p *funcPrinter) appendGlobalValue(buf []byte, d *ir.GlobalValueDecl) []byte {
	switch d.Kind {
	case ir.GVVMContext:
		buf = append(buf, "vmctx"...)
	case ir.GVLoad:
		buf = append(buf, "load."...)
		buf = p.appendType(buf, d.Type)
		buf = appendMemFlags(buf, d.Flags)
		buf = append(buf, ' ')
		buf = appendEnt(buf, "gv", uint32(d.Base))
		buf = appendOffset32(buf, d.Offset)
	case ir.GVIAddImm:
		buf = append(buf, "iadd_imm."...)
		buf = p.appendType(buf, d.Type)
		buf = append(buf, ' ')
		buf = appendEnt(buf, "gv", uint32(d.Base))
		buf = append(buf, ", "...)
		buf = appendImm64(buf, d.Offset)
	case ir.GVSymbol:
		buf = append(buf, "symbol "...)
		if d.Colocated {
			buf = append(buf, "colocated "...)
		}
		if d.TLS {
			buf = append(buf, "tls "...)
		}
		buf = append(buf, orMissing(d.Name, "<missing name>")...)
		if d.Offset > 0 {
			buf = append(buf, '+')
		}
		if d.Offset != 0 {
			buf = appendImm64(buf, d.Offset)
		}
	case ir.GVDynScaleConst:
		buf = append(buf, "dyn_scale_target_const."...)
		buf = p.appendType(buf, d.Type)
	default:
		buf = append(buf, "<bad global value kind>"...)
	}
	return buf
}

// appendBlock writes a block header, the aliases of its params and its
// instructions.
func (p *funcPrinter) appendBlock(buf []byte, b ir.Block) []byte {
	f := p.f
	buf = appendSpaces(buf, p.indent-4)
	buf = appendEnt(buf, "block", uint32(b))
	if int(b) >= len(f.Blocks) || !f.Blocks[b].Used {
		buf = append(buf, "<undefined>"...)
	}
	if int(b) >= len(f.Blocks) {
		return append(buf, ":\n"...)
	}
	bd := &f.Blocks[b]
	if len(bd.Params) > 0 {
		buf = append(buf, '(')
		for k, v := range bd.Params {
			if k > 0 {
				buf = append(buf, ", "...)
			}
			buf = p.appendValue(buf, v)
			buf = append(buf, ": "...)
			if int(v) < len(f.Values) {
				buf = p.appendType(buf, f.Values[v].Type)
			} else {
				buf = append(buf, "<invalid type>"...)
			}
		}
		buf = append(buf, ')')
	}
	if bd.Cold {
		buf = append(buf, " cold"...)
	}
	buf = append(buf, ":\n"...)
	for _, v := range bd.Params {
		buf = p.appendAliasesOf(buf, v, p.indent)
	}
	for _, i := range bd.Insts {
		if int(i) >= len(f.Insts) {
			buf = appendSpaces(buf, p.indent)
			buf = append(buf, "<bad inst "...)
			buf = appendEnt(buf, "inst", uint32(i))
			buf = append(buf, ">\n"...)
			continue
		}
		d := &f.Insts[i]
		// The aliases of the results take the instruction's indentation
		// after its debug tags, as in write.rs.
		indent := p.indent
		if hasLinePrefix(d) {
			buf, indent = p.appendLinePrefix(buf, d, indent)
		} else {
			buf = appendSpaces(buf, indent)
		}
		buf = p.appendInst(buf, i, d)
		if p.hasAliases {
			for _, r := range d.Results {
				buf = p.appendAliasesOf(buf, r, indent)
			}
		}
	}
	return buf
}

// appendLinePrefix writes what precedes instruction d on its line as
// write.rs does: the debug tags `<1, ss0> `, which eat into the
// indentation, then the source location `@0019 ` padded with spaces to
// what is left of it (or in full when longer). It also returns the
// indentation left after the tags.
func (p *funcPrinter) appendLinePrefix(buf []byte, d *ir.InstData, indent int) ([]byte, int) {
	if x := d.SrcLoc.Bits(); len(d.DebugTags) == 0 && x <= 0xffff && d.SrcLoc.IsSet() {
		// The usual prefix, `@0019 `, in one append.
		const digits = "0123456789abcdef"
		buf = append(buf, '@', digits[x>>12&0xf], digits[x>>8&0xf], digits[x>>4&0xf], digits[x&0xf], ' ')
		return appendSpaces(buf, indent-6), indent
	}
	if len(d.DebugTags) > 0 {
		start := len(buf)
		buf = appendDebugTags(buf, d.DebugTags)
		indent = max(0, indent-(len(buf)-start))
	}
	start := len(buf)
	if d.SrcLoc.IsSet() {
		buf = appendSourceLoc(buf, d.SrcLoc)
		buf = append(buf, ' ')
	}
	if pad := indent - (len(buf) - start); pad > 0 {
		buf = appendSpaces(buf, pad)
	}
	return buf, indent
}

// appendDebugTags writes `<1, ss0> `.
func appendDebugTags(buf []byte, tags []ir.DebugTag) []byte {
	buf = append(buf, '<')
	for k, t := range tags {
		if k > 0 {
			buf = append(buf, ", "...)
		}
		switch t.Kind {
		case ir.TagUser:
			buf = strconv.AppendUint(buf, uint64(t.User), 10)
		case ir.TagStackSlot:
			buf = appendEnt(buf, "ss", uint32(t.Slot))
		default:
			buf = append(buf, "<bad debug tag>"...)
		}
	}
	return append(buf, "> "...)
}

// appendAliasesOf writes the `vA -> target` lines of every alias whose
// destination is target, then theirs, in write.rs's order.
func (p *funcPrinter) appendAliasesOf(buf []byte, target ir.Value, indent int) []byte {
	if !p.hasAliases || int(target) >= len(p.aliasDone) {
		return buf
	}
	todo := append(p.aliasTodo[:0], target)
	for len(todo) > 0 {
		t := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for a := p.firstAlias[t]; a != ir.NoValue; a = p.nextAlias[a] {
			if p.aliasDone[a] {
				continue
			}
			p.aliasDone[a] = true
			buf = p.appendAliasLine(buf, a, t, indent)
			todo = append(todo, a)
		}
	}
	p.aliasTodo = todo
	return buf
}

func (p *funcPrinter) appendAliasLine(buf []byte, a, t ir.Value, indent int) []byte {
	buf = appendSpaces(buf, indent)
	buf = p.appendValue(buf, a)
	buf = append(buf, " -> "...)
	buf = p.appendValue(buf, t)
	return append(buf, '\n')
}

// appendStrayAliases writes the aliases no printed definition reaches
// (alias cycles, destinations outside the layout) at the end of the last
// block, so that printing never drops them. Cranelift would not print
// them at all.
func (p *funcPrinter) appendStrayAliases(buf []byte) []byte {
	if !p.hasAliases {
		return buf
	}
	for v := range p.f.Values {
		vd := &p.f.Values[v]
		if vd.Kind != ir.DefAlias || p.aliasDone[v] {
			continue
		}
		buf = p.appendAliasLine(buf, ir.Value(v), vd.AliasOf, p.indent)
		p.aliasDone[v] = true
	}
	return buf
}

// appendValue writes a value reference; undefined values get a marker.
// Every operand and result goes through it, so the usual case (a defined
// value numbered below smallValues) comes first and copies the name from a
// table.
func (p *funcPrinter) appendValue(buf []byte, v ir.Value) []byte {
	if s := p.spellings(v); s != nil {
		return s.name.appendTo(buf)
	}
	return p.appendOtherValue(buf, v)
}

// spellings returns the spellings of v in valueNames when they are what
// appendValue writes (v is defined and numbered below smallValues), else
// nil. The loops that write most values (appendValues, appendBlockCall)
// use it to do appendValue's work without a call, as the compiler will
// not inline appendValue itself.
func (p *funcPrinter) spellings(v ir.Value) *valueSpellings {
	if int(v) < len(p.smallValues) && p.smallValues[v].Kind != ir.DefNone {
		return &valueNames[v%smallValues]
	}
	return nil
}

// appendOtherValue is appendValue's case for large numbers, the invalid
// sentinel and undefined values, apart so that the usual case runs in a
// smaller frame (1% of the printing time).
func (p *funcPrinter) appendOtherValue(buf []byte, v ir.Value) []byte {
	buf = appendEnt(buf, "v", uint32(v))
	if v != ir.NoValue && (int(v) >= len(p.values) || p.values[v].Kind == ir.DefNone) {
		buf = append(buf, "<undefined>"...)
	}
	return buf
}

// appendBlockName writes a block reference. A reference to a block the
// function does not define is written as is: it parses (Cranelift's parser
// accepts it, its verifier does not), so marking it would stop the text of
// a verifier test from round-tripping.
func appendBlockName(buf []byte, b ir.Block) []byte { return appendEnt(buf, "block", uint32(b)) }
