package harness

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"cliff/lib/arch"
	"cliff/lib/record"
)

// Pulley code (Cranelift's portable bytecode, the targets pulley32,
// pulley32be, pulley64 and pulley64be) is not linked or run by the C
// harness. The driver writes a Pulley batch file instead of an ELF object
// (driver/PROTOCOL.md, "Pulley batch file"); LinkPulley reads it into an
// Executable whose one segment is the image at PulleyImageBase, with the
// absolute relocations applied; and Run sends the same job file as for
// native code to cliff-pulley (driver/src/runner), which maps the image
// at that address and calls each trampoline in pulley-interpreter, in
// forked, confined children, as the harness does.
//
// cliff-pulley's lines are the harness's (doc.go, "Output"), and four
// statuses only Pulley has:
//
//	trap   results: the interpreter's trap kind (divide_by_zero, ..., "-"
//	       when it has none); pc: the bytecode address of the trapping
//	       instruction
//	host   code: call_indirect_host's id; pc: the address after it (a
//	       call of a host function, which cliff-pulley does not provide)
//	panic  results: the panic message and site, hex encoded
//	fault  code: a signal the interpreter raised in host memory (a wild
//	       load or store of the bytecode); addr: si_addr
//
// A trap becomes record.StatusTrap with the code of the driver's trap site at
// its PC, as a native signal does (explicit traps, trapz and trapnz,
// conditional traps), else with the code of its kind (the interpreter's
// own checks: a division by zero is int_divz, an overflow int_ovf, a
// float-to-int conversion bad_toint, a bounds check heap_oob, the
// interpreter's stack stk_ovf), as wasmtime maps them.

// PulleyImageBase is where a Pulley image is loaded: below 4 GiB, so that
// pulley32 code can hold its addresses, and below cliff-pulley's
// allocator's arena (1 GiB, see driver/src/runner/lowmem.rs).
const PulleyImageBase = 0x1000_0000

// pulleyImageLimit is the largest image below the arena.
const pulleyImageLimit = 0x4000_0000 - PulleyImageBase

// pulleyMagic starts a Pulley batch file; pulleyVersion is its layout.
const (
	pulleyMagic   = "CLIFPULY"
	pulleyVersion = 1
)

// Relocation kinds and targets of a Pulley batch file.
const (
	pulleyAbs8     = 1
	pulleyAbs4     = 2
	pulleyHostCall = 3

	pulleyTargetImage = 0
	pulleyTargetName  = 1
)

// PulleyBatch is a Pulley batch file as read.
type PulleyBatch struct {
	Pointer32, BigEndian bool
	Image                []byte
	Functions            []function // addr is the offset in Image
	Relocs               []PulleyReloc
	Names                []string
	Entries              []uint32 // offsets in Image, 0 for none
}

// A PulleyReloc is one relocation the loader applies.
type PulleyReloc struct {
	Offset     uint32
	Kind       uint32
	Addend     int64
	TargetKind uint32
	Target     uint32
}

