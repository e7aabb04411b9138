package refinterp

import (
	"sort"
	"sync"

	"cliff/lib/ir"
)

// shapes maps a semantics shape of the opcode table (OpcodeInfo.Sem) to
// the builder of its implementation for a kernel (OpcodeInfo.SemKernel).
// A builder returns nil for a kernel it does not know. Each file of the
// package registers its shapes in an init function.
var shapes = map[string]func(kernel string) semFn{}

// dispatch is the implementation of each opcode, built from the table's
// sem columns once every init function has registered its shapes (New
// and Unsupported call buildDispatch): nil for an opcode without
// semantics here.
var (
	dispatch     []semFn
	dispatchOnce sync.Once
)

func buildDispatch() {
	dispatchOnce.Do(func() {
		ops := ir.Opcodes()
		dispatch = make([]semFn, len(ops)+1)
		for _, op := range ops {
			dispatch[op] = build(op.Info())
		}
	})
}

// build returns the implementation the row's sem columns name, or nil.
func build(info *ir.OpcodeInfo) semFn {
	b := shapes[info.Sem]
	if b == nil {
		return nil
	}
	return b(info.SemKernel)
}

// Unsupported lists the opcodes the interpreter cannot run, by reason:
// "no sem" (the table gives no semantics) or "sem SHAPE KERNEL" (no
// implementation of what the table names), each list in table order.
func Unsupported() map[string][]ir.Opcode {
	buildDispatch()
	out := map[string][]ir.Opcode{}
	for _, op := range ir.Opcodes() {
		if dispatch[op] != nil {
			continue
		}
		info := op.Info()
		why := "no sem"
		if info.Sem != "" {
			why = "sem " + info.Sem
			if info.SemKernel != "" {
				why += " " + info.SemKernel
			}
		}
		out[why] = append(out[why], op)
	}
	for _, l := range out {
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	}
	return out
}
