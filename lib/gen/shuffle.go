package gen

// Shuffle masks. The backends lower a shuffle with a mask of a known
// shape to one instruction (x86_64's punpck, pshufd, palignr, pblendw;
// aarch64's zip, uzp, ext, dup; s390x's vmrh, vpk), and only a mask of no
// shape to the general table lookup. Random bytes almost never have a
// shape, so half the masks are drawn from the shapes: each reads lanes of
// 1, 2, 4 or 8 bytes from the 32 bytes of the two operands (a's 0-15,
// b's 16-31).

// shuffleShapes build a mask of lanes of w bytes: pick(i) is the source
// lane of result lane i, in lanes of the 32 source bytes.
var shuffleShapes = []func(r *rng, n int) func(i int) int{
	// interleave the low or high halves of a and b (punpckl, zip1, vmrl)
	func(r *rng, n int) func(i int) int {
		half := r.intn(2) * n / 2
		return func(i int) int { return half + i/2 + (i%2)*n }
	},
	// the even or odd lanes of a then b (pack, uzp1)
	func(r *rng, n int) func(i int) int {
		odd := r.intn(2)
		return func(i int) int { return 2*i + odd }
	},
	// n consecutive lanes of a:b from k on (palignr, ext)
	func(r *rng, n int) func(i int) int {
		k := r.intn(n + 1)
		return func(i int) int { return k + i }
	},
	// one lane everywhere (a broadcast: pshufd 0, dup)
	func(r *rng, n int) func(i int) int {
		k := r.intn(2 * n)
		return func(int) int { return k }
	},
	// each lane from a or b at its own place (a blend)
	func(r *rng, n int) func(i int) int {
		fromB := r.next()
		return func(i int) int { return i + int(fromB>>i&1)*n }
	},
	// a permutation of one operand's lanes (pshufd, pshuflw, vperm)
	func(r *rng, n int) func(i int) int {
		src := r.intn(2) * n
		perm := make([]int, n)
		for i := range perm {
			perm[i] = r.intn(n)
		}
		return func(i int) int { return src + perm[i] }
	},
	// the low or high half of a, then of b (movlhps, vpdi)
	func(r *rng, n int) func(i int) int {
		ha, hb := r.intn(2)*n/2, r.intn(2)*n/2
		return func(i int) int {
			if i < n/2 {
				return ha + i
			}
			return n + hb + i - n/2
		}
	},
	// a's lanes in reverse
	func(r *rng, n int) func(i int) int { return func(i int) int { return n - 1 - i } },
}

// shuffleMask draws a 16-byte shuffle mask: random bytes half the time,
// else a shape of shuffleShapes over lanes of 1, 2, 4 or 8 bytes.
func shuffleMask(r *rng) []byte {
	mask := make([]byte, 16)
	if r.chance(0.5) {
		for i := range mask {
			mask[i] = byte(r.intn(32))
		}
		return mask
	}
	w := 1 << r.intn(4) // lane bytes
	n := 16 / w         // lanes per operand
	shape := shuffleShapes[r.intn(len(shuffleShapes))]
	// The shapes are called through a func value, which escape analysis
	// cannot see into: handing them r would move every caller's stream to
	// the heap (each slot of fill allocated one). They draw from a copy.
	s := *r
	pick := shape(&s, n)
	*r = s
	for i := range n {
		lane := pick(i) % (2 * n)
		for b := range w {
			mask[i*w+b] = byte(lane*w + b)
		}
	}
	return mask
}
