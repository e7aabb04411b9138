package locaterun

import (
	"slices"

	"cliff/lib/cluster"
	"cliff/lib/judge"
	"cliff/lib/record"
)

// stake is the configurations a failure is re-run on while it is located
// and reduced: one that fails and, when one answered, one reference. Few
// configurations make each oracle call cheap; the signature to keep is
// the one the case shows on exactly these (see want).
type stake struct {
	failing    record.Config
	references []record.Config
}

func (s stake) configs() []record.Config {
	return append([]record.Config{s.failing}, s.references...)
}

// pickStake chooses from a failing verdict's sides: the failing
// configuration that is cheapest to run (native, then the interpreter,
// then QEMU; fewer ISA flags first), and references from the side cluster
// signatures measure divergences against. A divergence gets two
// references when that side has them (the interpreter first), so that
// the re-run still has a majority: one against one would leave the
// signature to blame either side. A crash needs no reference to show,
// but gets one when it costs little (native or the interpreter), for the
// reduced file's expected values.
func pickStake(v *record.Verdict) (stake, bool) {
	failing, _ := judge.Failing(v)
	var fails []record.Config
	for _, s := range failing {
		fails = append(fails, s.Configs...)
	}
	if len(fails) == 0 {
		return stake{}, false
	}
	st := stake{failing: cheapest(fails)}
	r := cluster.ReferenceSide(v.Sides)
	if r < 0 {
		return st, true
	}
	refs := slices.Clone(v.Sides[r].Configs)
	if v.Verdict != record.OutcomeDivergent {
		if ref := cheapest(refs); ref.Executor != record.ExecQemu {
			st.references = []record.Config{ref}
		}
		return st, true
	}
	for len(st.references) < 2 && len(refs) > 0 {
		ref := cheapest(refs)
		st.references = append(st.references, ref)
		// The second reference from another architecture, when there is
		// one: two opt levels of one backend may share its bug.
		refs = slices.DeleteFunc(refs, func(c record.Config) bool { return c.Arch == ref.Arch })
	}
	return st, true
}

// cheapest is the configuration quickest to compile and run, and the
// simplest to report: native before the interpreter before QEMU, fewer
// ISA flags and settings, opt level none before the others.
func cheapest(cs []record.Config) record.Config {
	cost := func(c record.Config) int {
		n := 0
		switch c.Executor {
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
