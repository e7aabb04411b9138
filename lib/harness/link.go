package harness

import (
	"bytes"
	"cliff/lib/arch"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

//go:embed csrc/seccomp.h
var seccompHeader string

//go:embed csrc/harness.c
var harnessFile string

// harnessSource is what the compiler reads for the harness: seccomp.h,
// then harness.c at its own line numbers, so messages point into it.
var harnessSource = withSeccomp("harness.c", harnessFile)

// withSeccomp puts csrc/seccomp.h in front of a C file of csrc.
func withSeccomp(name, text string) []byte {
	return []byte("#line 1 \"seccomp.h\"\n" + seccompHeader + "#line 1 \"" + name + "\"\n" + text)
}

// harnessCFlags compile harness.c (and sandbox.c); part of the cache key.
var harnessCFlags = []string{"-O2", "-std=gnu11", "-Wall", "-Wextra", "-fno-strict-aliasing"}

// pinnedRegFlags keep the harness's code off the register Cranelift pins
// with enable_pinned_reg (x86_64 r15, aarch64 x21; riscv64 and s390x have
// none): compiled code sets it and does not restore it, so the harness
// must keep nothing there across a call of an entry. (libc's functions
// save it as any callee-saved register, which is all they need.)
var pinnedRegFlags = map[string][]string{arch.X86_64: {"-ffixed-r15"}, arch.AArch64: {"-ffixed-x21"}}

// harnessFlags are the flags that compile harness.c for arch.
func harnessFlags(arch string) []string {
	return append(append([]string{}, harnessCFlags...), pinnedRegFlags[arch]...)
}

// Time limits of the external tools; they normally take well under a second.
const (
	compileTimeout = 60 * time.Second
	linkTimeout    = 60 * time.Second
)

// ImageBase is the address a batch image is linked for, and ImageSize
// the most it may span: the harness program's image region (harness.c),
// a section of its own that the kernel maps with the program, so that
// nothing else, the heap above all, can be there. It lies above each
// architecture's static harness (x86_64 and aarch64 0x400000, riscv64
// 0x10000, s390x 0x1000000, each about a megabyte) and within 128 MiB of
// it, the reach of aarch64's direct call.
const (
	ImageBase = 0x4000000
	ImageSize = 64 << 20
)

// Link links the batch object objPath into the batch image exePath, for
// arch, and reads its symbol table: the object's sections laid out at
// ImageBase, with its references to Cranelift's libcalls resolved to
// their addresses in the harness program (program.go), which Run loads
// the image into. An object that leaves a symbol undefined that the
// harness does not provide (see libcalls.go) is refused before the linker
// runs, with a *RefusedSymbolsError; the link defines no other symbol,
// so the image cannot reach the rest of the program's libc either.
// Another link error (a bad object) comes back with the linker's message.
//
// The harness program is built once per architecture and cached; a link
// is then the linker's pass over one object, about 20 times faster than
// the static link of harness, object and libc it replaces.
func Link(ctx context.Context, arch, objPath, exePath string) (*Executable, error) {
	return link(ctx, arch, objPath, exePath, nil)
}

// link is Link that also lets the object use the symbols alsoAllowed (for
// the tests' fake batches, which call libc): the harness program they
// run in is built with those symbols too.
func link(ctx context.Context, target, objPath, exePath string, alsoAllowed []string) (*Executable, error) {
	if _, err := ParseArch(target); err != nil {
		return nil, err
	}
	if err := checkImports(target, objPath, alsoAllowed); err != nil {
		return nil, err
	}
	program, err := harnessProgram(ctx, target, alsoAllowed)
	if err != nil {
		return nil, err
	}
	defsyms, err := program.definitions(target, alsoAllowed)
	if err != nil {
		return nil, err
	}
	linker, err := linkerOf(ctx, target)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, linkTimeout)
	defer cancel()
	// -N: one segment, not page-aligned, writable and executable: the
	// harness maps it so and needs no page-granular layout.
	args := append([]string{"-N", "--no-warn-rwx-segments", "-e", "0", fmt.Sprintf("-Ttext=0x%x", ImageBase)}, defsyms...)
	if target == arch.RISCV64 {
		// Relaxation would turn an object's accesses of small data
		// into gp-relative ones, with the image's __global_pointer$;
		// but the code runs with the harness's gp. (Cranelift's code
		// asks for none; C objects compiled by gcc do.)
		args = append(args, "--no-relax")
	}
	cmd := exec.CommandContext(ctx, linker, append(args, "-o", exePath, objPath)...)
	cmd.Env = scratchEnv(filepath.Dir(exePath))
	if out, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return nil, toolchainFailure(target, "link a batch image with "+linker, out, err, ctx)
		}
		return nil, fmt.Errorf("link %s for %s: %w\n%s", objPath, target, err, bytes.TrimSpace(out))
	}
	e, err := Open(target, exePath)
	if err != nil {
		return nil, err
	}
	e.program = program.path
	e.funcs = mergeFuncs(e.funcs, program.funcs)
	return e, nil
}

