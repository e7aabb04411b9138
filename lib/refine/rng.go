package refine

import "hash/fnv"

// rng is the random stream of one pass on one function: splitmix64, whose
// output is fixed by its definition, so the same case gives the same
// choices on every Go version and machine (math/rand makes no such
// promise for its derived methods).
type rng struct{ state uint64 }

// newRNG returns the stream of pass on the function at position fn of the
// case with the given seed and index. Each pass and function has its own
// stream, so switching one pass off, or a pass changing one function, does
// not shift the choices made elsewhere.
func newRNG(seed, index uint64, pass string, fn int) *rng {
	h := fnv.New64a()
	h.Write([]byte(pass))
	r := &rng{state: seed}
	r.state ^= mix(index + 0x9e3779b97f4a7c15)
	r.state ^= mix(h.Sum64())
	r.state ^= mix(uint64(fn) + 0x632be59bd9b4e019)
	return r
}

// mix is splitmix64's output function.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix(r.state)
}

// intn returns a number in [0, n); n must be positive and below 2^32.
func (r *rng) intn(n int) int {
	return int((r.next() >> 32) * uint64(n) >> 32)
}

// chance reports true with probability num/den.
func (r *rng) chance(num, den int) bool { return r.intn(den) < num }

// weighted returns an index into weights, each chosen with probability
// proportional to its weight; the weights must not all be zero.
func (r *rng) weighted(weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	k := r.intn(total)
	for i, w := range weights {
		if k < w {
			return i
		}
		k -= w
	}
	return len(weights) - 1
}
