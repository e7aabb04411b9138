package verify

import "cliff/lib/ir"

// Rules: what the opcode table says about each opcode, worked out once.
// cliff-gen verifies every case it makes, and walking an opcode's operand
// list, its format's immediates and its type sets again for every
// instruction was most of the verifier's time. The table is the only
// source: nothing here names an opcode.

// opRules are the checks of one opcode.
type opRules struct {
	info   *ir.OpcodeInfo // nil for OpInvalid and opcodes past the table
	format *ir.FormatInfo
	flags  ir.OpFlags

	// ctrlSet is the set the controlling type must be in, nil when the
	// opcode has none (monomorphic, or no type variables).
	ctrlSet *typeSet
	// resultIsCtrl: the first result has the controlling type itself, so
	// it tells the controlling type (see ctrlType).
	resultIsCtrl bool
	// ins constrain the fixed value operands the table types, up to the
	// first typed by a signature; outs the results in order, sigRule
	// standing for the results a signature types.
	ins, outs []typeRule
	// fixedOuts counts the results outs types itself, sigOuts the runs of
	// results typed by the callee's signature.
	fixedOuts, sigOuts int

	// From the format: the immediates checkEntityRefs looks at, in text
	// order; the block calls (dests, and more may follow for a jump
	// table); whether it has an exception table (try_call); how many raw
	// block references (get_exception_handler_address) it has.
	entityImms []ir.ImmKind
	dests      int
	moreDests  bool
	tryCall    bool
	rawBlocks  int
	// special are the checks the table cannot express (special.go).
	special []instCheck
	// signature: a signature types some operands or results (calls,
	// return), so that checkCallSignature has work.
	signature bool
}

// instCheck is a check of one instruction, d being its data.
type instCheck func(v *verifier, inst ir.Inst, d *ir.InstData)

// typeRuleKind says how an operand or result is typed.
type typeRuleKind uint8

const (
	anyRule   typeRuleKind = iota // not constrained by the table
	fixedRule                     // exactly want
	setRule                       // a free type variable: a member of set
	ctrlRule                      // the controlling type, derived by derive
	sigRule                       // results: typed by the callee's signature
)

// typeRule is the table's constraint on one operand or result, before the
// controlling type is known.
type typeRule struct {
	kind   typeRuleKind
	want   ir.Type   // fixedRule
	set    *typeSet  // setRule
	derive ir.Derive // ctrlRule
	// derived is the type derive gives for each controlling type (Invalid
	// where it gives none): ctrlRule, but for DeriveNarrower and
	// DeriveWider, which admit several types.
	derived *[typeSpace]ir.Type
}

// typeSet is an ir.TypeSet with its membership precomputed for every
// type, so that a check is one bit test instead of decoding the type.
type typeSet struct {
	set  ir.TypeSet
	bits ir.TypeBits
}

// typeSpace bounds the valid types: an ir.Type is 9 bits (lane kind, log2
// lanes, dynamic), and larger values are not types (TestTypeSpace).
const typeSpace = ir.TypeSpace

func newTypeSet(s ir.TypeSet) *typeSet {
	return &typeSet{set: s, bits: s.Bits()}
}

// contains is TypeSet.Contains.
func (s *typeSet) contains(t ir.Type) bool {
	return s.bits.Has(t)
}

// validTypes is Type.Valid by type, for the checks of every result and
// param (Valid is too large for the compiler to inline).
var validTypes = func() (valid [typeSpace]bool) {
	for t := range typeSpace {
		valid[t] = ir.Type(t).Valid()
	}
	return valid
}()

// validType is Type.Valid.
func validType(t ir.Type) bool { return t < typeSpace && validTypes[t] }

// rulesByOpcode holds the rules of every opcode in the table, OpInvalid's
// (the zero opRules) included. It is set by init, as the checks it lists
// look rules up themselves.
var rulesByOpcode []opRules

func init() { rulesByOpcode = buildRules() }

// rulesOf returns the rules of op; an opcode the table does not have gets
// OpInvalid's, whose info is nil.
func rulesOf(op ir.Opcode) *opRules {
	if int(op) < len(rulesByOpcode) {
		return &rulesByOpcode[op]
	}
	return &rulesByOpcode[ir.OpInvalid]
}

