package metrics

import (
	"slices"
	"testing"
)

func histOf(vals ...int) *hist {
	h := &hist{}
	for _, v := range vals {
		h.add(v)
	}
	return h
}

// The quantiles are numpy's default (linear between closest ranks):
// np.percentile([1, 2, 3, 4], [50, 90]) is [2.5, 3.7].
func TestHistStats(t *testing.T) {
	tests := []struct {
		name string
		vals []int
		want Stats
	}{
		{"empty", nil, Stats{}},
		{"one", []int{5}, Stats{N: 1, Min: 5, Median: 5, Mean: 5, P90: 5, Max: 5}},
		{"odd count", []int{3, 1, 2}, Stats{N: 3, Min: 1, Median: 2, Mean: 2, P90: 2.8, Max: 3}},
		{"even count", []int{4, 1, 3, 2}, Stats{N: 4, Min: 1, Median: 2.5, Mean: 2.5, P90: 3.7, Max: 4}},
		{"even count, equal middle", []int{1, 7, 7, 7}, Stats{N: 4, Min: 1, Median: 7, Mean: 5.5, P90: 7, Max: 7}},
		{"one to ten", []int{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, Stats{N: 10, Min: 1, Median: 5.5, Mean: 5.5, P90: 9.1, Max: 10}},
		{"skewed", []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 100}, Stats{N: 10, Min: 0, Median: 0, Mean: 10, P90: 10, Max: 100}},
		{"negative", []int{-2, 0, 2}, Stats{N: 3, Min: -2, Median: 0, Mean: 0, P90: 1.6, Max: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := histOf(tt.vals...).stats()
			if !closeStats(got, tt.want) {
				t.Errorf("stats of %v:\n got %+v\nwant %+v", tt.vals, got, tt.want)
			}
		})
	}
}

func closeStats(a, b Stats) bool {
	near := func(x, y float64) bool { return x-y < 1e-9 && y-x < 1e-9 }
	return a.N == b.N && near(a.Min, b.Min) && near(a.Median, b.Median) && near(a.Mean, b.Mean) &&
		near(a.P90, b.P90) && near(a.Max, b.Max)
}

func TestHistBuckets(t *testing.T) {
	tests := []struct {
		name string
		vals []int
		want []bucket
	}{
		{"empty", nil, nil},
		{"one value", []int{3, 3}, []bucket{{3, 3, 2}}},
		{
			// A narrow range shows every value, the empty ones too.
			name: "narrow",
			vals: []int{2, 4, 4, 17},
			want: []bucket{{2, 2, 1}, {3, 3, 0}, {4, 4, 2}, {5, 5, 0}, {6, 6, 0}, {7, 7, 0}, {8, 8, 0}, {9, 9, 0},
				{10, 10, 0}, {11, 11, 0}, {12, 12, 0}, {13, 13, 0}, {14, 14, 0}, {15, 15, 0}, {16, 16, 0}, {17, 17, 1}},
		},
		{
			name: "from zero",
			vals: []int{0, 1, 2, 3, 8, 40},
			want: []bucket{{0, 0, 1}, {1, 1, 1}, {2, 3, 2}, {4, 7, 0}, {8, 15, 1}, {16, 31, 0}, {32, 63, 1}},
		},
		{
			// The first bucket starts at the smallest value.
			name: "from five",
			vals: []int{5, 7, 8, 100, 127},
			want: []bucket{{5, 7, 2}, {8, 15, 1}, {16, 31, 0}, {32, 63, 0}, {64, 127, 2}},
		},
		{
			name: "negative",
			vals: []int{-20, 0, 1, 5},
			want: []bucket{{-20, 0, 2}, {1, 1, 1}, {2, 3, 0}, {4, 7, 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := histOf(tt.vals...)
			got := h.spread()
			h.fill(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("buckets of %v:\n got %v\nwant %v", tt.vals, got, tt.want)
			}
		})
	}
}

func TestDecilesCoverSurvival(t *testing.T) {
	h := histOf(0, 99, 100, 500, 999, 1000)
	b := deciles(survivalUnit)
	h.fill(b)
	var total uint64
	for _, x := range b {
		total += x.count
	}
	if total != h.n || b[0].count != 2 || b[1].count != 1 || b[5].count != 1 || b[9].count != 2 {
		t.Errorf("deciles %v", b)
	}
}
