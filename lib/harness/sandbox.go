package harness

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"os"
	"regexp"
	"strconv"
	"sync"
)

// Jobs run confined: compiled code, which can jump anywhere, must not be
// able to reach the system. Natively the harness runs under a seccomp
// filter that its children inherit (harness.c, confine): a job may only
// set its CPU-time limit, return from a signal handler and exit; a
// refused call becomes StatusUnsupported with the call's name. Under qemu-user a guest cannot install a filter
// (QEMU refuses it), so the emulator itself runs under csrc/sandbox.c,
// built for the host, whose filter and supervisor allow the harness what
// it needs and its children only what QEMU needs to run them: see that
// file. A child the sandbox stops is killed and named in the sandbox's
// log on stderr, which Run matches to the job.

//go:embed csrc/sandbox.c
var sandboxFile string

var sandboxSource = withSeccomp("sandbox.c", sandboxFile)

// cachedSandboxes maps the host compiler to the sandbox program's path.
var cachedSandboxes sync.Map

// sandboxProgram returns the path of the sandbox built for this host,
// building it unless the cache has it. A failure is a *ToolchainError
// for arch, the architecture whose code was to run.
func sandboxProgram(ctx context.Context, arch string) (string, error) {
	host := HostArch()
	path, err := cachedBuild(ctx, host, &cachedSandboxes, "sandbox", sandboxSource, harnessCFlags, nil)
	var tc *ToolchainError
	if errors.As(err, &tc) {
		tc.Arch = arch
		tc.Step += " (the emulator's sandbox)"
	}
	return path, err
}

// sandboxRefusal matches a line of the sandbox's log.
var sandboxRefusal = regexp.MustCompile(`^cliff-sandbox: process (\d+): (refused .*)$`)

// sandboxRefusals reads the sandbox's log from the harness's stderr: what
// it refused, by process id.
func sandboxRefusals(stderr *os.File) map[uint64]string {
	if _, err := stderr.Seek(0, 0); err != nil {
		return nil
	}
	var refusals map[uint64]string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		m := sandboxRefusal.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		pid, err := strconv.ParseUint(m[1], 10, 64)
		if err != nil {
			continue
		}
		if refusals == nil {
			refusals = map[uint64]string{}
		}
		refusals[pid] = m[2]
	}
	return refusals
}
