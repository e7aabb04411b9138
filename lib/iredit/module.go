package iredit

import (
	"fmt"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/printer"
)

// Text prints m in the compact layout cliff's records use.
func Text(m *ir.Module) string { return printer.Options{Compact: true}.ModuleString(m) }

// Parse parses a module's text as a record holds it.
func Parse(text string) (*ir.Module, error) {
	m, err := parser.ParseModuleString("candidate", text)
	if err != nil {
		return nil, fmt.Errorf("iredit: reparsing a variant: %w", err)
	}
	return m, nil
}

// Clone returns a copy of m that shares no memory with it, with the same
// block, value and instruction numbers as the parse of Text(m).
func Clone(m *ir.Module) (*ir.Module, error) { return Parse(Text(m)) }

// Insts counts the instructions in the layout of f.
func Insts(f *ir.Function) int {
	n := 0
	for _, b := range f.Layout {
		n += len(f.Blocks[b].Insts)
	}
	return n
}

// ModuleInsts counts the instructions of every function of m.
func ModuleInsts(m *ir.Module) int {
	n := 0
	for _, f := range m.Funcs {
		n += Insts(f)
	}
	return n
}

// Place is where an instruction sits: its block and index there.
type Place struct {
	Block ir.Block
	Index int
}

// Places maps each instruction of f's layout to its place.
func Places(f *ir.Function) map[ir.Inst]Place {
	p := make(map[ir.Inst]Place, len(f.Insts))
	for _, b := range f.Layout {
		for k, i := range f.Blocks[b].Insts {
			p[i] = Place{b, k}
		}
	}
	return p
}

// Terminator returns the last instruction of b, or ir.NoInst.
func Terminator(f *ir.Function, b ir.Block) ir.Inst {
	insts := f.Blocks[b].Insts
	if len(insts) == 0 {
		return ir.NoInst
	}
	return insts[len(insts)-1]
}
