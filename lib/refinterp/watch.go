package refinterp

import (
	"fmt"

	"cliff/lib/ir"
)

// An Observer is told of each execution of an instruction it watches
// (Interp.Watch), before the instruction runs, with the values of its
// operands (not its block args); ops is valid only during the call. It
// returns whether to go on watching inst: an observer that has seen what
// it waited for stops paying for it (a guard in a loop).
type Observer func(f *ir.Function, inst ir.Inst, ops []ir.DataValue) bool

// Watch makes obs see every execution of the instructions insts of f, a
// function of the module, in every later Call; it replaces f's earlier
// watch. Observing is for tools that ask what a run did (which guards of
// a case ever fired, lib/prune); a function with nothing watched costs
// the interpreter one test per instruction.
func (in *Interp) Watch(f *ir.Function, insts []ir.Inst, obs Observer) error {
	for _, fn := range in.byIdx {
		if fn.f != f {
			continue
		}
		fn.watched, fn.observe = nil, nil
		if len(insts) == 0 || obs == nil {
			return nil
		}
		fn.watched = make([]bool, len(f.Insts))
		for _, i := range insts {
			if int(i) >= len(f.Insts) {
				return fmt.Errorf("watch %s: %s has no instruction %d", f.Name, f.Name, i)
			}
			fn.watched[i] = true
		}
		fn.observe = obs
		return nil
	}
	return fmt.Errorf("watch: %s is not a function of the module", f.Name)
}

// observe tells fr's observer of the execution of inst.
func (t *thread) observe(fr *frame, inst ir.Inst, d *ir.InstData) {
	ops, b := t.obsOps[:0], t.obsBytes[:0]
	for k := range d.Args {
		v, ty := fr.arg(d, k)
		b = Bytes(b, v, ty.Bytes())
		ops = append(ops, ir.DataValue{Type: ty})
	}
	at := 0
	for k := range ops { // b may have moved while it grew: slice it last
		n := ops[k].Type.Bytes()
		ops[k].Bytes = b[at : at+n : at+n]
		at += n
	}
	t.obsOps, t.obsBytes = ops, b
	if !fr.fn.observe(fr.fn.f, inst, ops) {
		fr.fn.watched[inst] = false
	}
}
