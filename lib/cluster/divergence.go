package cluster

import (
	"slices"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/parser"
)

// describeDifference says how a failing side's output on the verdict's
// input differs from the expected side's, in words that do not depend on
// the values: for traps the trap code and whether the expected side
// trapped too;
// for values, per output that differs its type and kind of difference
// ("sign", "nan", "value"; for vectors "one lane …", "every lane …",
// "some lanes"), e.g. "f64 sign, i8x16 one lane value".
func describeDifference(want, got string) string {
	wantTrap, wantIsTrap := strings.CutPrefix(want, "trap ")
	gotTrap, gotIsTrap := strings.CutPrefix(got, "trap ")
	switch {
	case gotIsTrap && wantIsTrap:
		return "trap " + gotTrap + ", expected trap " + wantTrap
	case gotIsTrap:
		return "unexpected trap " + gotTrap
	case wantIsTrap:
		return "no trap, expected trap " + wantTrap
	case got == "" || want == "":
		return "no output"
	}
	wantVals, gotVals := strings.Split(want, ", "), strings.Split(got, ", ")
	if len(wantVals) != len(gotVals) {
		return "a different number of outputs"
	}
	var kinds []string
	for i := range wantVals {
		if wantVals[i] == gotVals[i] {
			continue
		}
		k := valueDifference(wantVals[i], gotVals[i])
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return "outputs differ"
	}
	return strings.Join(kinds, ", ")
}

// valueDifference classifies the difference between two typed values as
// canon.Text writes them ("f32 +NaN", "i8x16 [1 2 …]").
func valueDifference(want, got string) string {
	wantType, wantText, _ := strings.Cut(want, " ")
	gotType, gotText, _ := strings.Cut(got, " ")
	if wantType != gotType {
		return "type " + gotType + ", expected " + wantType
	}
	t, ok := ir.ParseType(wantType)
	if !ok {
		return wantType + " value"
	}
	a, errA := parser.ParseDataValue(t, wantText)
	b, errB := parser.ParseDataValue(t, gotText)
	laneBytes := t.LaneBits() / 8
	if errA != nil || errB != nil || laneBytes == 0 || len(a.Bytes) != len(b.Bytes) {
		return wantType + " value"
	}
	differing, kind := 0, ""
	for off := 0; off+laneBytes <= len(a.Bytes); off += laneBytes {
		k := laneDifference(t.IsFloat(), a.Bytes[off:off+laneBytes], b.Bytes[off:off+laneBytes])
		if k == "" {
			continue
		}
		differing++
		if kind == "" {
			kind = k
		} else if kind != k {
			kind = "value"
		}
	}
	switch {
	case differing == 0:
		return wantType + " value"
	case t.Lanes() == 1:
		return wantType + " " + kind
	case differing == 1:
		return wantType + " one lane " + kind
	case differing == t.Lanes():
		return wantType + " every lane " + kind
	}
	return wantType + " some lanes"
}

// laneDifference is "" for equal lanes, else "nan" when one float lane is
// a NaN and the other not, "sign" when only the sign bit differs, "value"
// otherwise. Lanes are little-endian.
func laneDifference(float bool, a, b []byte) string {
	equal, signOnly := true, true
	top := len(a) - 1
	for i := range a {
		x := a[i] ^ b[i]
		if x != 0 {
			equal = false
		}
		if i == top && x != 0 && x != 0x80 || i != top && x != 0 {
			signOnly = false
		}
	}
	switch {
	case equal:
		return ""
	case float && isNaN(a) != isNaN(b):
		return "nan"
	case float && signOnly:
		return "sign"
	}
	return "value"
}

// isNaN reports whether a little-endian IEEE lane of 2, 4, 8 or 16 bytes is
// a NaN: exponent all ones, mantissa not zero.
func isNaN(b []byte) bool {
	var expBits int
	switch len(b) {
	case 2:
		expBits = 5
	case 4:
		expBits = 8
	case 8:
		expBits = 11
	case 16:
		expBits = 15
	default:
		return false
	}
	bits := len(b) * 8
	bit := func(i int) bool { return b[i/8]>>(i%8)&1 == 1 }
	for i := bits - 1 - expBits; i < bits-1; i++ {
		if !bit(i) {
			return false
		}
	}
	for i := 0; i < bits-1-expBits; i++ {
		if bit(i) {
			return true
		}
	}
	return false
}
