package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
var pinnedRegFlags = map[Arch][]string{X86_64: {"-ffixed-r15"}, AArch64: {"-ffixed-x21"}}

// harnessFlags are the flags that compile harness.c for arch.
func harnessFlags(arch Arch) []string {
	return append(append([]string{}, harnessCFlags...), pinnedRegFlags[arch]...)
}

// Time limits of the external tools; they normally take well under a second.
const (
	compileTimeout = 60 * time.Second
	linkTimeout    = 60 * time.Second
)

// Link links the batch object objPath with the harness into the static
// executable exePath, for arch, and reads its symbol table. An object
// that leaves a symbol undefined that the harness does not provide
// (Cranelift's libcalls, see libcalls.go) is refused before the linker
// runs, with a *RefusedSymbolsError: a static link would resolve any libc
// function. Another link error (a bad object) comes back with the
// linker's message.
func Link(ctx context.Context, arch Arch, objPath, exePath string) (*Executable, error) {
	return link(ctx, arch, objPath, exePath, nil)
}

// link is Link that also lets the object use the symbols alsoAllowed (for
// the tests' fake batches, which call libc).
func link(ctx context.Context, arch Arch, objPath, exePath string, alsoAllowed []string) (*Executable, error) {
	if _, err := ParseArch(string(arch)); err != nil {
		return nil, err
	}
	if err := checkImports(arch, objPath, alsoAllowed); err != nil {
		return nil, err
	}
	harnessObj, err := harnessObject(ctx, arch)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, linkTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, arch.Compiler(), "-static", "-no-pie", "-o", exePath, harnessObj, objPath, "-lm")
	cmd.Env = scratchEnv(filepath.Dir(exePath))
	if out, err := cmd.CombinedOutput(); err != nil {
		if tc := toolchainFailure(arch, "link a static executable with "+arch.Compiler(), out, err, ctx); tc.Package != "" || ctx.Err() != nil {
			// A missing C library or start file, or a linker that
			// hangs: the machine's fault, whatever the object holds.
			return nil, tc
		}
		return nil, fmt.Errorf("link %s for %s: %w\n%s", objPath, arch, err, bytes.TrimSpace(out))
	}
	return Open(arch, exePath)
}

// scratchEnv is the environment of a C toolchain run whose temporary files
// must go to dir, a scratch directory its caller removes: a gcc killed
// mid-way (a cancelled run) cannot remove its cc*.s and cc*.res, and would
// leave them in /tmp.
func scratchEnv(dir string) []string {
	return append(os.Environ(), "TMPDIR="+dir)
}

// cachedObjects maps a compiler to its harness object path, so each
// process asks each compiler for its version only once.
var cachedObjects sync.Map // compiler name → *cachedObject

type cachedObject struct {
	mu   sync.Mutex
	path string // set once the object exists
}

// harnessObject returns the path of harness.c compiled by arch's
// compiler, compiling it unless the cache has it.
func harnessObject(ctx context.Context, arch Arch) (string, error) {
	return cachedBuild(ctx, arch, &cachedObjects, "harness", ".o", harnessSource, append(harnessFlags(arch), "-c"))
}

// cachedBuild returns the path of what arch's compiler makes of source
// with args (an object with -c, else a program), building it unless the
// cache has it; memo remembers the path per compiler for this process.
// The cache key is the hash of the source, the arguments and the
// compiler's identity; the output is written to a temporary file and
// renamed, so concurrent processes never see half of it.
func cachedBuild(ctx context.Context, arch Arch, memo *sync.Map, name, ext string, source []byte, args []string) (string, error) {
	compiler := arch.Compiler()
	v, _ := memo.LoadOrStore(compiler, &cachedObject{})
	c := v.(*cachedObject)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path != "" {
		return c.path, nil
	}
	ctx, cancel := context.WithTimeout(ctx, compileTimeout)
	defer cancel()
	identity, err := compilerIdentity(ctx, compiler)
	if err != nil {
		return "", &ToolchainError{Arch: arch, Step: "C compiler " + compiler, Detail: err.Error(), Package: arch.compilerPackage()}
	}
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, part := range [][]byte{source, []byte(strings.Join(args, " ")), identity} {
		h.Write(part)
		h.Write([]byte{0})
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%s-%s%s", name, compiler, hex.EncodeToString(h.Sum(nil))[:16], ext))
	if _, err := os.Stat(path); err == nil {
		c.path = path
		return path, nil
	}
	if err := compileCached(ctx, arch, dir, path, name, ext, source, args); err != nil {
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

func compileCached(ctx context.Context, arch Arch, dir, path, name, ext string, source []byte, args []string) error {
	compiler := arch.Compiler()
	tmp, err := os.CreateTemp(dir, "."+name+"-*"+ext)
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
	cmd := exec.CommandContext(ctx, compiler, append(append([]string{}, args...), "-x", "c", "-o", tmpPath, "-")...)
	cmd.Env = scratchEnv(scratch)
	cmd.Stdin = bytes.NewReader(source)
	if out, err := cmd.CombinedOutput(); err != nil {
		return toolchainFailure(arch, "compile "+name+".c with "+compiler, out, err, ctx)
	}
	if ext == "" { // a program: CreateTemp made the file private
		if err := os.Chmod(tmpPath, 0o755); err != nil {
			return fmt.Errorf("harness cache: %w", err)
		}
	}
	if err := os.Rename(tmpPath, path); err != nil {
		return fmt.Errorf("harness cache: %w", err)
	}
	return nil
}
