package refinterp

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"cliff/lib/ir"
)

// TestIntKernelsExact holds the 128-bit paths of the integer kernels
// (lanes of 64 bits or less) to the exact answer in math/big, on edge
// values and random ones of every width: a carry or sign lost in the fast
// path would show here first.
func TestIntKernelsExact(t *testing.T) {
	toBig := func(x u128, w uint, signed bool) *big.Int {
		if signed {
			x = sext(x, w)
		}
		return big128(x, signed)
	}
	wrap := func(r *big.Int, w uint) u128 { return mask(fromBig(r), w) }
	fits := func(r *big.Int, w uint, signed bool) bool {
		lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), w)
		if signed {
			lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), w-1))
			hi = new(big.Int).Lsh(big.NewInt(1), w-1)
		}
		return r.Cmp(lo) >= 0 && r.Cmp(hi) < 0
	}
	clamp := func(r *big.Int, w uint) u128 {
		lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), w-1))
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), w-1), big.NewInt(1))
		if r.Cmp(lo) < 0 {
			r = lo
		} else if r.Cmp(hi) > 0 {
			r = hi
		}
		return wrap(r, w)
	}
	add := func(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
	sub := func(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
	mul := func(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }

	binary := []struct {
		name string
		want func(x, y u128, w uint) u128
	}{
		{"smulhi", func(x, y u128, w uint) u128 {
			return wrap(new(big.Int).Rsh(mul(toBig(x, w, true), toBig(y, w, true)), w), w)
		}},
		{"sadd_sat", func(x, y u128, w uint) u128 { return clamp(add(toBig(x, w, true), toBig(y, w, true)), w) }},
		{"ssub_sat", func(x, y u128, w uint) u128 { return clamp(sub(toBig(x, w, true), toBig(y, w, true)), w) }},
		{"avg_round", func(x, y u128, w uint) u128 {
			s := add(add(toBig(x, w, false), toBig(y, w, false)), big.NewInt(1))
			return wrap(s.Rsh(s, 1), w)
		}},
		{"sqmul_round_sat", func(x, y u128, w uint) u128 {
			p := add(mul(toBig(x, w, true), toBig(y, w, true)), new(big.Int).Lsh(big.NewInt(1), w-2))
			return clamp(p.Rsh(p, w-1), w)
		}},
	}
	overflow := []struct {
		name   string
		signed bool
		want   func(a, b, c *big.Int) *big.Int
	}{
		{"uadd", false, func(a, b, c *big.Int) *big.Int { return add(add(a, b), c) }},
		{"usub", false, func(a, b, c *big.Int) *big.Int { return sub(sub(a, b), c) }},
		{"umul", false, func(a, b, _ *big.Int) *big.Int { return mul(a, b) }},
		{"sadd", true, func(a, b, c *big.Int) *big.Int { return add(add(a, b), c) }},
		{"ssub", true, func(a, b, c *big.Int) *big.Int { return sub(sub(a, b), c) }},
		{"smul", true, func(a, b, _ *big.Int) *big.Int { return mul(a, b) }},
	}

	rng := rand.New(rand.NewPCG(1, 2))
	for _, w := range []uint{8, 16, 32, 64} {
		minS := minSigned(w)
		edges := []u128{{}, u64(1), u64(2), mask(not128(u128{}), w), minS, mask(sub128(minS, u64(1)), w), mask(add128(minS, u64(1)), w)}
		vals := append([]u128{}, edges...)
		for range 40 {
			vals = append(vals, mask(u64(rng.Uint64()), w))
		}
		for _, x := range vals {
			for _, y := range vals {
				for _, k := range binary {
					if got, want := mask(intBinary[k.name](x, y, w), w), k.want(x, y, w); got != want {
						t.Errorf("%s.i%d(%#x, %#x) = %#x, want %#x", k.name, w, x.Lo, y.Lo, got.Lo, want.Lo)
					}
				}
				for _, k := range overflow {
					for _, c := range []u128{{}, u64(1)} {
						exact := k.want(toBig(x, w, k.signed), toBig(y, w, k.signed), toBig(c, w, false))
						r, of := intOverflow[k.name](x, y, c, w)
						if mask(r, w) != wrap(exact, w) || of != !fits(exact, w, k.signed) {
							t.Errorf("%s.i%d(%#x, %#x, carry %d) = %#x, %v; want %#x, %v",
								k.name, w, x.Lo, y.Lo, c.Lo, mask(r, w).Lo, of, wrap(exact, w).Lo, !fits(exact, w, k.signed))
						}
					}
				}
				if y.IsZero() {
					continue
				}
				q, qc := intDiv["sdiv"](x, y, w)
				r, rc := intDiv["srem"](x, y, w)
				if x == minS && y == mask(not128(u128{}), w) {
					if qc != ir.TrapIntegerOverflow || rc != ir.TrapNone || mask(r, w) != (u128{}) {
						t.Errorf("MIN / -1 at i%d: sdiv trap %v, srem %#x trap %v", w, qc, r.Lo, rc)
					}
					continue
				}
				bq, br := new(big.Int).QuoRem(toBig(x, w, true), toBig(y, w, true), new(big.Int))
				if mask(q, w) != wrap(bq, w) || mask(r, w) != wrap(br, w) {
					t.Errorf("sdiv/srem.i%d(%#x, %#x) = %#x, %#x; want %#x, %#x", w, x.Lo, y.Lo, mask(q, w).Lo, mask(r, w).Lo, wrap(bq, w).Lo, wrap(br, w).Lo)
				}
			}
		}
	}
}

// TestConversionsExact holds the float64 paths of fcvt_to_int and
// fcvt_from_int (lanes and integers of 64 bits or less) to their
// math/big paths, on edge values of every float width (zeros, halves,
// the integer types' bounds and their neighbours, infinities, NaNs,
// subnormals) and random bit patterns: a bound off by one or a double
// rounding would show here.
func TestConversionsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, wx := range []uint{16, 32, 64} {
		var floats []u128
		for _, f := range []float64{0, 0.5, 0.999, 1, 1.5, 2, 127, 127.5, 128, 128.5, 255, 255.5, 256,
			32767, 32768, 65535, 65536, 1 << 31, 1<<31 + 0.5, 1 << 32, 1 << 53, 1 << 63, 1 << 64, 1 << 65,
			math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64} {
			for _, g := range []float64{f, -f, math.Nextafter(f, 0), -math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1)), -math.Nextafter(f, math.Inf(1))} {
				floats = append(floats, encodeFloat(g, wx))
			}
		}
		floats = append(floats, mask(u64(1), wx), mask(not128(u128{}), wx)) // the smallest subnormal, a NaN with every bit set
		for range 2000 {
			floats = append(floats, mask(u64(rng.Uint64()), wx))
		}
		for _, wr := range []uint{8, 16, 32, 64} {
			for _, signed := range []bool{false, true} {
				for _, x := range floats {
					c, v := truncToInt(x, wx, wr, signed)
					bc, bv := truncToIntBig(x, wx, wr, signed)
					if c != bc || v != bv {
						t.Errorf("truncToInt(%#x f%d, i%d, signed %v) = %d %#x, want %d %#x", x.Lo, wx, wr, signed, c, v.Lo, bc, bv.Lo)
					}
				}
			}
		}
	}
	for _, wx := range []uint{8, 16, 32, 64} {
		minS := minSigned(wx)
		ints := []u128{{}, u64(1), mask(not128(u128{}), wx), minS, mask(sub128(minS, u64(1)), wx), mask(add128(minS, u64(1)), wx),
			u64(1<<24 + 1), u64(1<<53 + 1), u64(1<<53 + 3), mask(u64(1<<63+1<<10+1), wx)}
		for range 2000 {
			x := rng.Uint64() >> rng.UintN(64) // every magnitude
			ints = append(ints, mask(u64(x), wx))
		}
		for _, w := range []uint{32, 64} {
			for _, signed := range []bool{false, true} {
				for _, x := range ints {
					x = mask(x, wx)
					if got, want := intLaneToFloat(x, wx, signed, w), intLaneToFloatBig(x, wx, signed, w); got != want {
						t.Errorf("intLaneToFloat(%#x i%d, signed %v, f%d) = %#x, want %#x", x.Lo, wx, signed, w, got.Lo, want.Lo)
					}
				}
			}
		}
	}
}
