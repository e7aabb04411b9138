package printer

import (
	"io"
	"sync"

	"cliff/lib/ir"
)

// Options select optional parts of the output. The zero Options print
// exactly what Cranelift prints.
type Options struct {
	// NoConstComments leaves out the `  ; v1 = 42` comments that name the
	// constants among an instruction's operands.
	NoConstComments bool
	// Compact indents every instruction by four spaces, a source location
	// or debug tags then standing in front of it (write.rs indents a whole
	// function by 36 once one instruction has them), and implies
	// NoConstComments: smaller text, as parseable, for machine-read
	// records such as generated cases.
	Compact bool
}

// Function writes f as CLIF text.
func Function(w io.Writer, f *ir.Function) error { return Options{}.Function(w, f) }

// FunctionString returns f as CLIF text.
func FunctionString(f *ir.Function) string { return Options{}.FunctionString(f) }

// Module writes the functions of m, separated by blank lines.
func Module(w io.Writer, m *ir.Module) error { return Options{}.Module(w, m) }

// File writes a whole .clif file: the test, set and target lines, a blank
// line, then the functions, each followed by the run and print commands
// that name it as `; run: ...` lines.
func File(w io.Writer, file *ir.File) error { return Options{}.File(w, file) }

// Inst returns the line of instruction i of f as Function would print it,
// without indentation or newline. It costs a pass over f's layout (to find
// the blocks that decide the `.type` suffix).
func Inst(f *ir.Function, i ir.Inst) string { return Options{}.Inst(f, i) }

// DataValue spells a run-command value: signed decimal integers, Cranelift
// hex floats, vectors as one little-endian hex number.
func DataValue(v ir.DataValue) string {
	var scratch [64]byte // room for any scalar or 128-bit vector
	return string(appendDataValue(scratch[:0], v))
}

// Function writes f as CLIF text.
func (o Options) Function(w io.Writer, f *ir.Function) error {
	s := getScratch()
	defer s.release()
	s.text = s.p.appendFunction(s.text, o, f)
	_, err := w.Write(s.text)
	return err
}

// FunctionString returns f as CLIF text.
func (o Options) FunctionString(f *ir.Function) string {
	s := getScratch()
	defer s.release()
	s.text = s.p.appendFunction(s.text, o, f)
	return string(s.text)
}

// Module writes the functions of m, separated by blank lines.
func (o Options) Module(w io.Writer, m *ir.Module) error {
	s := getScratch()
	defer s.release()
	for k, f := range m.Funcs {
		if k > 0 {
			s.text = append(s.text, '\n')
		}
		s.text = s.p.appendFunction(s.text, o, f)
		if len(s.text) >= 64<<10 {
			if _, err := w.Write(s.text); err != nil {
				return err
			}
			s.text = s.text[:0]
		}
	}
	_, err := w.Write(s.text)
	return err
}

// ModuleString returns the text of m's functions, as Module writes them.
// The generator and cliff-refine call it once per case (a few hundred
// instructions); the string is its only allocation.
func (o Options) ModuleString(m *ir.Module) string {
	s := getScratch()
	defer s.release()
	for k, f := range m.Funcs {
		if k > 0 {
			s.text = append(s.text, '\n')
		}
		s.text = s.p.appendFunction(s.text, o, f)
	}
	return string(s.text)
}

// File writes a whole .clif file; see the package-level File.
func (o Options) File(w io.Writer, file *ir.File) error {
	s := getScratch()
	defer s.release()
	for _, h := range file.Tests {
		s.text = appendHeaderLine(s.text, h)
	}
	for _, h := range file.Header {
		s.text = appendHeaderLine(s.text, h)
	}
	if len(s.text) > 0 && len(file.Funcs) > 0 {
		s.text = append(s.text, '\n')
	}

	// Each command goes after the first function it names; the rest after
	// the last function, in their order.
	printed := make([]bool, len(file.Commands))
	for k, f := range file.Funcs {
		if k > 0 {
			s.text = append(s.text, '\n')
		}
		s.text = s.p.appendFunction(s.text, o, f)
		for c := range file.Commands {
			if !printed[c] && file.Commands[c].Func == f.Name {
				s.text = appendRunCommand(s.text, &file.Commands[c])
				printed[c] = true
			}
		}
		if _, err := w.Write(s.text); err != nil {
			return err
		}
		s.text = s.text[:0]
	}
	for c := range file.Commands {
		if !printed[c] {
			s.text = appendRunCommand(s.text, &file.Commands[c])
		}
	}
	_, err := w.Write(s.text)
	return err
}

