// Package splitmix is SplitMix64, the random stream cliff-gen and
// cliff-refine draw every choice from. Its output is fixed by its
// definition, so a seed gives the same case on every Go version and
// machine (math/rand makes no such promise for its derived methods), and
// streams are one word, cheap to derive for every decision point.
package splitmix

// Golden is SplitMix64's increment, 2^64 divided by the golden ratio.
const Golden = 0x9e3779b97f4a7c15

// Mix is SplitMix64's output function, also a good 64-bit hash finaliser.
func Mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Stream is a SplitMix64 generator; its state is the seed it starts from.
type Stream struct{ State uint64 }

// Next returns the next word of the stream.
func (s *Stream) Next() uint64 {
	s.State += Golden
	return Mix(s.State)
}

// Index returns the index into weights whose span holds x, for x drawn
// uniformly from [0, sum of weights): index i with probability
// proportional to weights[i].
func Index(weights []int, x int) int {
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// Sum returns the total of weights.
func Sum(weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	return total
}
