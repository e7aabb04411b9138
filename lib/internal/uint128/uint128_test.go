package uint128

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

const max64 = ^uint64(0)

var two128 = new(big.Int).Lsh(big.NewInt(1), 128)

func toBig(x Uint128) *big.Int {
	b := new(big.Int).SetUint64(x.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(x.Lo))
}

// fromBig reduces b modulo 2^128.
func fromBig(b *big.Int) Uint128 {
	m := new(big.Int).Mod(b, two128)
	lo := new(big.Int).And(m, new(big.Int).SetUint64(max64)).Uint64()
	return Uint128{Hi: new(big.Int).Rsh(m, 64).Uint64(), Lo: lo}
}

// randValues returns edge cases plus random values of every bit length, so
// that both halves and the boundary between them are exercised.
func randValues(r *rand.Rand, n int) []Uint128 {
	vs := []Uint128{{}, {Hi: 0, Lo: 1}, {Hi: 0, Lo: max64}, {Hi: 1, Lo: 0}, {Hi: max64, Lo: max64}, {Hi: 1 << 63, Lo: 0}, {Hi: 0, Lo: 1 << 63}}
	for range n {
		x := Uint128{Hi: r.Uint64(), Lo: r.Uint64()}
		vs = append(vs, x.Shr(uint(r.IntN(129))))
	}
	return vs
}

func TestShiftsAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, x := range randValues(r, 2000) {
		for _, n := range []uint{0, 1, 4, 63, 64, 65, 100, 127, 128, 129, 200, uint(r.IntN(128))} {
			wantL := fromBig(new(big.Int).Lsh(toBig(x), n))
			if got := x.Shl(n); got != wantL {
				t.Fatalf("%#x.Shl(%d) = %#x, want %#x", x, n, got, wantL)
			}
			wantR := fromBig(new(big.Int).Rsh(toBig(x), n))
			if got := x.Shr(n); got != wantR {
				t.Fatalf("%#x.Shr(%d) = %#x, want %#x", x, n, got, wantR)
			}
		}
	}
}

func TestMaskAgainstBig(t *testing.T) {
	for n := uint(0); n <= 130; n++ {
		want := new(big.Int).Lsh(big.NewInt(1), min(n, 128))
		want.Sub(want, big.NewInt(1))
		if got := Mask(n); toBig(got).Cmp(want) != 0 {
			t.Errorf("Mask(%d) = %#x, want %#x", n, got, want)
		}
	}
}

func TestBitwiseAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vs := randValues(r, 500)
	for i, x := range vs {
		y := vs[(i*7+3)%len(vs)]
		if got, want := x.And(y), fromBig(new(big.Int).And(toBig(x), toBig(y))); got != want {
			t.Fatalf("%#x.And(%#x) = %#x, want %#x", x, y, got, want)
		}
		if got, want := x.Or(y), fromBig(new(big.Int).Or(toBig(x), toBig(y))); got != want {
			t.Fatalf("%#x.Or(%#x) = %#x, want %#x", x, y, got, want)
		}
		if got, want := x.IsZero(), toBig(x).Sign() == 0; got != want {
			t.Fatalf("%#x.IsZero() = %v, want %v", x, got, want)
		}
	}
}

func TestNegAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, x := range randValues(r, 2000) {
		want := fromBig(new(big.Int).Neg(toBig(x)))
		if got := x.Neg(); got != want {
			t.Fatalf("%#x.Neg() = %#x, want %#x", x, got, want)
		}
	}
}

func TestBitLenAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, x := range randValues(r, 2000) {
		if got, want := x.BitLen(), toBig(x).BitLen(); got != want {
			t.Fatalf("%#x.BitLen() = %d, want %d", x, got, want)
		}
	}
}

func TestMulAddAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, x := range randValues(r, 2000) {
		for _, base := range []uint64{0, 1, 2, 10, 16, max64, r.Uint64()} {
			for _, d := range []uint64{0, 1, 9, 15, max64, r.Uint64()} {
				exact := new(big.Int).Mul(toBig(x), new(big.Int).SetUint64(base))
				exact.Add(exact, new(big.Int).SetUint64(d))
				wantOverflow := exact.Cmp(two128) >= 0
				got, overflow := x.MulAdd(base, d)
				if overflow != wantOverflow {
					t.Fatalf("%#x.MulAdd(%d, %d) overflow = %v, want %v", x, base, d, overflow, wantOverflow)
				}
				if !overflow && toBig(got).Cmp(exact) != 0 {
					t.Fatalf("%#x.MulAdd(%d, %d) = %#x, want %#x", x, base, d, got, exact)
				}
			}
		}
	}
}

