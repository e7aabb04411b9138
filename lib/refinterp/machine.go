package refinterp

import (
	"fmt"
	"slices"

	"cliff/lib/ir"
)

// function is a module function with what running it needs.
type function struct {
	f     *ir.Function
	index int
	// alias maps each value to the one it stands for when the function
	// has aliases; nil otherwise.
	alias   []ir.Value
	slots   []slotLayout // by stack slot number
	frameSz int          // bytes of all slots, 16-aligned
	callees []*function  // by FuncRef, filled as calls resolve them
	// native computes a libcall's result (libcall.go); nil for functions
	// of the module.
	native func(args []Value) Value
	// watched marks, by instruction, those an Observer sees (Watch);
	// nil when none is watched, so that the interpreter pays one test.
	watched []bool
	observe Observer
	ready   bool
	err     error
}

// prepare resolves aliases and lays the stack slots out, once.
func (fn *function) prepare() error {
	if fn.ready {
		return fn.err
	}
	fn.ready = true
	f := fn.f
	for v := range f.Values {
		if f.Values[v].Kind == ir.DefAlias {
			fn.alias = make([]ir.Value, len(f.Values))
			for w := range fn.alias {
				fn.alias[w] = f.Resolve(ir.Value(w))
			}
			break
		}
	}
	// A function has values of a few types: each is checked once (passed
	// holds those that passed, up to its size).
	var passed [8]ir.Type
	npassed := 0
	for v := range f.Values {
		t := f.Values[v].Type
		if t == ir.Invalid || slices.Contains(passed[:npassed], t) {
			continue
		}
		if err := checkType(t); err != nil {
			fn.err = fmt.Errorf("%s: %s: %w", f.Name, ir.Value(v), err)
			return fn.err
		}
		if npassed < len(passed) {
			passed[npassed] = t
			npassed++
		}
	}
	fn.err = fn.layoutSlots()
	return fn.err
}

// thread is one run: fuel and depth are shared by all its frames.
type thread struct {
	in   *Interp
	fuel uint64
	mem  memory
	// frames are reused by depth: a frame's slices outlive its activation
	// and serve the next one at that depth.
	frames []*frame
	pinned Value // the pinned register (get_pinned_reg)
	// obsOps and obsBytes hold the operands an Observer is shown, reused
	// from one observation to the next (they are valid only during it):
	// a guard in a loop is observed on every trip.
	obsOps   []ir.DataValue
	obsBytes []byte
	// entryArgs holds the arguments of a Call: the entry block's params
	// take them before anything else runs.
	entryArgs []Value
	// blockArgs holds a jump's block args between reading them and
	// writing the destination's params.
	blockArgs []Value
}

// frameAt returns the frame for depth, ready for fn: its values are not
// cleared, as SSA form never reads a value before defining it.
func (t *thread) frameAt(depth int, fn *function) *frame {
	for len(t.frames) < depth {
		t.frames = append(t.frames, &frame{})
	}
	fr := t.frames[depth-1]
	n := len(fn.f.Values)
	if cap(fr.vals) < n {
		fr.vals = make([]Value, n)
	}
	fr.fn, fr.vals, fr.depth = fn, fr.vals[:n], depth
	fr.dest, fr.rets, fr.tailFn, fr.tailArgs = nil, nil, nil, nil
	return fr
}

// frame is one activation of a function.
type frame struct {
	fn    *function
	vals  []Value
	base  uint64 // address of the frame's first stack slot
	depth int    // 1 for the function Call runs
	// Set by control instructions for the loop in call.
	dest     *ir.BlockCall
	rets     []Value
	tailFn   *function
	tailArgs []Value
	// argBuf holds the arguments of the frame's calls and its return
	// values: each is read before the frame runs again.
	argBuf []Value
}

// flow says where execution continues after an instruction.
type flow uint8

const (
	flowNext   flow = iota
	flowJump        // to frame.dest
	flowReturn      // with frame.rets
	flowTail        // call frame.tailFn on frame.tailArgs in place of this frame
)

