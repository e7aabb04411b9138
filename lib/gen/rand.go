package gen

import (
	"math/bits"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/internal/splitmix"
)

// rng is a small, allocation-free random stream (SplitMix64). Streams are
// cheap to make, so each decision point derives its own from a key.
type rng struct{ splitmix.Stream }

// derive returns the seed of the sub-stream of seed named by key.
func derive(seed, key uint64) uint64 {
	return splitmix.Mix(seed ^ splitmix.Mix(key+splitmix.Golden))
}

// tag is the stream key of a name.
func tag(name string) uint64 { return xxhash.Sum64String(name) }

func newRng(seed uint64) rng { return rng{splitmix.Stream{State: seed}} }

func (r *rng) next() uint64 { return r.Next() }

// intn returns a number in [0, n); n must be positive.
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

func (r *rng) chance(p float64) bool { return r.float() < p }

// recent returns an index in [0, n) biased to the end: the most recent
// value half of the time, so def-use chains grow long.
func (r *rng) recent(n int) int {
	back := geometric(r.next())
	if back >= n {
		back = r.intn(n)
	}
	return n - 1 - back
}

// geometric maps a random word to a count with p = 1/2 (0 half of the
// time, 1 a quarter, ...): its leading one bits, of the 53 that r.float
// uses. It is floor(-log2(1 - u)) for u = r.float(), computed without
// floating point (TestGeometric).
func geometric(x uint64) int { return min(bits.LeadingZeros64(^x), 53) }

// pick returns an index drawn with the given non-negative weights, or -1
// when they are all zero.
func (r *rng) pick(weights []int) int { return r.pickOf(weights, splitmix.Sum(weights)) }

// pickOf is pick for weights whose total is known.
func (r *rng) pickOf(weights []int, total int) int {
	if total == 0 {
		return -1
	}
	return splitmix.Index(weights, r.intn(total))
}