func TestMulAddReadsDecimal(t *testing.T) {
	tests := []struct {
		digits   string
		want     Uint128
		overflow bool
	}{
		{"0", Uint128{}, false},
		{"18446744073709551616", Uint128{Hi: 1, Lo: 0}, false},
		{"340282366920938463463374607431768211455", Uint128{Hi: max64, Lo: max64}, false},
		{"340282366920938463463374607431768211456", Uint128{}, true},
		{"3402823669209384634633746074317682114550", Uint128{}, true},
	}
	for _, tc := range tests {
		var v Uint128
		overflow := false
		for i := 0; i < len(tc.digits) && !overflow; i++ {
			v, overflow = v.MulAdd(10, uint64(tc.digits[i]-'0'))
		}
		if v != tc.want || overflow != tc.overflow {
			t.Errorf("reading %s: got %#x, overflow %v; want %#x, %v", tc.digits, v, overflow, tc.want, tc.overflow)
		}
	}
}

func TestBytesLE(t *testing.T) {
	x := Uint128{Hi: 0x0f0e0d0c0b0a0908, Lo: 0x0706050403020100}
	tests := []struct {
		n    int
		want []byte
	}{
		{0, []byte{}},
		{1, []byte{0}},
		{8, []byte{0, 1, 2, 3, 4, 5, 6, 7}},
		{9, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{16, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{18, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0}},
	}
	for _, tc := range tests {
		if got := x.BytesLE(tc.n); !bytes.Equal(got, tc.want) {
			t.Errorf("BytesLE(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

func TestFromBytesLE(t *testing.T) {
	tests := []struct {
		b    []byte
		want Uint128
	}{
		{nil, Uint128{}},
		{[]byte{0x34, 0x12}, Uint128{Hi: 0, Lo: 0x1234}},
		{[]byte{0, 1, 2, 3, 4, 5, 6, 7, 8}, Uint128{Hi: 8, Lo: 0x0706050403020100}},
		{[]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff}, Uint128{Hi: 0x0f0e0d0c0b0a0908, Lo: 0x0706050403020100}},
	}
	for _, tc := range tests {
		if got := FromBytesLE(tc.b); got != tc.want {
			t.Errorf("FromBytesLE(%v) = %#x, want %#x", tc.b, got, tc.want)
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, x := range randValues(r, 500) {
		if got := FromBytesLE(x.BytesLE(16)); got != x {
			t.Fatalf("FromBytesLE(BytesLE(%#x)) = %#x", x, got)
		}
	}
}

func TestAppendHex(t *testing.T) {
	tests := []struct {
		x         Uint128
		minDigits int
		want      string
	}{
		{Uint128{}, 0, "0"},
		{Uint128{}, 1, "0"},
		{Uint128{}, 4, "0000"},
		{Uint128{Hi: 0, Lo: 0xabc}, 1, "abc"},
		{Uint128{Hi: 0, Lo: 0xabc}, 6, "000abc"},
		{Uint128{Hi: 1, Lo: 0}, 1, "10000000000000000"},
		{Uint128{Hi: 1, Lo: 2}, 1, "10000000000000002"},
		{Uint128{Hi: max64, Lo: max64}, 1, "ffffffffffffffffffffffffffffffff"},
		{Uint128{Hi: 0, Lo: 1}, 36, "000000000000000000000000000000000001"},
	}
	for _, tc := range tests {
		if got := string(tc.x.AppendHex([]byte("x="), tc.minDigits)); got != "x="+tc.want {
			t.Errorf("%#x.AppendHex(%d) = %q, want %q", tc.x, tc.minDigits, got, "x="+tc.want)
		}
	}
	r := rand.New(rand.NewPCG(13, 14))
	for _, x := range randValues(r, 500) {
		if got, want := string(x.AppendHex(nil, 0)), toBig(x).Text(16); got != want {
			t.Fatalf("%#x.AppendHex = %s, want %s", x, got, want)
		}
	}
}

func ExampleUint128_MulAdd() {
	var v Uint128
	for _, c := range "170141183460469231731687303715884105728" {
		v, _ = v.MulAdd(10, uint64(c-'0'))
	}
	fmt.Printf("%#x %#x\n", v.Hi, v.Lo)
	// Output: 0x8000000000000000 0x0
}
