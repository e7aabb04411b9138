package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"cliff/lib/arch"
)

// A ToolchainError is a failure of this machine's tools, not of the code
// under test: a compiler, C library or emulator that is missing or
// broken. cliff-run reports it once per architecture as a harness error
// and never as a verdict on Cranelift.
type ToolchainError struct {
	Arch    string
	Step    string // what failed: "build the harness program with aarch64-linux-gnu-gcc"
	Detail  string // the tool's first error line
	Package string // the Debian package that provides the missing piece, if known
}

func (e *ToolchainError) Error() string {
	msg := fmt.Sprintf("%s: %s: %s", e.Arch, e.Step, e.Detail)
	if e.Package != "" {
		msg += " (install the Debian package " + e.Package + ")"
	}
	return msg
}

// compilerPackage and libcPackage are the Debian packages that provide
// a's C compiler and its static C library: the host's own, or the cross
// ones (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross).
func compilerPackage(a string) string {
	if Native(a) {
		return "gcc"
	}
	return "gcc-" + strings.ReplaceAll(a, "_", "-") + "-linux-gnu"
}

func libcPackage(a string) string {
	if Native(a) {
		return "libc6-dev"
	}
	info, _ := arch.Lookup(a)
	return "libc6-dev-" + info.Debian + "-cross"
}

// emulatorPackage provides every qemu-<arch>-static.
const emulatorPackage = "qemu-user-static"

// checkSource is a batch object in C with one entry that copies its 8
// argument bytes to its results: what cliff-driver's objects look like to
// the harness, without Cranelift.
const checkSource = `#include <string.h>
static void echo(void *args, void *results) { memcpy(results, args, 8); }
const unsigned long long cliff_entry_count = 1;
void *const cliff_entries[1] = { (void *)echo };
`

// checkTimeout bounds the run of the check's one job.
const checkTimeout = 30 * time.Second

// CheckToolchain proves that code for arch can be built and run here the
// way cliff-run does it: it compiles the harness (into the cache, as
// Link does), links it with a small batch object built by the same
// compiler into a static executable, and runs one job natively or under
// qemu-user, checking its answer. The error is a *ToolchainError naming
// the missing piece and the Debian package that provides it.
func CheckToolchain(ctx context.Context, arch string) error {
	if _, err := ParseArch(arch); err != nil {
		return err
	}
	compiler := Compiler(arch)
	if _, err := exec.LookPath(compiler); err != nil {
		return &ToolchainError{Arch: arch, Step: "C compiler " + compiler, Detail: "not installed", Package: compilerPackage(arch)}
	}
	where := Placement{}
	if !Native(arch) {
		where.Emulated = true
		if _, err := EmulatorPath(arch); err != nil {
			detail := "not installed"
			if os.Getenv(QemuDirEnv) != "" {
				detail = err.Error()
			}
			return &ToolchainError{Arch: arch, Step: "emulator " + EmulatorName(arch), Detail: detail, Package: emulatorPackage}
		}
	}
	dir, err := os.MkdirTemp("", "cliff-check-")
	if err != nil {
		return fmt.Errorf("%s: toolchain check: %w", arch, err)
	}
	defer os.RemoveAll(dir)

	obj := filepath.Join(dir, "batch.o")
	cctx, cancel := context.WithTimeout(ctx, compileTimeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, compiler, "-O1", "-c", "-x", "c", "-o", obj, "-")
	cmd.Env = scratchEnv(dir)
	cmd.Stdin = strings.NewReader(checkSource)
	if out, err := cmd.CombinedOutput(); err != nil {
		return toolchainFailure(arch, "compile a C file with "+compiler, out, err, cctx)
	}
	exe, err := Link(ctx, arch, obj, filepath.Join(dir, "batch"))
	if err != nil {
		// Nothing of Cranelift's is in this link: whatever failed is the
		// machine's.
		var tc *ToolchainError
		if errors.As(err, &tc) {
			return err
		}
		return &ToolchainError{Arch: arch, Step: "link a batch image with " + compiler, Detail: firstErrorLine([]byte(err.Error()))}
	}
	rctx, cancel2 := context.WithTimeout(ctx, checkTimeout)
	defer cancel2()
	want := binary.LittleEndian.AppendUint64(nil, 0x0123456789abcdef)
	outcomes, err := exe.Run(rctx, where, []Job{{Entry: 0, Args: want, ResultSize: 8}}, 5*time.Second, nil)
	if err != nil {
		return &ToolchainError{Arch: arch, Step: "run a static executable " + where.String(), Detail: err.Error()}
	}
	if o := outcomes[0]; o.Status != "ok" || !bytes.Equal(o.Results, want) {
		return &ToolchainError{Arch: arch, Step: "run a static executable " + where.String(), Detail: fmt.Sprintf("the job came back %s %x %s, want ok %x", o.Status, o.Results, o.Message, want)}
	}
	return nil
}

// CheckToolchainCached is CheckToolchain, remembered on disk: a check that
// passed is not repeated while the harness, the compiler (its path and
// version) and the emulator (its path, size and time) stay the same, so
// that each of a campaign's many cliff-run processes does not pay for it.
// A C library removed after the check still cannot be blamed on Cranelift:
// Link reports a missing library or start file as a *ToolchainError.
func CheckToolchainCached(ctx context.Context, arch string) error {
	key, err := checkKey(ctx, arch)
	if err != nil {
		return CheckToolchain(ctx, arch) // says what is missing
	}
	dir, err := cacheDir()
	if err != nil {
		return err
	}
	marker := filepath.Join(dir, "checked-"+arch+"-"+key)
	if _, err := os.Stat(marker); err == nil {
		return nil
	}
	if err := CheckToolchain(ctx, arch); err != nil {
		return err
	}
	os.WriteFile(marker, nil, 0o644) // only a cache: a failure costs a check next time
	return nil
}

// checkKey identifies the tools a check ran with.
func checkKey(ctx context.Context, arch string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, compileTimeout)
	defer cancel()
	identity, err := compilerIdentity(cctx, Compiler(arch))
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, part := range [][]byte{harnessSource, sandboxSource, []byte(checkSource), []byte(strings.Join(harnessFlags(arch), " ")), identity} {
		h.Write(part)
		h.Write([]byte{0})
	}
	if !Native(arch) {
		path, err := EmulatorPath(arch)
		if err != nil {
			return "", err
		}
		info, err := os.Stat(path)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d %d", path, info.Size(), info.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// toolchainFailure makes a ToolchainError of a compiler or linker run,
// with its first error line and the package that would fix it.
func toolchainFailure(arch, step string, out []byte, err error, ctx context.Context) *ToolchainError {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &ToolchainError{Arch: arch, Step: step, Detail: "timed out"}
	}
	detail := firstErrorLine(out)
	if detail == "" {
		detail = err.Error()
	}
	return &ToolchainError{Arch: arch, Step: step, Detail: detail, Package: packageFor(arch, detail)}
}

// firstErrorLine is the first line of a compiler's output that reports an
// error, or its first line.
func firstErrorLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, l := range lines {
		if strings.Contains(l, "error:") || strings.Contains(l, "cannot find") || strings.Contains(l, "No such file") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[0])
}

// packageFor guesses which package a compiler or linker error asks for:
// a missing header, start file or library is the C library's.
func packageFor(arch, detail string) string {
	for _, sign := range []string{"No such file or directory", "no include path", "cannot find", "crt1.o", "crti.o", "libc.a"} {
		if strings.Contains(detail, sign) {
			return libcPackage(arch)
		}
	}
	return ""
}