// semFn executes one instruction of a frame.
type semFn func(t *thread, fr *frame, d *ir.InstData) (flow, error)

func (fr *frame) val(v ir.Value) Value {
	if fr.fn.alias != nil {
		v = fr.fn.alias[v]
	}
	return fr.vals[v]
}

func (fr *frame) typeOf(v ir.Value) ir.Type {
	if fr.fn.alias != nil {
		v = fr.fn.alias[v]
	}
	return fr.fn.f.Values[v].Type
}

// arg returns operand i of d and its type.
func (fr *frame) arg(d *ir.InstData, i int) (Value, ir.Type) {
	return fr.val(d.Args[i]), fr.typeOf(d.Args[i])
}

func (fr *frame) set(d *ir.InstData, i int, x Value) { fr.vals[d.Results[i]] = x }

func (fr *frame) resType(d *ir.InstData, i int) ir.Type { return fr.fn.f.Values[d.Results[i]].Type }

// call runs fn on args at call depth depth; tail calls replace the frame.
func (t *thread) call(fn *function, args []Value, depth int) ([]Value, error) {
	if depth > t.in.limits.MaxDepth {
		return nil, fmt.Errorf("%w: %d frames", ErrDepth, t.in.limits.MaxDepth)
	}
	for {
		if fn.native != nil {
			fr := t.frameAt(depth, fn)
			fr.argBuf = append(fr.argBuf[:0], fn.native(args))
			return fr.argBuf, nil
		}
		if err := fn.prepare(); err != nil {
			return nil, err
		}
		fr := t.frameAt(depth, fn)
		mark := t.mem.mark()
		base, err := t.mem.push(fn, t.in.limits.MaxStackBytes)
		if err != nil {
			return nil, err
		}
		fr.base = base
		rets, err := t.run(fr, args)
		t.mem.pop(mark)
		if err != nil || fr.tailFn == nil {
			return rets, err
		}
		fn, args = fr.tailFn, fr.tailArgs
	}
}

// run executes fr from its entry block until it returns or tail-calls.
func (t *thread) run(fr *frame, args []Value) ([]Value, error) {
	f := fr.fn.f
	if len(f.Layout) == 0 {
		return nil, fmt.Errorf("%w: %s has no body (an external function)", ErrUnsupported, f.Name)
	}
	block := f.Layout[0]
	params := f.Blocks[block].Params
	if len(params) != len(args) {
		return nil, fmt.Errorf("%s: entry block takes %d params, got %d arguments", f.Name, len(params), len(args))
	}
	for i, p := range params {
		fr.vals[p] = args[i]
	}
	watched := fr.fn.watched // nil unless observed: one test per instruction
	for {
		insts := f.Blocks[block].Insts
		jumped := false
		for _, inst := range insts {
			if t.fuel == 0 {
				return nil, fmt.Errorf("%w: %d instructions", ErrFuel, t.in.limits.Fuel)
			}
			t.fuel--
			d := &f.Insts[inst]
			if watched != nil && watched[inst] {
				t.observe(fr, inst, d)
			}
			impl := dispatch[d.Op]
			if impl == nil {
				return nil, fmt.Errorf("%w: %s in %s", ErrUnsupported, d.Op, f.Name)
			}
			fl, err := impl(t, fr, d)
			if err != nil {
				return nil, err
			}
			switch fl {
			case flowNext:
				continue
			case flowReturn:
				return fr.rets, nil
			case flowTail:
				return nil, nil
			}
			// flowJump: block args are read before any param is written.
			dest := fr.dest
			scratch := t.blockArgs[:0]
			for _, a := range dest.Args {
				if a.Kind != ir.ArgValue {
					return nil, fmt.Errorf("%w: try_call block args", ErrUnsupported)
				}
				scratch = append(scratch, fr.val(a.Value))
			}
			for i, p := range f.Blocks[dest.Block].Params {
				fr.vals[p] = scratch[i]
			}
			t.blockArgs = scratch
			block = dest.Block
			jumped = true
			break
		}
		if !jumped {
			return nil, fmt.Errorf("%s: %s ends without a terminator", f.Name, block)
		}
	}
}
