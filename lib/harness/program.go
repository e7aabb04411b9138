package harness

import (
	"context"
	"debug/elf"
	"fmt"
	"slices"
	"sort"
	"sync"
)

// The harness program is harness.c linked statically for one
// architecture, once, and cached (cachedBuild). It loads each batch image
// that Link makes and runs its jobs. A batch image is linked against the
// program's addresses: each libcall symbol of the object is defined
// (--defsym) as the address of its wrapper in the program,
// cliff_libcall_<name>, or of the symbol itself where harness.c defines
// it (__cranelift_x86_pshufb).

// A program is a built harness program and what a link needs of it.
type program struct {
	path    string
	symbols map[string]elf.Symbol // defined symbols by name
	funcs   []function            // function symbols by address, to name a PC in libc
}

// cachedPrograms maps a compiler and its arguments to the *program built
// with them, for this process.
var cachedPrograms sync.Map

// programs maps a program's path to its *program, read once.
var programs sync.Map

// harnessProgram returns the harness program for arch, building it unless
// the cache has it. The symbols extra (the tests' fake batches call libc)
// are linked into it, so that an image can be linked against them.
func harnessProgram(ctx context.Context, arch string, extra []string) (*program, error) {
	// The image region (harness.c) at ImageBase; it is writable and
	// executable on purpose.
	args := append(harnessFlags(arch), "-static", "-no-pie",
		fmt.Sprintf("-Wl,--section-start=.cliff_image=0x%x", ImageBase), "-Wl,--no-warn-rwx-segments")
	for _, symbol := range extra {
		args = append(args, "-Wl,-u,"+symbol)
	}
	path, err := cachedBuild(ctx, arch, &cachedPrograms, "harness", harnessSource, args, []string{"-lm"})
	if err != nil {
		return nil, err
	}
	if p, ok := programs.Load(path); ok {
		return p.(*program), nil
	}
	p, err := readProgram(arch, path)
	if err != nil {
		return nil, err
	}
	if s, ok := p.symbols["cliff_image"]; !ok || s.Value != ImageBase || s.Size != ImageSize {
		return nil, fmt.Errorf("harness program %s: its image region is not %d bytes at 0x%x (symbol cliff_image: %+v)", path, ImageSize, ImageBase, s)
	}
	programs.Store(path, p)
	return p, nil
}

// readProgram reads a harness program's symbol table.
func readProgram(arch, path string) (*program, error) {
	f, byName, funcs, err := openSymbols(arch, path)
	if err != nil {
		return nil, fmt.Errorf("harness program: %w", err)
	}
	f.Close()
	return &program{path: path, symbols: byName, funcs: funcs}, nil
}

// definitions are the linker options that define, for an image, each
// symbol the harness provides for arch and each of extra, at its address
// in the program. An IFUNC cannot be one: its symbol is the resolver.
func (p *program) definitions(arch string, extra []string) ([]string, error) {
	var defs []string
	for _, name := range append(providedFor(arch), extra...) {
		if name == "_GLOBAL_OFFSET_TABLE_" {
			continue // the linker makes one for an object that uses it
		}
		s, ok := p.symbols["cliff_libcall_"+name]
		if !ok {
			s, ok = p.symbols[name]
		}
		if !ok && slices.Contains(extra, name) {
			continue // the link reports the undefined reference
		}
		if !ok {
			return nil, fmt.Errorf("harness program %s: no symbol %s", p.path, name)
		}
		if elf.ST_TYPE(s.Info) == elf.STT_GNU_IFUNC {
			return nil, fmt.Errorf("harness program %s: %s is an IFUNC (a resolver), not a function an image can call", p.path, name)
		}
		defs = append(defs, fmt.Sprintf("--defsym=%s=0x%x", name, s.Value))
	}
	return defs, nil
}

// mergeFuncs merges two address-sorted function lists.
func mergeFuncs(a, b []function) []function {
	all := append(append(make([]function, 0, len(a)+len(b)), a...), b...)
	sort.Slice(all, func(i, j int) bool { return all[i].addr < all[j].addr })
	return all
}
