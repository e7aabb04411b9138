package cluster

// A Point is the state of a campaign after one failing verdict: how many
// failures and distinct clusters had been seen by case Case.
type Point struct {
	Case     int // campaign position of the case (cliff-gen index)
	Verdicts int // verdicts read so far, failing or not: the campaign's progress in the order read
	Failures int
	Clusters int
}

// A Timeline keeps at most about Max points of a campaign's curve: when
// full, it drops every other point, except those where a new cluster
// appeared (at most one per cluster), so that a campaign of any length
// plots in bounded memory and no discovery is lost.
type Timeline struct {
	Max    int
	points []Point
	isNew  []bool
	stride int // keep one point in stride (after thinning)
	skip   int
}

func (t *Timeline) add(p Point, newCluster bool) {
	if t.stride == 0 {
		t.stride = 1
	}
	t.skip++
	if !newCluster && t.skip < t.stride {
		// Still advance the last point so that the curve ends right.
		if n := len(t.points); n > 0 && !t.isNew[n-1] {
			t.points[n-1] = p
		}
		return
	}
	t.skip = 0
	t.points = append(t.points, p)
	t.isNew = append(t.isNew, newCluster)
	if t.Max > 0 && len(t.points) > t.Max {
		t.thin()
	}
}

func (t *Timeline) thin() {
	keep := 0
	for i := range t.points {
		if t.isNew[i] || i%2 == 0 || i == len(t.points)-1 {
			t.points[keep], t.isNew[keep] = t.points[i], t.isNew[i]
			keep++
		}
	}
	t.points, t.isNew = t.points[:keep], t.isNew[:keep]
	t.stride *= 2
}

// Points returns the kept points, in order.
func (t *Timeline) Points() []Point { return t.points }
