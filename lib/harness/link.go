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

//go:embed csrc/harness.c
var harnessSource []byte

// harnessCFlags compile harness.c; part of the cache key.
var harnessCFlags = []string{"-O2", "-std=gnu11", "-Wall", "-Wextra", "-fno-strict-aliasing"}

// Time limits of the external tools; they normally take well under a second.
const (
	compileTimeout = 60 * time.Second
	linkTimeout    = 60 * time.Second
)

// Link links the batch object objPath with the harness into the static
// executable exePath, for arch, and reads its symbol table. A link error
// (an undefined symbol, a bad object) comes back with the linker's message.
func Link(ctx context.Context, arch Arch, objPath, exePath string) (*Executable, error) {
	if _, err := ParseArch(string(arch)); err != nil {
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

// harnessObject returns the path of harness.c compiled by compiler,
// compiling it unless the cache has it. The cache key is the hash of the
// source, the flags and the compiler's identity; the object is written to
// a temporary file and renamed, so concurrent processes never see half an
// object.
func harnessObject(ctx context.Context, arch Arch) (string, error) {
	compiler := arch.Compiler()
	v, _ := cachedObjects.LoadOrStore(compiler, &cachedObject{})
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
	for _, part := range [][]byte{harnessSource, []byte(strings.Join(harnessCFlags, " ")), identity} {
		h.Write(part)
		h.Write([]byte{0})
	}
	path := filepath.Join(dir, fmt.Sprintf("harness-%s-%s.o", compiler, hex.EncodeToString(h.Sum(nil))[:16]))
	if _, err := os.Stat(path); err == nil {
		c.path = path
		return path, nil
	}
	if err := compileHarness(ctx, arch, dir, path); err != nil {
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

func compileHarness(ctx context.Context, arch Arch, dir, path string) error {
	compiler := arch.Compiler()
	tmp, err := os.CreateTemp(dir, ".harness-*.o")
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
	args := append(append([]string{}, harnessCFlags...), "-c", "-x", "c", "-o", tmpPath, "-")
	cmd := exec.CommandContext(ctx, compiler, args...)
	cmd.Env = scratchEnv(scratch)
	cmd.Stdin = bytes.NewReader(harnessSource)
	if out, err := cmd.CombinedOutput(); err != nil {
		return toolchainFailure(arch, "compile harness.c with "+compiler, out, err, ctx)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		return fmt.Errorf("harness cache: %w", err)
	}
	return nil
}