// scratch is what printing needs besides its output: a funcPrinter with
// its per-function tables, and a text buffer. The generator and
// cliff-refine print thousands of small modules a second, so the
// exported functions take both from a pool instead of growing new ones
// for every call.
type scratch struct {
	p    funcPrinter
	text []byte
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// getScratch returns a scratch with empty text.
func getScratch() *scratch {
	s := scratchPool.Get().(*scratch)
	s.text = s.text[:0]
	return s
}

// release returns s to the pool, unless a huge function has grown it: the
// pool should not keep megabytes alive for the sake of a rare input.
func (s *scratch) release() {
	const maxText, maxInsts, maxValues = 1 << 20, 1 << 16, 1 << 16
	if cap(s.text) > maxText || cap(s.p.instAt) > maxInsts || cap(s.p.firstAlias) > maxValues || cap(s.p.isConst) > maxValues {
		return
	}
	scratchPool.Put(s)
}

func appendHeaderLine(buf []byte, h ir.HeaderLine) []byte {
	switch h.Kind {
	case ir.HeaderTest:
		buf = append(buf, "test"...)
	case ir.HeaderSet:
		buf = append(buf, "set"...)
	case ir.HeaderTarget:
		buf = append(buf, "target"...)
	default:
		buf = append(buf, "<bad header kind>"...)
	}
	for _, w := range h.Words {
		buf = append(buf, ' ')
		buf = append(buf, w...)
	}
	return append(buf, '\n')
}

// appendRunCommand writes `; run: %f(1, 2) == 3`, `; run` or
// `; print: %f(1, 2)`, as cranelift-reader's RunCommand Display does.
func appendRunCommand(buf []byte, c *ir.RunCommand) []byte {
	switch {
	case c.Kind == ir.RunCheck && c.Cmp == "":
		return append(buf, "; run\n"...)
	case c.Kind == ir.RunCheck:
		buf = append(buf, "; run: "...)
	case c.Kind == ir.RunPrint:
		buf = append(buf, "; print: "...)
	default:
		buf = append(buf, "; <bad run command kind>: "...)
	}
	buf = append(buf, c.Func...)
	buf = append(buf, '(')
	buf = appendDataValues(buf, c.Args)
	buf = append(buf, ')')
	if c.Kind == ir.RunCheck {
		buf = append(buf, ' ')
		buf = append(buf, c.Cmp...)
		buf = append(buf, ' ')
		// One result stands alone; none or several go in brackets.
		if len(c.Want) == 1 {
			buf = appendDataValue(buf, c.Want[0])
		} else {
			buf = append(buf, '[')
			buf = appendDataValues(buf, c.Want)
			buf = append(buf, ']')
		}
	}
	return append(buf, '\n')
}

func appendDataValues(buf []byte, vs []ir.DataValue) []byte {
	for k, v := range vs {
		if k > 0 {
			buf = append(buf, ", "...)
		}
		buf = appendDataValue(buf, v)
	}
	return buf
}

func appendDataValue(buf []byte, v ir.DataValue) []byte {
	t := v.Type
	if !t.Valid() || len(v.Bytes) != t.Bytes() {
		buf = append(buf, "<bad data value "...)
		buf = append(buf, t.String()...)
		buf = append(buf, ' ')
		buf = appendLEHex(buf, v.Bytes)
		return append(buf, '>')
	}
	switch {
	case t.IsVector() || t.IsDynamic():
		return appendLEHex(buf, v.Bytes)
	case t.IsInt():
		return appendSignedLE(buf, v.Bytes)
	case t == ir.F128:
		return appendF128(buf, v.Bytes)
	}
	var x uint64
	for k := len(v.Bytes) - 1; k >= 0; k-- {
		x = x<<8 | uint64(v.Bytes[k])
	}
	return appendFloatOfType(buf, t, x)
}

// appendFloatOfType writes float bits of the scalar type t (f16, f32, f64).
func appendFloatOfType(buf []byte, t ir.Type, x uint64) []byte {
	switch t {
	case ir.F16:
		return appendF16(buf, x)
	case ir.F32:
		return appendF32(buf, x)
	}
	return appendF64(buf, x)
}

// Inst returns one instruction line; see the package-level Inst.
func (o Options) Inst(f *ir.Function, i ir.Inst) string { return o.NewLines(f).Inst(i) }
