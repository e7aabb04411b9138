package metrics

import (
	"math"
	"math/bits"
	"slices"
)

// A hist counts how often each integer value occurs. Its size grows with
// the number of distinct values, never with the number of samples, and it
// answers every order statistic exactly.
type hist struct {
	counts map[int]uint64
	n      uint64
	sum    float64
}

func (h *hist) add(v int) {
	if h.counts == nil {
		h.counts = make(map[int]uint64)
	}
	h.counts[v]++
	h.n++
	h.sum += float64(v)
}

// stats computes the Stats of the samples, in their integer unit.
// Quantiles interpolate linearly between the two nearest ranks (numpy's
// default): over the sorted samples x[0..n-1], quantile q is at position
// (n-1)·q, so the median of an even count is the mean of the two middle
// samples.
func (h *hist) stats() Stats {
	if h.n == 0 {
		return Stats{}
	}
	vals := h.values()
	return Stats{
		N:      h.n,
		Min:    float64(vals[0]),
		Max:    float64(vals[len(vals)-1]),
		Median: h.quantile(vals, 0.5),
		Mean:   h.sum / float64(h.n),
		P90:    h.quantile(vals, 0.9),
	}
}

// values returns the distinct values, sorted.
func (h *hist) values() []int {
	vals := make([]int, 0, len(h.counts))
	for v := range h.counts {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	return vals
}

// quantile interpolates between the values of rank floor(pos) and the next
// one, where vals are h's distinct values, sorted.
func (h *hist) quantile(vals []int, q float64) float64 {
	pos := float64(h.n-1) * q
	lo := uint64(math.Floor(pos))
	a := h.rank(vals, lo)
	if frac := pos - float64(lo); frac > 0 {
		b := h.rank(vals, lo+1)
		return float64(a) + frac*float64(b-a)
	}
	return float64(a)
}

// rank returns the k-th smallest sample (from 0).
func (h *hist) rank(vals []int, k uint64) int {
	var seen uint64
	for _, v := range vals {
		seen += h.counts[v]
		if k < seen {
			return v
		}
	}
	return vals[len(vals)-1]
}

// A bucket is a range of values [lo, hi] and how many samples fell in it.
type bucket struct {
	lo, hi int
	count  uint64
}

// exactRange is the widest range of values a histogram shows one value per
// line for; wider ranges get power-of-two buckets.
const exactRange = 16

// spread returns the buckets that make h readable: one per value from the
// smallest to the largest when they span at most exactRange values, else
// powers of two ([min..0], 1, 2-3, 4-7, 8-15, ..., the first starting at
// the smallest value). Buckets inside the range are kept when empty, so
// the bars show the shape. The counts are not filled in (see fill).
func (h *hist) spread() []bucket {
	if h.n == 0 {
		return nil
	}
	vals := h.values()
	lo, hi := vals[0], vals[len(vals)-1]
	var out []bucket
	if hi-lo < exactRange {
		for v := lo; v <= hi; v++ {
			out = append(out, bucket{lo: v, hi: v})
		}
		return out
	}
	for start := lo; start <= hi; {
		end := 0 // the first bucket takes every value up to 0
		if start > 0 {
			end = 1<<bits.Len(uint(start)) - 1
		}
		out = append(out, bucket{lo: start, hi: end})
		start = end + 1
	}
	return out
}

// fill counts h's samples into buckets, which must be sorted and disjoint;
// samples outside every bucket are not counted.
func (h *hist) fill(buckets []bucket) {
	for v, n := range h.counts {
		i, found := slices.BinarySearchFunc(buckets, v, func(b bucket, v int) int {
			switch {
			case b.hi < v:
				return -1
			case b.lo > v:
				return 1
			}
			return 0
		})
		if found {
			buckets[i].count += n
		}
	}
}
