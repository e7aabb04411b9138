package refinterp

import (
	"encoding/binary"
	"fmt"
	"sort"

	"cliff/lib/ir"
)

// Addresses. Stack memory starts at memBase and function addresses at
// funcBase, both in 32-bit range so that they fit any pointer type, and
// apart: DefaultLimits' stack memory ends far below funcBase.
const (
	memBase  = 0x0001_0000
	funcBase = 0x4000_0000
	funcStep = 16 // bytes between function addresses
	// slotAlign is the least alignment of a stack slot: what native
	// frames give, so that address arithmetic on it looks the same.
	slotAlign = 16
	// frameRecord is the bytes at the start of every frame that belong to
	// no slot (a native frame's saved registers): each frame, even one
	// without slots, has an address of its own (get_stack_pointer).
	frameRecord = 16
)

// slotLayout is where a stack slot lies in its frame.
type slotLayout struct {
	off, size int
	declared  bool
}

// layoutSlots places the function's stack slots one after another.
func (fn *function) layoutSlots() error {
	off := frameRecord
	for _, ss := range fn.f.StackSlots {
		n := int(ss.Num)
		if n >= 1<<16 {
			return fmt.Errorf("%w: stack slot %s", ErrUnsupported, ss.Num)
		}
		for len(fn.slots) <= n {
			fn.slots = append(fn.slots, slotLayout{})
		}
		align := max(int(ss.Align), slotAlign)
		off = (off + align - 1) &^ (align - 1)
		fn.slots[n] = slotLayout{off: off, size: int(ss.Size), declared: true}
		off += int(ss.Size)
		if off > 1<<31 {
			return fmt.Errorf("%w: stack slots of %s exceed 2 GiB", ErrMemory, fn.f.Name)
		}
	}
	fn.frameSz = (off + slotAlign - 1) &^ (slotAlign - 1)
	return nil
}

// memory is the stack slots of the live frames, one byte slice, frames
// pushed and popped at its end.
type memory struct {
	bytes []byte
	// live are the live slots in address order: an access must fall
	// inside one of them.
	live []span
}

type span struct{ start, end uint64 } // addresses, end exclusive

type memMark struct{ bytes, live int }

func (m *memory) mark() memMark { return memMark{len(m.bytes), len(m.live)} }

func (m *memory) pop(k memMark) {
	m.bytes = m.bytes[:k.bytes]
	m.live = m.live[:k.live]
}

// push allocates fn's frame of zeroed slots and returns its base address.
func (m *memory) push(fn *function, limit int) (uint64, error) {
	start := len(m.bytes)
	if start+fn.frameSz > limit {
		return 0, fmt.Errorf("%w: %d bytes", ErrMemory, limit)
	}
	if need := start + fn.frameSz; need <= cap(m.bytes) {
		m.bytes = m.bytes[:need]
		clear(m.bytes[start:])
	} else {
		m.bytes = append(m.bytes, make([]byte, fn.frameSz)...)
	}
	base := uint64(memBase + start)
	for _, s := range fn.slots {
		if s.declared && s.size > 0 {
			m.live = append(m.live, span{base + uint64(s.off), base + uint64(s.off+s.size)})
		}
	}
	return base, nil
}

// at returns the n bytes at addr, which must lie inside one live slot.
func (m *memory) at(addr uint64, n int) ([]byte, error) {
	i := sort.Search(len(m.live), func(i int) bool { return m.live[i].end > addr })
	if i == len(m.live) || addr < m.live[i].start || addr+uint64(n) > m.live[i].end || addr+uint64(n) < addr {
		return nil, fmt.Errorf("%w: %d-byte access at %#x outside every stack slot", ErrUndefined, n, addr)
	}
	off := addr - memBase
	return m.bytes[off : off+uint64(n)], nil
}

