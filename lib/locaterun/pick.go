package locaterun

import (
	"slices"

	"cliff/lib/cluster"
	"cliff/lib/judge"
	"cliff/lib/record"
)

// stake is the configurations a failure is re-run on while it is located
// and reduced: one that fails and the passing ones it is measured against.
// Few configurations make each oracle call cheap; the signature to keep
// is the one the case shows on exactly these (see locator.reproduce).
type stake struct {
	failing record.Config
	passing []record.Config
	// finalPassing join the last run of the reduced case only: a
	// compiler failure needs no passing configuration to show, but the
	// reduced file names a target that passes.
	finalPassing []record.Config
}

func (s stake) configs() []record.Config {
	return append([]record.Config{s.failing}, s.passing...)
}

// pickStakes chooses from a failing verdict's sides, cheapest first: the
// failing configuration quickest to run (native, then the interpreter,
// then QEMU; fewer ISA flags first), and passing configurations from the
// expected side (judge.ExpectedSide), which cluster signatures measure
// divergences against.
//
//   - A divergence is measured against cliff's own interpreter, the
//     reference (lib/refinterp, `--arch ref`), first: the judge takes its
//     side whatever the vote, so it is the only passing configuration
//     needed, and it runs in process, the cheapest oracle there is. When
//     the verdict had no reference, that stake adds it beside the
//     cheapest of the expected side; should the reference not answer for
//     the case (a dynamic vector) or blame otherwise, reproduce falls
//     back to the stakes below.
//   - Without the reference, a divergence gets two passing
//     configurations, so that the re-run still has a majority (one
//     against one would leave the signature to blame either side): the
//     cheapest of the expected side and Cranelift's interpreter when the
//     campaign did not run it (cheaper than a second QEMU run), else the
//     next of the expected side on another architecture.
//   - A reference divergence (all of Cranelift against the reference) is
//     re-run on the cheapest configuration of Cranelift and the reference.
//   - A compile failure is reduced on its failing configuration alone;
//     the cheapest passing configuration of another architecture joins
//     its last run, for the file's passing target.
//   - A crash or timeout at run time gets one passing configuration when
//     it costs little (native or the interpreter), for the expected
//     values.
//
// The first stake is the cheapest; reproduce falls back to the next when
// the case does not fail the same way on it.
func pickStakes(v *record.Verdict) []stake {
	failing, _ := judge.Failing(v)
	var fails []record.Config
	for _, s := range failing {
		fails = append(fails, s.Configs...)
	}
	if len(fails) == 0 {
		return nil
	}
	fail := cheapest(fails)
	r := cluster.ExpectedSide(v.Sides)
	if r < 0 {
		return []stake{{failing: fail}}
	}
	expected := slices.Clone(v.Sides[r].Configs)
	exp := cheapest(expected)
	switch v.Failure() {
	case record.OutcomeCompileCrash, record.OutcomeCompileError:
		// The passing target from another architecture when there is
		// one: the same backend at another opt level often passed only
		// because the optimiser removed the failing code, which the
		// reduced case no longer lets it do.
		if others := slices.DeleteFunc(slices.Clone(expected), func(c record.Config) bool { return c.Arch == fail.Arch }); len(others) > 0 {
			exp = cheapest(others)
		}
		return []stake{{failing: fail, finalPassing: []record.Config{exp}}}
	case record.OutcomeDivergent, record.OutcomeReferenceDivergent:
		if exp.Executor == record.ExecRef {
			return []stake{{failing: fail, passing: []record.Config{exp}}}
		}
	default:
		if exp.Executor == record.ExecQemu {
			return []stake{{failing: fail}}
		}
		return []stake{{failing: fail, passing: []record.Config{exp}}}
	}
	out := []stake{{failing: fail, passing: []record.Config{reference, exp}}}
	if !hasInterp(v) && exp.Executor != record.ExecInterp {
		interp := record.Config{Arch: record.ExecInterp, OptLevel: "none", Executor: record.ExecInterp, Settings: exp.Settings}
		out = append(out, stake{failing: fail, passing: []record.Config{exp, interp}})
	}
	second := []record.Config{exp}
	// The second passing configuration from another architecture, when
	// there is one:
	// two opt levels of one backend may share its bug.
	if others := slices.DeleteFunc(expected, func(c record.Config) bool { return c.Arch == exp.Arch }); len(others) > 0 {
		second = append(second, cheapest(others))
	}
	return append(out, stake{failing: fail, passing: second})
}

// reference is cliff's own interpreter as a configuration (--arch ref).
var reference = record.Config{Arch: record.ExecRef, OptLevel: "none", Executor: record.ExecRef}

func hasInterp(v *record.Verdict) bool {
	for _, s := range v.Sides {
		if slices.ContainsFunc(s.Configs, func(c record.Config) bool { return c.Executor == record.ExecInterp }) {
			return true
		}
	}
	return false
}

// sameBlame reports whether a signature found on a stake blames the
// architectures the verdict's own signature blames (and no other): the
// interpreter, added as a passing configuration, must not shift the
// majority.
func sameBlame(v *record.Verdict, sig cluster.Signature) bool {
	return slices.Equal(cluster.SignatureOf(v).Blamed, sig.Blamed)
}

// cheapest is the configuration quickest to compile and run, and the
// simplest to report: the reference before native before Cranelift's
// interpreter before QEMU, fewer
// ISA flags and settings, opt level none before the others.
func cheapest(cs []record.Config) record.Config {
	cost := func(c record.Config) int {
		n := 0
		switch c.Executor {
		case record.ExecRef:
			n -= 100 // in process, no compile
		case record.ExecInterp:
			n += 100
		case record.ExecQemu:
			n += 1000
		}
		n += 10 * (len(c.Flags) + len(c.Settings))
		if c.OptLevel != "none" {
			n++
		}
		return n
	}
	return slices.MinFunc(cs, func(a, b record.Config) int { return cost(a) - cost(b) })
}