// ParsePulleyBatch reads a Pulley batch file (driver/PROTOCOL.md).
func ParsePulleyBatch(data []byte) (*PulleyBatch, error) {
	r := &reader{data: data}
	if string(r.bytes(8)) != pulleyMagic {
		return nil, fmt.Errorf("not a Pulley batch file (magic %q)", data[:min(8, len(data))])
	}
	var h [8]uint32
	for i := range h {
		h[i] = r.u32()
	}
	if r.err != nil {
		return nil, fmt.Errorf("Pulley batch header: %w", r.err)
	}
	if h[0] != pulleyVersion {
		return nil, fmt.Errorf("Pulley batch version %d, want %d", h[0], pulleyVersion)
	}
	flags, imageSize, nfunc, nreloc, nname, nentry := h[1], h[2], h[3], h[4], h[5], h[6]
	if imageSize > pulleyImageLimit {
		return nil, fmt.Errorf("Pulley image of %d bytes: over the limit of %d", imageSize, pulleyImageLimit)
	}
	b := &PulleyBatch{Pointer32: flags&1 != 0, BigEndian: flags&2 != 0}
	b.Image = slices.Clone(r.bytes(int(imageSize)))
	for i := uint32(0); i < nfunc && r.err == nil; i++ {
		off, size := r.u32(), r.u32()
		name := string(r.bytes(int(r.u32())))
		if r.err == nil && uint64(off)+uint64(size) > uint64(imageSize) {
			return nil, fmt.Errorf("Pulley batch: function %s at %d+%d outside the image", name, off, size)
		}
		b.Functions = append(b.Functions, function{name: name, addr: uint64(off), size: uint64(size)})
	}
	for i := uint32(0); i < nreloc && r.err == nil; i++ {
		rel := PulleyReloc{Offset: r.u32(), Kind: r.u32(), Addend: int64(r.u64()), TargetKind: r.u32(), Target: r.u32()}
		b.Relocs = append(b.Relocs, rel)
	}
	for i := uint32(0); i < nname && r.err == nil; i++ {
		b.Names = append(b.Names, string(r.bytes(int(r.u32()))))
	}
	for i := uint32(0); i < nentry && r.err == nil; i++ {
		e := r.u32()
		if r.err == nil && e >= imageSize && e != 0 {
			return nil, fmt.Errorf("Pulley batch: entry %d at %d outside the image", i, e)
		}
		b.Entries = append(b.Entries, e)
	}
	if r.err != nil {
		return nil, fmt.Errorf("Pulley batch: %w", r.err)
	}
	if r.off != len(data) {
		return nil, fmt.Errorf("Pulley batch: %d bytes after the entries", len(data)-r.off)
	}
	for _, rel := range b.Relocs {
		if err := b.checkReloc(rel); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (b *PulleyBatch) checkReloc(r PulleyReloc) error {
	size := map[uint32]uint64{pulleyAbs8: 8, pulleyAbs4: 4, pulleyHostCall: 1}[r.Kind]
	switch {
	case size == 0:
		return fmt.Errorf("Pulley batch: relocation kind %d unknown", r.Kind)
	case uint64(r.Offset)+size > uint64(len(b.Image)):
		return fmt.Errorf("Pulley batch: relocation at %d outside the image", r.Offset)
	case r.TargetKind == pulleyTargetImage && r.Target >= uint32(len(b.Image)):
		return fmt.Errorf("Pulley batch: relocation to %d outside the image", r.Target)
	case r.TargetKind == pulleyTargetName && int(r.Target) >= len(b.Names):
		return fmt.Errorf("Pulley batch: relocation to name %d of %d", r.Target, len(b.Names))
	case r.TargetKind != pulleyTargetImage && r.TargetKind != pulleyTargetName:
		return fmt.Errorf("Pulley batch: relocation target kind %d unknown", r.TargetKind)
	}
	return nil
}

// reader reads little-endian fields, remembering the first overrun.
type reader struct {
	data []byte
	off  int
	err  error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || r.off+n > len(r.data) {
		r.err = fmt.Errorf("truncated at offset %d (want %d bytes of %d)", r.off, n, len(r.data))
		return nil
	}
	s := r.data[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u32() uint32 {
	if s := r.bytes(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if s := r.bytes(8); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

// pulleyHost is what an Executable of Pulley code knows beyond the image.
type pulleyHost struct {
	// hostCalls are the call_indirect_host sites: image address → the
	// name the driver called.
	hostCalls map[uint64]string
}

// LinkPulley loads the Pulley batch file at batchPath for arch (a Pulley
// target) into an Executable run by runner (cliff-pulley): the image at
// PulleyImageBase with its Abs8 and Abs4 relocations applied. A
// relocation to a name the batch does not define (an imported symbol)
// is refused: Pulley code reaches no host symbol.
func LinkPulley(a, batchPath, runner string) (*Executable, error) {
	if !arch.IsBytecode(a) {
		return nil, fmt.Errorf("LinkPulley: %s is not a Pulley target", a)
	}
	data, err := os.ReadFile(batchPath)
	if err != nil {
		return nil, err
	}
	b, err := ParsePulleyBatch(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", batchPath, err)
	}
	info, _ := arch.Lookup(a)
	if b.Pointer32 != (info.PointerBytes == 4) || b.BigEndian != strings.HasSuffix(a, "be") {
		return nil, fmt.Errorf("%s: a Pulley batch for another target than %s", batchPath, a)
	}
	if _, err := os.Stat(runner); err != nil {
		return nil, fmt.Errorf("run Pulley code: %w (cliff-pulley is built with the driver: make, or cliff-cranelift build)", err)
	}
	image := b.Image
	host := &pulleyHost{hostCalls: map[uint64]string{}}
	var refused []string
	for _, r := range b.Relocs {
		if r.Kind == pulleyHostCall {
			host.hostCalls[PulleyImageBase+uint64(r.Offset)] = b.Names[r.Target]
			continue
		}
		if r.TargetKind == pulleyTargetName {
			if name := b.Names[r.Target]; !slices.Contains(refused, name) {
				refused = append(refused, name)
			}
			continue
		}
		// Pulley's immediates are little-endian on every Pulley target:
		// the relocated fields are operands of xconst32 and xconst64.
		v := uint64(int64(PulleyImageBase) + int64(r.Target) + r.Addend)
		if r.Kind == pulleyAbs8 {
			binary.LittleEndian.PutUint64(image[r.Offset:], v)
		} else {
			binary.LittleEndian.PutUint32(image[r.Offset:], uint32(v))
		}
	}
	if len(refused) > 0 {
		sort.Strings(refused)
		return nil, &RefusedSymbolsError{Symbols: refused}
	}
	e := &Executable{Arch: a, Path: batchPath, program: runner, pulley: host, symbols: map[string]uint64{}}
	e.segments = []segment{{addr: PulleyImageBase, data: image, memSize: uint64(len(image))}}
	for _, f := range b.Functions {
		f.addr += PulleyImageBase
		e.funcs = append(e.funcs, f)
		e.symbols[f.name] = f.addr
	}
	sort.Slice(e.funcs, func(i, j int) bool { return e.funcs[i].addr < e.funcs[j].addr })
	for _, off := range b.Entries {
		if off == 0 {
			e.entries = append(e.entries, 0)
		} else {
			e.entries = append(e.entries, PulleyImageBase+uint64(off))
		}
	}
	return e, nil
}

// pulleyTrapCodes are the CLIF trap codes of the interpreter's own trap
// kinds, for a trap with no trap site at its PC.
var pulleyTrapCodes = map[string]string{
	"divide_by_zero":            "int_divz",
	"integer_overflow":          "int_ovf",
	"bad_conversion_to_integer": "bad_toint",
	"memory_out_of_bounds":      "heap_oob",
	"stack_overflow":            "stk_ovf",
}

// pulleyOutcome interprets the lines only cliff-pulley writes; ok is
// false for the harness's own statuses.
func (e *Executable) pulleyOutcome(l line, tm *trapMap) (Outcome, bool, error) {
	switch l.status {
	case "trap":
		where := e.describePC(l.pc)
		if code, ok := tm.codes[l.pc]; ok {
			return Outcome{Status: record.StatusTrap, Trap: code, PC: l.pc, Message: fmt.Sprintf("trap %s (Pulley trap %s at %s)", code, l.syscall, where)}, true, nil
		}
		if code, ok := pulleyTrapCodes[l.syscall]; ok {
			return Outcome{Status: record.StatusTrap, Trap: code, PC: l.pc, Message: fmt.Sprintf("trap %s (Pulley %s at %s)", code, l.syscall, where)}, true, nil
		}
		if l.syscall == "disabled_opcode" {
			return Outcome{Status: record.StatusUnsupported, PC: l.pc, Message: fmt.Sprintf("the Pulley interpreter was built without the opcode at %s", where)}, true, nil
		}
		return Outcome{Status: record.StatusCrash, PC: l.pc, Message: fmt.Sprintf("Pulley trap (%s) at %s, which is no trap site", l.syscall, where)}, true, nil
	case "host":
		name := "an unknown host function"
		for site, n := range e.pulley.hostCalls {
			if site < l.pc && l.pc-site <= 8 {
				name = n
			}
		}
		return Outcome{Status: record.StatusUnsupported, PC: l.pc, Message: fmt.Sprintf("calls %s (call_indirect_host %d at %s): cliff-pulley provides no host functions", name, l.code, e.describePC(l.pc))}, true, nil
	case "panic":
		msg := string(bytes.TrimSpace(l.results))
		return Outcome{Status: record.StatusCrash, Message: "the Pulley interpreter panicked: " + msg}, true, nil
	case "fault":
		sig := signalName(l.code)
		return Outcome{Status: record.StatusCrash, Signal: sig, Message: fmt.Sprintf("%s in the Pulley interpreter, address 0x%x (a load or store of the bytecode; its PC is unknown)", sig, l.addr)}, true, nil
	}
	return Outcome{}, false, nil
}

// Pulley reports whether e is Pulley code, which cliff-pulley runs.
func (e *Executable) Pulley() bool { return e.pulley != nil }
