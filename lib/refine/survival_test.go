package refine

import (
	"context"
	"strings"
	"testing"
	"time"

	"cliff/lib/driver/drivertest"
	"cliff/lib/metrics"
)

// TestRefinementRaisesSurvival measures, through the driver, the fraction
// of instructions that survive Cranelift's mid-end at opt_level=speed
// (x86_64), over the test modules, unrefined, after each pass alone and
// after all of them: all passes together must keep more of the code than
// no refinement does (the "refinement matters").
func TestRefinementRaisesSurvival(t *testing.T) {
	d := drivertest.Client(t)
	s := metrics.NewSurvival(d, "x86_64", time.Minute)
	measure := func(clif string) float64 {
		v, err := s.Measure(context.Background(), clif)
		if err != nil {
			t.Fatalf("%v\n%s", err, clif)
		}
		return v
	}
	modules := testModules(t, 40)
	mean := func(set []string) float64 {
		sum := 0.0
		for _, m := range modules {
			clif := m.clif
			if len(set) > 0 {
				clif = text(refined(t, m.clif, set...))
			}
			sum += measure(clif)
		}
		return sum / float64(len(modules))
	}
	none := mean(nil)
	t.Logf("survival, mean over %d modules: none %.3f", len(modules), none)
	var all float64
	for _, set := range passSets {
		v := mean(set)
		t.Logf("  %-28s %.3f", strings.Join(set, "+"), v)
		if len(set) == len(functionPasses()) {
			all = v
		}
	}
	if all <= none {
		t.Errorf("survival with every pass %.3f, without %.3f: refinement keeps no more code", all, none)
	}
}
