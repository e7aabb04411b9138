package ir

import (
	"strconv"
	"strings"
)

// IntCC is an integer comparison condition (icmp).
type IntCC uint8

const (
	IntEq IntCC = iota
	IntNe
	IntSlt
	IntSge
	IntSgt
	IntSle
	IntUlt
	IntUge
	IntUgt
	IntUle
	numIntCC
)

var intCCNames = [numIntCC]string{"eq", "ne", "slt", "sge", "sgt", "sle", "ult", "uge", "ugt", "ule"}

func (c IntCC) String() string {
	if c < numIntCC {
		return intCCNames[c]
	}
	return "<bad intcc>"
}

// IntCCs lists every integer condition.
func IntCCs() []IntCC {
	r := make([]IntCC, numIntCC)
	for i := range r {
		r[i] = IntCC(i)
	}
	return r
}

// ParseIntCC reads an integer condition name.
func ParseIntCC(s string) (IntCC, bool) {
	for i, n := range intCCNames {
		if n == s {
			return IntCC(i), true
		}
	}
	return 0, false
}

// FloatCC is a float comparison condition (fcmp).
type FloatCC uint8

const (
	FloatOrd FloatCC = iota
	FloatUno
	FloatEq
	FloatNe
	FloatOne
	FloatUeq
	FloatLt
	FloatLe
	FloatGt
	FloatGe
	FloatUlt
	FloatUle
	FloatUgt
	FloatUge
	numFloatCC
)

var floatCCNames = [numFloatCC]string{"ord", "uno", "eq", "ne", "one", "ueq", "lt", "le", "gt", "ge", "ult", "ule", "ugt", "uge"}

func (c FloatCC) String() string {
	if c < numFloatCC {
		return floatCCNames[c]
	}
	return "<bad floatcc>"
}

// FloatCCs lists every float condition.
func FloatCCs() []FloatCC {
	r := make([]FloatCC, numFloatCC)
	for i := range r {
		r[i] = FloatCC(i)
	}
	return r
}

// ParseFloatCC reads a float condition name.
func ParseFloatCC(s string) (FloatCC, bool) {
	for i, n := range floatCCNames {
		if n == s {
			return FloatCC(i), true
		}
	}
	return 0, false
}

// AtomicRmwOp is the operation of atomic_rmw.
type AtomicRmwOp uint8

const (
	RmwAdd AtomicRmwOp = iota
	RmwSub
	RmwAnd
	RmwNand
	RmwOr
	RmwXor
	RmwXchg
	RmwUmin
	RmwUmax
	RmwSmin
	RmwSmax
	numRmwOps
)

var rmwNames = [numRmwOps]string{"add", "sub", "and", "nand", "or", "xor", "xchg", "umin", "umax", "smin", "smax"}

func (o AtomicRmwOp) String() string {
	if o < numRmwOps {
		return rmwNames[o]
	}
	return "<bad rmw op>"
}

// ParseAtomicRmwOp reads an atomic_rmw operation name.
func ParseAtomicRmwOp(s string) (AtomicRmwOp, bool) {
	for i, n := range rmwNames {
		if n == s {
			return AtomicRmwOp(i), true
		}
	}
	return 0, false
}

// TrapCode is a trap reason. The zero TrapCode is "none" (no trap); the
// built-in codes follow; user codes are TrapUser+N for `userN` (N >= 1).
type TrapCode uint16

const (
	TrapNone TrapCode = iota
	TrapStackOverflow
	TrapHeapOutOfBounds
	TrapIntegerOverflow
	TrapIntegerDivisionByZero
	TrapBadConversionToInteger
	// TrapUser is the base of user codes: userN is TrapUser + N.
	TrapUser
)

var trapNames = map[TrapCode]string{
	TrapStackOverflow:          "stk_ovf",
	TrapHeapOutOfBounds:        "heap_oob",
	TrapIntegerOverflow:        "int_ovf",
	TrapIntegerDivisionByZero:  "int_divz",
	TrapBadConversionToInteger: "bad_toint",
}

func (t TrapCode) String() string {
	if t == TrapNone {
		return "none"
	}
	if t > TrapUser {
		return "user" + strconv.Itoa(int(t-TrapUser))
	}
	if n, ok := trapNames[t]; ok {
		return n
	}
	return "<bad trap code>"
}

// ParseTrapCode reads a trap code name (stk_ovf, heap_oob, int_ovf,
// int_divz, bad_toint, userN with N in 1..255).
func ParseTrapCode(s string) (TrapCode, bool) {
	for c, n := range trapNames {
		if n == s {
			return c, true
		}
	}
	if rest, ok := strings.CutPrefix(s, "user"); ok {
		n, err := strconv.Atoi(rest)
		if err == nil && n >= 1 && n <= 255 && strconv.Itoa(n) == rest {
			return TrapUser + TrapCode(n), true
		}
	}
	return 0, false
}

// Endianness is a memory access's explicit byte order.
type Endianness uint8

const (
	EndianNative Endianness = iota
	EndianLittle
	EndianBig
)

// MemFlags are the flags of a memory access. The zero value is Cranelift's
// default: may trap with heap_oob, native endianness, nothing else.
type MemFlags struct {
	// Trap is the trap code of a faulting access; TrapNone is the
	// default heap_oob. NoTrap is `notrap`.
	NoTrap   bool
	Trap     TrapCode // explicit trap code other than heap_oob; TrapNone for the default
	Aligned  bool
	Readonly bool
	CanMove  bool
	Endian   Endianness
	Region   AliasRegion // meaningful only with HasRegion
	// HasRegion distinguishes region0 from "no region" in the zero value.
	HasRegion bool
}

// String spells the flags as Cranelift prints them, each with a leading
// space: " notrap aligned little region0".
func (f MemFlags) String() string {
	var b strings.Builder
	switch {
	case f.NoTrap:
		b.WriteString(" notrap")
	case f.Trap != TrapNone && f.Trap != TrapHeapOutOfBounds:
		b.WriteString(" " + f.Trap.String())
	}
	if f.Aligned {
		b.WriteString(" aligned")
	}
	if f.Readonly {
		b.WriteString(" readonly")
	}
	if f.CanMove {
		b.WriteString(" can_move")
	}
	switch f.Endian {
	case EndianBig:
		b.WriteString(" big")
	case EndianLittle:
		b.WriteString(" little")
	}
	if f.HasRegion {
		b.WriteString(" " + f.Region.String())
	}
	return b.String()
}