// linkers maps a compiler to the path of its linker.
var linkers sync.Map // compiler name → string

// linkerOf is the path of the linker arch's compiler drives (ld of the
// same binutils), asked once per process.
func linkerOf(ctx context.Context, arch string) (string, error) {
	compiler := Compiler(arch)
	if path, ok := linkers.Load(compiler); ok {
		return path.(string), nil
	}
	ctx, cancel := context.WithTimeout(ctx, compileTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, compiler, "-print-prog-name=ld").Output()
	name := string(bytes.TrimSpace(out))
	if err == nil {
		name, err = exec.LookPath(name)
	}
	if err != nil {
		return "", &ToolchainError{Arch: arch, Step: "the linker of " + compiler, Detail: err.Error(), Package: compilerPackage(arch)}
	}
	linkers.Store(compiler, name)
	return name, nil
}

// scratchEnv is the environment of a C toolchain run whose temporary files
// must go to dir, a scratch directory its caller removes: a gcc killed
// mid-way (a cancelled run) cannot remove its cc*.s and cc*.res, and would
// leave them in /tmp.
func scratchEnv(dir string) []string {
	return append(os.Environ(), "TMPDIR="+dir)
}

type cachedFile struct {
	mu   sync.Mutex
	path string // set once the program exists
}

// cachedBuild returns the path of the program arch's compiler makes of
// source with args, linked with the libraries libs ("-lm"), building it
// unless the cache has it; memo remembers the path per compiler, args and
// libs for this process.
// The cache key is the hash of the source, the arguments and the
// compiler's identity; the output is written to a temporary file and
// renamed, so concurrent processes never see half of it.
func cachedBuild(ctx context.Context, arch string, memo *sync.Map, name string, source []byte, args, libs []string) (string, error) {
	compiler := Compiler(arch)
	v, _ := memo.LoadOrStore(compiler+"\x00"+strings.Join(args, " ")+"\x00"+strings.Join(libs, " "), &cachedFile{})
	c := v.(*cachedFile)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path != "" {
		return c.path, nil
	}
	ctx, cancel := context.WithTimeout(ctx, compileTimeout)
	defer cancel()
	identity, err := compilerIdentity(ctx, compiler)
	if err != nil {
		return "", &ToolchainError{Arch: arch, Step: "C compiler " + compiler, Detail: err.Error(), Package: compilerPackage(arch)}
	}
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, part := range [][]byte{source, []byte(strings.Join(args, " ")), []byte(strings.Join(libs, " ")), identity} {
		h.Write(part)
		h.Write([]byte{0})
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%s-%s", name, compiler, hex.EncodeToString(h.Sum(nil))[:16]))
	if _, err := os.Stat(path); err == nil {
		c.path = path
		return path, nil
	}
	if err := compileCached(ctx, arch, dir, path, name, source, args, libs); err != nil {
		return "", err
	}
	c.path = path
	return path, nil
}

// compilerIdentity is what distinguishes one compiler build from another:
// its resolved path and its version banner.
func compilerIdentity(ctx context.Context, compiler string) ([]byte, error) {
	resolved, err := exec.LookPath(compiler)
	if err != nil {
		return nil, fmt.Errorf("harness compiler: %w", err)
	}
	out, err := exec.CommandContext(ctx, resolved, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w", compiler, err)
	}
	return append([]byte(resolved+"\n"), out...), nil
}

func cacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir() // no $HOME: still cache, per boot
	}
	dir := filepath.Join(base, "cliff", "harness")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("harness cache: %w", err)
	}
	return dir, nil
}

func compileCached(ctx context.Context, arch, dir, path, name string, source []byte, args, libs []string) error {
	compiler := Compiler(arch)
	tmp, err := os.CreateTemp(dir, "."+name+"-*")
	if err != nil {
		return fmt.Errorf("harness cache: %w", err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpPath) // a no-op after the rename

	scratch, err := os.MkdirTemp("", "cliff-harness-")
	if err != nil {
		return fmt.Errorf("harness cache: %w", err)
	}
	defer os.RemoveAll(scratch)
	cmd := exec.CommandContext(ctx, compiler, slices.Concat(args, []string{"-x", "c", "-o", tmpPath, "-"}, libs)...)
	cmd.Env = scratchEnv(scratch)
	cmd.Stdin = bytes.NewReader(source)
	if out, err := cmd.CombinedOutput(); err != nil {
		return toolchainFailure(arch, "build the "+name+" program with "+compiler, out, err, ctx)
	}
	if err := os.Chmod(tmpPath, 0o755); err != nil { // CreateTemp made it private
		return fmt.Errorf("harness cache: %w", err)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		return fmt.Errorf("harness cache: %w", err)
	}
	return nil
}
