package reduce

import (
	"cliff/lib/iredit"
)

// planExpose proposes, for every function nothing calls (the entry, or
// one Cranelift compiles although nobody calls it), to return one of its
// values alone: what kept a compiler crash's instruction alive (bitcasts,
// lane extractions and extends down to the return type) then goes, and
// the crash's function shrinks to the instruction and its return. A
// miscompile keeps its output type in its signature, so this helps it
// only where the type stays.
func planExpose(base *Candidate) []Edit {
	var out []Edit
	for _, f := range base.Module.Funcs {
		for _, b := range f.Layout {
			for _, i := range f.Blocks[b].Insts {
				d := &f.Insts[i]
				if d.Op.IsTerminator() || len(d.Results) != 1 || iredit.IsConstForm(f, d) {
					continue
				}
				name, r := f.Name, d.Results[0]
				out = append(out, func(v *Candidate) bool { return iredit.ReturnOnly(v.Module, name, r) })
			}
		}
	}
	return out
}
