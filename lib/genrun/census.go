package genrun

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/metrics"
	"cliff/lib/profile"
	"cliff/lib/profile/universe"
	"cliff/lib/verify"
)

// census writes one minimal case per combination of the universe of the
// target opts.Profile names (cliff-gen --enumerate --all): the lowering
// census, which ignores the profile's exclusions and the mask. A
// combination cliff's verifier rejects is not written but counted (the
// universe is the opcode table's type sets; the verifier has rules of its
// own, such as bitcast's equal widths), as is one no single instruction
// with params and returns can show. With opts.Constants each case is the
// combination's constant form (gen.CensusConstCase).
func census(ctx context.Context, opts Options, w *jsonl.Writer, summary *metrics.Summary) error {
	u, err := universe.Load()
	if err != nil {
		return err
	}
	prof, err := profile.Load(opts.Profile)
	if err != nil {
		return fmt.Errorf("--profile: %w", err)
	}
	combos, err := u.Combos(opts.Profile)
	if err != nil {
		return err
	}
	var written, rejected, inexpressible, unknown int // inexpressible: control flow, calls, traps, addresses
	releases := ir.Releases()
	for _, c := range combos {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if slices.ContainsFunc(opts.Cranelift, func(v string) bool { return !releases.Knows(ir.KindOpcode, c.Op.String(), v) }) {
			unknown++ // a release that does not know the opcode would only reject it
			continue
		}
		build := gen.CensusCase
		if opts.Constants {
			build = gen.CensusConstCase
		}
		rec, mod, ok := build(c, opts.Seed, prof.Settings, prof.Pointer)
		if !ok {
			inexpressible++
			continue
		}
		if errs := verify.ModuleWith(mod, verify.Options{PointerType: prof.Pointer}); len(errs) > 0 {
			rejected++
			continue
		}
		rec.Options.Profile = opts.Profile
		rec.Options.Cranelift = strings.Join(opts.Cranelift, ",")
		rec.Metrics = metrics.Of(mod)
		summary.Add(rec.Metrics)
		if err := w.Write(rec); err != nil {
			return err
		}
		written++
	}
	form, without := "", "control flow, calls, traps, addresses: no one-instruction case"
	if opts.Constants {
		form, without = " in constant form", "control flow, calls, traps, memory, no operands: no one-instruction case with constant operands"
	}
	fmt.Fprintf(opts.Log, "cliff-gen: census of %s%s: %d of %d combinations written; %d rejected by cliff's verifier, %d left out (%s)\n",
		opts.Profile, form, written, len(combos), rejected, inexpressible, without)
	if unknown > 0 {
		fmt.Fprintf(opts.Log, "cliff-gen: %d combinations left out: their opcode is unknown to Cranelift %s\n", unknown, strings.Join(opts.Cranelift, ", "))
	}
	return nil
}
