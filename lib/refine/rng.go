package refine

import "cliff/lib/internal/splitmix"

// rng is the random stream of one pass on one function (SplitMix64).
type rng struct{ splitmix.Stream }

// newRNG returns the stream of pass on the function at position fn of the
// case with the given seed and index (see seed).
func newRNG(seed, index uint64, pass string, fn int) *rng {
	r := new(rng)
	r.seed(seed, index, pass, fn)
	return r
}

// seed starts r as the stream of pass on the function at position fn of
// the case with the given seed and index. Each pass and function has its
// own stream, so switching one pass off, or a pass changing one function,
// does not shift the choices made elsewhere.
func (r *rng) seed(seed, index uint64, pass string, fn int) {
	r.State = seed
	r.State ^= splitmix.Mix(index + splitmix.Golden)
	r.State ^= splitmix.Mix(fnv64a(pass))
	r.State ^= splitmix.Mix(uint64(fn) + 0x632be59bd9b4e019)
}

// fnv64a is hash/fnv's 64-bit FNV-1a of s, without the allocations of a
// hash.Hash: streams are seeded for every pass on every function.
func fnv64a(s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime
	}
	return h
}

// intn returns a number in [0, n); n must be positive and below 2^32.
func (r *rng) intn(n int) int {
	return int((r.Next() >> 32) * uint64(n) >> 32)
}

// chance reports true with probability num/den.
func (r *rng) chance(num, den int) bool { return r.intn(den) < num }