func buildRules() []opRules {
	ops := ir.Opcodes()
	rules := make([]opRules, len(ops)+1)
	var tb tables
	for _, op := range ops {
		info := op.Info()
		if info.Name == "" {
			continue
		}
		r := &rules[op]
		r.info, r.format, r.flags = info, op.Format(), info.Flags
		if info.Polymorphic && len(info.TypeVars) > 0 {
			r.ctrlSet = tb.set(info.TypeVars[0].Set)
		}
		r.resultIsCtrl = len(info.Outs) > 0 && info.Outs[0].Kind == ir.OperandTypeVar &&
			info.Outs[0].TypeVar == 0 && info.Outs[0].Derive == ir.DeriveNone
		for k := range min(r.format.Values, len(info.Ins)) {
			o := &info.Ins[k]
			if o.Kind == ir.OperandVarargs {
				break
			}
			r.ins = append(r.ins, tb.rule(info, o))
		}
		for k := range info.Outs {
			o := &info.Outs[k]
			if o.Kind == ir.OperandVarargs {
				r.outs = append(r.outs, typeRule{kind: sigRule})
				r.sigOuts++
				continue
			}
			r.outs = append(r.outs, tb.rule(info, o))
			r.fixedOuts++
		}
		r.addFormat()
		r.special = specialChecksOf(op)
		r.signature = hasSignature(info)
	}
	return rules
}

// tables makes the type sets and derivation tables of the rules, one of
// each kind, shared by the rules that use it.
type tables struct {
	sets    map[ir.TypeSet]*typeSet
	derived map[ir.Derive]*[typeSpace]ir.Type
}

func (tb *tables) set(s ir.TypeSet) *typeSet {
	if tb.sets[s] == nil {
		if tb.sets == nil {
			tb.sets = make(map[ir.TypeSet]*typeSet)
		}
		tb.sets[s] = newTypeSet(s)
	}
	return tb.sets[s]
}

// derivation returns d applied to every valid type (nil for
// DeriveNarrower and DeriveWider, which admit several types).
func (tb *tables) derivation(d ir.Derive) *[typeSpace]ir.Type {
	if d == ir.DeriveNarrower || d == ir.DeriveWider {
		return nil
	}
	if tb.derived[d] == nil {
		if tb.derived == nil {
			tb.derived = make(map[ir.Derive]*[typeSpace]ir.Type)
		}
		table := new([typeSpace]ir.Type)
		for t := range typeSpace {
			if validType(ir.Type(t)) {
				table[t] = d.Apply(ir.Type(t))
			}
		}
		tb.derived[d] = table
	}
	return tb.derived[d]
}

// rule classifies a table operand other than varargs (Cranelift's
// operand constraints).
func (tb *tables) rule(info *ir.OpcodeInfo, o *ir.Operand) typeRule {
	switch o.Kind {
	case ir.OperandFixed:
		return typeRule{kind: fixedRule, want: o.Type}
	case ir.OperandTypeVar:
		switch {
		case o.TypeVar < 0 || o.TypeVar >= len(info.TypeVars):
			return typeRule{}
		case o.TypeVar != 0 || !info.Polymorphic:
			return typeRule{kind: setRule, set: tb.set(info.TypeVars[o.TypeVar].Set)}
		}
		return typeRule{kind: ctrlRule, derive: o.Derive, derived: tb.derivation(o.Derive)}
	}
	return typeRule{}
}

// addFormat reads what the checks need from the format's immediates.
func (r *opRules) addFormat() {
	for _, k := range r.format.Imms {
		switch k {
		case ir.ImmBlockCall:
			r.dests++
		case ir.ImmExceptionTable:
			r.dests++
			r.tryCall = true
		case ir.ImmJumpTable:
			r.dests++
			r.moreDests = true
		case ir.ImmRawBlock:
			r.rawBlocks++
		}
		if int(k) < len(immChecks) && immChecks[k] != nil {
			r.entityImms = append(r.entityImms, k)
		}
	}
}