// byteOrder is the order of an access with flags f; native is little:
// the interpreter answers for little-endian targets.
func byteOrder(f ir.MemFlags) binary.ByteOrder {
	if f.Endian == ir.EndianBig {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// readInt reads an n-byte integer (n <= 16) in the access's byte order.
func readInt(b []byte, order binary.ByteOrder) u128 {
	var buf [16]byte
	if order == binary.BigEndian {
		for i := range b {
			buf[len(b)-1-i] = b[i]
		}
	} else {
		copy(buf[:], b)
	}
	return FromBytes(buf[:])
}

// writeInt writes the n = len(b) low bytes of x in the byte order.
func writeInt(b []byte, x u128, order binary.ByteOrder) {
	var buf [16]byte // on the stack: a store is no allocation
	le := Bytes(buf[:0], x, len(b))
	if order == binary.BigEndian {
		for i := range le {
			b[len(b)-1-i] = le[i]
		}
		return
	}
	copy(b, le)
}

// readValue reads a value of type t: a vector's lanes are in lane order,
// each in the access's byte order, as Cranelift's big-endian targets
// store them.
func readValue(b []byte, t ir.Type, order binary.ByteOrder) Value {
	if order != binary.BigEndian || !t.IsVector() {
		return readInt(b, order)
	}
	w := t.LaneBits() / 8
	var v Value
	for k := 0; k < t.Lanes(); k++ {
		v = setLane(v, k, uint(w*8), readInt(b[k*w:(k+1)*w], order))
	}
	return v
}

func writeValue(b []byte, t ir.Type, x Value, order binary.ByteOrder) {
	if order != binary.BigEndian || !t.IsVector() {
		writeInt(b, x, order)
		return
	}
	w := t.LaneBits() / 8
	for k := 0; k < t.Lanes(); k++ {
		writeInt(b[k*w:(k+1)*w], lane(x, k, uint(w*8)), order)
	}
}

// address computes base + offset in the pointer width of the base's type.
func address(base Value, t ir.Type, off int64) uint64 {
	a := base.Lo + uint64(off)
	if t.Bits() == 32 {
		a &= 0xffff_ffff
	}
	return a
}

func init() {
	// get_stack_pointer is the address of the frame: the same for the
	// frames a tail call replaces, distinct for nested frames; those are
	// the only relations a program can rely on.
	shapes["get_stack_pointer"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		fr.set(d, 0, mask(u64(fr.base), uint(fr.resType(d, 0).Bits())))
		return flowNext, nil
	})
	// The pinned register is one per run; it holds 0 until set.
	shapes["get_pinned_reg"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		fr.set(d, 0, t.pinned)
		return flowNext, nil
	})
	shapes["set_pinned_reg"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		t.pinned, _ = fr.arg(d, 0)
		return flowNext, nil
	})
	shapes["stack_addr"] = func(string) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			s, err := fr.slot(d.Slot)
			if err != nil {
				return 0, err
			}
			fr.set(d, 0, mask(u64(fr.base+uint64(s.off)+uint64(d.Imm)), uint(fr.resType(d, 0).Bits())))
			return flowNext, nil
		}
	}
	// load KIND: KIND is empty (the result's width), or u8/s16/...: that
	// many bits extended to the result.
	shapes["load"] = func(kernel string) semFn {
		ext, bitsN, ok := parseExt(kernel)
		if !ok {
			return nil
		}
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			base, bt := fr.arg(d, 0)
			rt := fr.resType(d, 0)
			n := rt.Bytes()
			if bitsN > 0 {
				n = bitsN / 8
			}
			b, err := t.mem.at(address(base, bt, d.Imm), n)
			if err != nil {
				return 0, err
			}
			x := readValue(b, rt, byteOrder(d.Flags))
			if ext == 's' {
				x = mask(sext(x, uint(n*8)), uint(rt.Bits()))
			}
			fr.set(d, 0, x)
			return flowNext, nil
		}
	}
	// store [BITS]: the value's low BITS bits, or all of it.
	shapes["store"] = func(kernel string) semFn {
		bitsN := 0
		if kernel != "" {
			if _, err := fmt.Sscanf(kernel, "%d", &bitsN); err != nil || bitsN%8 != 0 || bitsN <= 0 {
				return nil
			}
		}
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, xt := fr.arg(d, 0)
			base, bt := fr.arg(d, 1)
			n := xt.Bytes()
			if bitsN > 0 {
				n = bitsN / 8
			}
			b, err := t.mem.at(address(base, bt, d.Imm), n)
			if err != nil {
				return 0, err
			}
			writeValue(b, xt, x, byteOrder(d.Flags))
			return flowNext, nil
		}
	}
	// load_widen u|s: a 64-bit vector of half-width lanes, each extended.
	shapes["load_widen"] = func(kernel string) semFn {
		if kernel != "u" && kernel != "s" {
			return nil
		}
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			base, bt := fr.arg(d, 0)
			rt := fr.resType(d, 0)
			b, err := t.mem.at(address(base, bt, d.Imm), 8)
			if err != nil {
				return 0, err
			}
			w := uint(rt.LaneBits())
			order := byteOrder(d.Flags)
			var v Value
			for k := 0; k < rt.Lanes(); k++ {
				x := readInt(b[k*int(w/16):(k+1)*int(w/16)], order)
				if kernel == "s" {
					x = sext(x, w/2)
				}
				v = setLane(v, k, w, x)
			}
			fr.set(d, 0, v)
			return flowNext, nil
		}
	}
}

// parseExt reads "", "u8", "s16", ...: the extension and bit count.
func parseExt(k string) (ext byte, bitsN int, ok bool) {
	if k == "" {
		return 0, 0, true
	}
	if k[0] != 'u' && k[0] != 's' {
		return 0, 0, false
	}
	if _, err := fmt.Sscanf(k[1:], "%d", &bitsN); err != nil || bitsN%8 != 0 || bitsN <= 0 {
		return 0, 0, false
	}
	return k[0], bitsN, true
}

func (fr *frame) slot(ss ir.StackSlot) (slotLayout, error) {
	if int(ss) >= len(fr.fn.slots) || !fr.fn.slots[ss].declared {
		return slotLayout{}, fmt.Errorf("%s: %s is not declared", fr.fn.f.Name, ss)
	}
	return fr.fn.slots[ss], nil
}
