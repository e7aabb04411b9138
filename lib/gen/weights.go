package gen

import (
	"fmt"
	"math"

	"cliff/lib/weights"
)

// weightScale is what a drawn family weight (1..8) is multiplied by, with
// the family's weight, when a weights file is given: the file's weights
// then count in quarters even for a family drawn at 1. Without a file
// the drawn weights are used as they are.
const weightScale = 4

// swarmWeights are a weights file (lib/weights) as the swarm applies it.
// A family's weight W multiplies its drawn weight and moves its chance to
// be on (onChance); a type's weight moves the chance of the type features
// it needs (floats, f16, f128, i128, vectors) and weighs the opcodes of a
// family by their controlling type when one is drawn. The draws are the
// same ones, from the same streams, with other thresholds: a file changes
// only what its weights touch, and a weighted family or type is still off
// in some cases.
type swarmWeights struct {
	families []float64          // per family, 1 unless the file says
	features map[string]float64 // per type feature: its types' largest weight
	// byFamily weighs byFamily's opTypes by their controlling type's
	// weight (in weightScale units); nil when the file weights no type.
	byFamily [][]int
	totals   []int
}

// newSwarmWeights applies w to the families and the profile's tables;
// nil when w is empty, and then nothing changes.
func newSwarmWeights(w weights.Weights, tab *tables) (*swarmWeights, error) {
	if w.Empty() {
		return nil, nil
	}
	sw := &swarmWeights{families: make([]float64, len(families)), features: map[string]float64{}}
	known := map[string]bool{}
	for i, f := range families {
		sw.families[i] = w.Family(f.name)
		known[f.name] = true
	}
	for name := range w.Families {
		if !known[name] {
			return nil, fmt.Errorf("weights: cliff-gen has no family %q", name)
		}
	}
	for _, t := range candidateTypes {
		for _, f := range typeFeatures(t) {
			if tw, ok := w.Types[t.String()]; ok && tw > sw.features[f] {
				sw.features[f] = tw
			}
		}
	}
	if len(w.Types) == 0 {
		return sw, nil
	}
	sw.byFamily, sw.totals = make([][]int, len(families)), make([]int, len(families))
	for i, ots := range tab.byFamily {
		ws := make([]int, len(ots))
		for j, ot := range ots {
			ws[j] = scaled(1, w.Type(ot.ctrl)) // Invalid (no type) has weight 1
			sw.totals[i] += ws[j]
		}
		sw.byFamily[i] = ws
	}
	return sw, nil
}

// onChance is the chance that a switch with chance p is on when its
// weight is w: a weight above 1 divides the chance of being off, one
// below 1 multiplies the chance of being on.
func onChance(p, w float64) float64 {
	switch {
	case w == 1:
		return p
	case w > 1:
		return 1 - (1-p)/w
	}
	return p * w
}

// scaled is a drawn weight times weightScale and w, at least 1.
func scaled(drawn int, w float64) int {
	return max(1, int(math.Round(float64(drawn*weightScale)*w)))
}

// feature returns the chance of type feature f with chance p.
func (sw *swarmWeights) feature(f string, p float64) float64 {
	if sw == nil {
		return p
	}
	if w, ok := sw.features[f]; ok {
		return onChance(p, w)
	}
	return p
}

// family returns the chance of family i with chance p to be on.
func (sw *swarmWeights) family(i int, p float64) float64 {
	if sw == nil {
		return p
	}
	return onChance(p, sw.families[i])
}

// weight returns the weight of family i drawn as drawn.
func (sw *swarmWeights) weight(i, drawn int) int {
	if sw == nil {
		return drawn
	}
	return scaled(drawn, sw.families[i])
}

// pick draws an index into family fam's opTypes of len n: uniform without
// type weights, as ever, else by their types' weights.
func (sw *swarmWeights) pick(r *rng, fam, n int) int {
	if sw == nil || sw.byFamily == nil {
		return r.intn(n)
	}
	return r.pickOf(sw.byFamily[fam], sw.totals[fam])
}
