package harness

import (
	"cliff/lib/arch"
	"debug/elf"
	"fmt"
	"sort"
)

// An Executable is a linked batch image and the harness program that
// runs it: the image's segments, its entries and the symbol table (the
// image's and, through the link, the harness's), which Run needs to turn
// a faulting PC into a trap site.
type Executable struct {
	Arch string
	Path string // the batch image
	// IsolateJobs runs every job in its own child process. By default
	// consecutive jobs with the same entry (a case's input vectors) share
	// one until a job fails: far cheaper under qemu, but a call that
	// corrupts memory could affect the next call of the same entry.
	IsolateJobs bool
	// unconfined runs the jobs without the seccomp filter or the
	// emulator's sandbox: only for the tests of what the harness does
	// with jobs that call libc (abort, kill).
	unconfined bool

	program  string            // the harness program, which loads the image
	segments []segment         // what the harness loads
	entries  []uint64          // address of each entry; 0 for a module that failed
	symbols  map[string]uint64 // every named symbol's address
	funcs    []function        // function symbols by address, to name a PC
	// pulley is set for Pulley code, which cliff-pulley runs (pulley.go).
	pulley *pulleyHost
}

// elfMachines are the ELF machine numbers of the architectures.
var elfMachines = map[string]elf.Machine{
	arch.X86_64:  elf.EM_X86_64,
	arch.AArch64: elf.EM_AARCH64,
	arch.RISCV64: elf.EM_RISCV,
	arch.S390X:   elf.EM_S390,
}

// A segment is a loadable piece of the image at its linked address.
type segment struct {
	addr    uint64
	data    []byte // the bytes in the file; the rest of memSize is zero
	memSize uint64
}

type function struct {
	name       string
	addr, size uint64
}

// Open reads a batch image produced by Link.
func Open(arch, path string) (*Executable, error) {
	f, byName, funcs, err := openSymbols(arch, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	e := &Executable{Arch: arch, Path: path, symbols: make(map[string]uint64, len(byName)), funcs: funcs}
	for name, s := range byName {
		e.symbols[name] = s.Value
	}
	for _, p := range f.Progs {
		if p.Type != elf.PT_LOAD || p.Memsz == 0 {
			continue
		}
		if p.Filesz > 1<<30 || p.Memsz > 1<<30 {
			return nil, fmt.Errorf("%s: a segment of %d bytes, not a batch image", path, p.Memsz)
		}
		data := make([]byte, p.Filesz)
		if _, err := p.ReadAt(data, 0); err != nil && p.Filesz > 0 {
			return nil, fmt.Errorf("%s: segment at 0x%x: %w", path, p.Vaddr, err)
		}
		e.segments = append(e.segments, segment{addr: p.Vaddr, data: data, memSize: p.Memsz})
	}

	countData, err := symbolData(f, byName, "cliff_entry_count", 8)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	count := f.ByteOrder.Uint64(countData)
	if count > 1<<24 {
		return nil, fmt.Errorf("%s: cliff_entry_count is %d, not a plausible batch size", path, count)
	}
	entryData, err := symbolData(f, byName, "cliff_entries", 8*count)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	e.entries = make([]uint64, count)
	for i := range e.entries {
		e.entries[i] = f.ByteOrder.Uint64(entryData[8*i:])
	}
	return e, nil
}

// openSymbols opens the ELF file at path, checks that it is arch's, and
// reads its defined symbols by name and its function symbols by address
// (to name a PC). The caller closes the file.
func openSymbols(arch, path string) (*elf.File, map[string]elf.Symbol, []function, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if want := elfMachines[arch]; f.Machine != want {
		f.Close()
		return nil, nil, nil, fmt.Errorf("%s: an executable for %s, not %s", path, f.Machine, arch)
	}
	syms, err := f.Symbols()
	if err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("%s: symbol table: %w", path, err)
	}
	byName := make(map[string]elf.Symbol, len(syms))
	var funcs []function
	for _, s := range syms {
		if s.Name == "" || s.Section == elf.SHN_UNDEF {
			continue
		}
		byName[s.Name] = s
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			funcs = append(funcs, function{s.Name, s.Value, s.Size})
		}
	}
	sort.Slice(funcs, func(i, j int) bool { return funcs[i].addr < funcs[j].addr })
	return f, byName, funcs, nil
}

// symbolData is the first size bytes of a data symbol's contents.
func symbolData(f *elf.File, byName map[string]elf.Symbol, name string, size uint64) ([]byte, error) {
	s, ok := byName[name]
	if !ok {
		return nil, fmt.Errorf("no symbol %s (not a cliff batch object?)", name)
	}
	if int(s.Section) >= len(f.Sections) {
		return nil, fmt.Errorf("symbol %s is in no section", name)
	}
	sec := f.Sections[s.Section]
	if sec.Type == elf.SHT_NOBITS {
		return make([]byte, size), nil
	}
	data, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("symbol %s: %w", name, err)
	}
	off := s.Value - sec.Addr
	if s.Value < sec.Addr || off+size > uint64(len(data)) {
		return nil, fmt.Errorf("symbol %s: %d bytes at 0x%x lie outside section %s", name, size, s.Value, sec.Name)
	}
	return data[off : off+size], nil
}

// EntryCount is the number of entries (cliff_entry_count).
func (e *Executable) EntryCount() int { return len(e.entries) }

// EntryAddress is the address of entry i, 0 when its module did not compile.
func (e *Executable) EntryAddress(i int) uint64 { return e.entries[i] }

// Symbol is the address of a symbol of the executable.
func (e *Executable) Symbol(name string) (uint64, bool) {
	addr, ok := e.symbols[name]
	return addr, ok
}

// describePC names the function containing pc: "cliff_m3_f+0x1c".
func (e *Executable) describePC(pc uint64) string {
	i := sort.Search(len(e.funcs), func(i int) bool { return e.funcs[i].addr > pc }) - 1
	if i >= 0 && pc < e.funcs[i].addr+max(e.funcs[i].size, 1) {
		return fmt.Sprintf("%s+0x%x", e.funcs[i].name, pc-e.funcs[i].addr)
	}
	return "unknown function"
}
