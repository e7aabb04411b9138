package refine

import (
	"hash/fnv"

	"cliff/lib/internal/splitmix"
)

// rng is the random stream of one pass on one function (SplitMix64).
type rng struct{ splitmix.Stream }

// newRNG returns the stream of pass on the function at position fn of the
// case with the given seed and index. Each pass and function has its own
// stream, so switching one pass off, or a pass changing one function, does
// not shift the choices made elsewhere.
func newRNG(seed, index uint64, pass string, fn int) *rng {
	h := fnv.New64a()
	h.Write([]byte(pass))
	r := &rng{splitmix.Stream{State: seed}}
	r.State ^= splitmix.Mix(index + splitmix.Golden)
	r.State ^= splitmix.Mix(h.Sum64())
	r.State ^= splitmix.Mix(uint64(fn) + 0x632be59bd9b4e019)
	return r
}

// intn returns a number in [0, n); n must be positive and below 2^32.
func (r *rng) intn(n int) int {
	return int((r.Next() >> 32) * uint64(n) >> 32)
}

// chance reports true with probability num/den.
func (r *rng) chance(num, den int) bool { return r.intn(den) < num }

// weighted returns an index into weights, each chosen with probability
// proportional to its weight; the weights must not all be zero.
func (r *rng) weighted(weights []int) int {
	return splitmix.Index(weights, r.intn(splitmix.Sum(weights)))
}
