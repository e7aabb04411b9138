package refinterp

import (
	"bufio"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
)

// TestFloatVectors checks fadd, fsub, fmul, fdiv, sqrt and fma on f16,
// f32, f64 and f128 against testdata/floatvectors.txt: 3,600 results
// computed by testdata/floatvectors.py with exact rational arithmetic and
// its own rounding (random, subnormal, near-overflow, tie-making and
// special operands), an implementation sharing nothing with this package.
func TestFloatVectors(t *testing.T) {
	var src strings.Builder
	for _, ty := range []string{"f16", "f32", "f64", "f128"} {
		for _, op := range []string{"fadd", "fsub", "fmul", "fdiv"} {
			fmt.Fprintf(&src, "function %%%s_%s(%s, %s) -> %s {\nblock0(v0: %s, v1: %s):\n    v2 = %s v0, v1\n    return v2\n}\n",
				op, ty, ty, ty, ty, ty, ty, op)
		}
		fmt.Fprintf(&src, "function %%sqrt_%s(%s) -> %s {\nblock0(v0: %s):\n    v1 = sqrt v0\n    return v1\n}\n", ty, ty, ty, ty)
		fmt.Fprintf(&src, "function %%fma_%s(%s, %s, %s) -> %s {\nblock0(v0: %s, v1: %s, v2: %s):\n    v3 = fma v0, v1, v2\n    return v3\n}\n",
			ty, ty, ty, ty, ty, ty, ty, ty)
	}
	m, err := parser.ParseModule("vectors.clif", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	in := New(m, DefaultLimits)
	f, err := os.Open("testdata/floatvectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, bad := 0, 0
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		ty, ok := ir.ParseType("f" + fields[0])
		if !ok {
			t.Fatalf("line %d: bad width %q", line, fields[0])
		}
		w := uint(ty.Bits())
		var args []ir.DataValue
		for _, h := range fields[2 : len(fields)-1] {
			args = append(args, ToDataValue(ty, hexBits(t, line, h)))
		}
		o, err := in.Call("%"+fields[1]+"_"+ty.String(), args)
		if err != nil || o.Trapped() {
			t.Fatalf("line %d: %v %v", line, o, err)
		}
		got := FromBytes(o.Results[0].Bytes)
		want := fields[len(fields)-1]
		n++
		if want == "nan" && isNaNBits(got, w) || want != "nan" && got == hexBits(t, line, want) {
			continue
		}
		if bad++; bad <= 20 {
			t.Errorf("line %d: %s %s %v = %#x%016x, want %s", line, ty, fields[1], fields[2:len(fields)-1], got.Hi, got.Lo, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 3000 {
		t.Errorf("only %d vectors", n)
	}
	if bad > 0 {
		t.Errorf("%d of %d vectors differ", bad, n)
	}
}

func hexBits(t *testing.T, line int, h string) u128 {
	v, ok := new(big.Int).SetString(h, 16)
	if !ok {
		t.Fatalf("line %d: bad hex %q", line, h)
	}
	return fromBig(v)
}

// isNaNBits reports whether x is a NaN of width w.
func isNaNBits(x u128, w uint) bool {
	prec := map[uint]uint{16: 11, 32: 24, 64: 53, 128: 113}[w]
	exp := mask(shr128(x, prec-1), w-prec)
	return exp == mask(not128(u128{}), w-prec) && !mask(x, prec-1).IsZero()
}

// TestConversionVectors checks fdemote, fcvt_from_sint/uint,
// fcvt_to_sint/uint_sat and ceil/floor/trunc/nearest between every float
// width and i32/i64/i128 against testdata/convvectors.txt, written by
// testdata/floatvectors.py the same way.
func TestConversionVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/convvectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		line         int
		op, src, dst string
		arg, want    string
	}
	var rows []row
	funcs := map[string]bool{}
	var src strings.Builder
	for i, l := range strings.Split(string(data), "\n") {
		fields := strings.Fields(l)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 5 {
			t.Fatalf("line %d: %d fields", i+1, len(fields))
		}
		r := row{i + 1, fields[0], fields[1], fields[2], fields[3], fields[4]}
		rows = append(rows, r)
		name := r.op + "_" + r.src + "_" + r.dst
		if !funcs[name] {
			funcs[name] = true
			inst := fmt.Sprintf("%s.%s v0", r.op, r.dst)
			if r.src == r.dst {
				inst = r.op + " v0"
			}
			fmt.Fprintf(&src, "function %%%s(%s) -> %s {\nblock0(v0: %s):\n    v1 = %s\n    return v1\n}\n", name, r.src, r.dst, r.src, inst)
		}
	}
	m, err := parser.ParseModule("conv.clif", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	in := New(m, DefaultLimits)
	bad := 0
	for _, r := range rows {
		st, _ := ir.ParseType(r.src)
		dt, _ := ir.ParseType(r.dst)
		o, err := in.Call("%"+r.op+"_"+r.src+"_"+r.dst, []ir.DataValue{ToDataValue(st, hexBits(t, r.line, r.arg))})
		if err != nil || o.Trapped() {
			t.Fatalf("line %d: %v %v", r.line, o, err)
		}
		got := FromBytes(o.Results[0].Bytes)
		if r.want == "nan" && isNaNBits(got, uint(dt.Bits())) || r.want != "nan" && got == hexBits(t, r.line, r.want) {
			continue
		}
		if bad++; bad <= 20 {
			t.Errorf("line %d: %s %s -> %s of %s = %#x%016x, want %s", r.line, r.op, r.src, r.dst, r.arg, got.Hi, got.Lo, r.want)
		}
	}
	if len(rows) < 3000 {
		t.Errorf("only %d vectors", len(rows))
	}
	if bad > 0 {
		t.Errorf("%d of %d vectors differ", bad, len(rows))
	}
}
