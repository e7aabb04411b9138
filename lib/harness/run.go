package harness

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"cliff/lib/record"
)

// A Job is one call of an entry: the trampoline reads Args and writes
// ResultSize bytes of results.
type Job struct {
	Entry      int    // index into cliff_entries
	Args       []byte // little-endian argument values, as the trampoline loads them
	ResultSize int    // bytes the trampoline stores
}

// An Outcome is how one job ended.
type Outcome struct {
	Status  record.Status // StatusOK, StatusTrap, StatusCrash, StatusTimeout, StatusUnsupported or StatusHarnessError
	Results []byte        // for StatusOK: what the trampoline stored
	Trap    string        // for StatusTrap: the site's trap code
	Signal  string        // for StatusTrap and StatusCrash by a signal: "SIGSEGV"
	PC      uint64        // the faulting instruction's address, when known
	Message string        // what happened, for people: "SIGSEGV at cliff_m0_f+0x1c, address 0x10"
}

// maxBuffer is the harness's limit on one job's args and results.
const maxBuffer = 1 << 20

// Job file flags (see the package doc).
const (
	flagIsolate = 1
	flagConfine = 2
)

// Harness process exit statuses (see the package doc).
var harnessExitMeaning = map[int]string{
	2: "usage or unreadable job file",
	3: "malformed job file",
	4: "an entry outside the image",
	5: "system call failed",
	6: "cannot confine the jobs with a seccomp filter",
	7: "the emulator's sandbox could not be set up",
}

// Run runs the jobs in order, in child processes, each with a limit of
// perJob CPU time, where says: natively (only for the host's
// architecture) or under qemu-user with its -cpu model. A signal at one
// of the trap sites becomes StatusTrap. The jobs run confined (see
// sandbox.go): a system call they may not make is StatusUnsupported.
// Consecutive jobs with the same entry share a child until one fails
// (unless e.IsolateJobs); after a failure the next job gets a new child.
//
// There is one Outcome per job. If the harness itself dies, the jobs it
// did not answer are StatusHarnessError. The error is for a bad request
// (an entry out of range, an unknown trap symbol, no qemu) or a cancelled
// ctx.
func (e *Executable) Run(ctx context.Context, where Placement, jobs []Job, perJob time.Duration, traps []TrapSite) ([]Outcome, error) {
	if perJob <= 0 {
		return nil, fmt.Errorf("run %s: per-job limit %s is not positive", e.Path, perJob)
	}
	for i, j := range jobs {
		if j.Entry < 0 || j.Entry >= len(e.entries) {
			return nil, fmt.Errorf("run %s: job %d: entry %d out of range (the object has %d entries)", e.Path, i, j.Entry, len(e.entries))
		}
		if len(j.Args) > maxBuffer || j.ResultSize < 0 || j.ResultSize > maxBuffer {
			return nil, fmt.Errorf("run %s: job %d: args (%d bytes) or results (%d bytes) over the limit of %d", e.Path, i, len(j.Args), j.ResultSize, maxBuffer)
		}
	}
	if len(jobs) == 0 {
		return nil, nil
	}
	tm, err := e.trapMap(traps)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", e.Path, err)
	}
	name, args, err := e.command(ctx, where)
	if err != nil {
		return nil, err
	}
	var flags uint32
	if e.IsolateJobs {
		flags |= flagIsolate
	}
	if !where.Emulated && !e.unconfined {
		flags |= flagConfine
	}
	dir, err := os.MkdirTemp("", "cliff-run-")
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", e.Path, err)
	}
	defer os.RemoveAll(dir)
	jobFile := filepath.Join(dir, "jobs")
	if err := os.WriteFile(jobFile, e.encodeJobs(jobs, perJob, flags), 0o644); err != nil {
		return nil, fmt.Errorf("run %s: %w", e.Path, err)
	}
	// Files, not pipes: a job's child that outlives a dying harness would
	// hold a pipe open, and Wait would wait for it.
	stdout, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", e.Path, err)
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", e.Path, err)
	}
	defer stderr.Close()

	// The harness kills a child in which no job finished for one or two
	// backstop periods (2×limit+500ms of wall time each); this bounds the
	// whole run should the harness itself misbehave.
	overall := time.Duration(len(jobs))*(4*perJob+time.Second) + 30*time.Second
	runCtx, cancel := context.WithTimeout(ctx, overall)
	defer cancel()
	cmd := exec.CommandContext(runCtx, name, append(args, jobFile)...)
	// The harness and its children form a process group, killed as one.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Stdout, cmd.Stderr = stdout, stderr
	runErr := cmd.Run()
	if cmd.Process != nil {
		// A job's child outlives a harness that died; leave none behind.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("run %s: %w", e.Path, ctx.Err())
	}
	output, err := os.ReadFile(stdout.Name())
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", e.Path, err)
	}

	var refusals map[uint64]string
	if where.Emulated && !e.unconfined {
		refusals = sandboxRefusals(stderr)
	}
	outcomes := make([]Outcome, len(jobs))
	answered, parseErr := e.parseOutput(output, jobs, outcomes, tm, perJob, refusals)
	if where.Emulated && anyAbort(outcomes[:answered]) {
		blameEmulator(outcomes[:answered], fileTail(stderr, 4096))
	}
	if answered < len(jobs) {
		why := harnessFailure(runErr, runCtx.Err(), overall, fileTail(stderr, 2048))
		if parseErr != nil {
			why = parseErr.Error()
		}
		for i := answered; i < len(jobs); i++ {
			outcomes[i] = Outcome{Status: record.StatusHarnessError, Message: why}
		}
	}
	return outcomes, nil
}

// command is the program and arguments that run the executable: the
// executable itself, or the emulator, in its sandbox.
func (e *Executable) command(ctx context.Context, where Placement) (string, []string, error) {
	if e.program == "" {
		return "", nil, fmt.Errorf("run %s: no harness program (not linked by Link)", e.Path)
	}
	exe, err := filepath.Abs(e.program)
	if err != nil {
		return "", nil, err
	}
	if e.pulley != nil {
		return exe, nil, nil // cliff-pulley runs on the host and confines itself
	}
	if !where.Emulated {
		if !Native(e.Arch) {
			return "", nil, fmt.Errorf("run %s: %s code cannot run natively on %s", e.Path, e.Arch, HostArch())
		}
		return exe, nil, nil
	}
	emulator, err := EmulatorPath(e.Arch) // absolute: the sandbox executes it without a PATH search
	if err != nil {
		return "", nil, fmt.Errorf("run %s: %w", e.Path, err)
	}
	args := []string{exe}
	if where.CPU != "" {
		args = []string{"-cpu", where.CPU, exe}
	}
	if e.unconfined {
		return emulator, args, nil
	}
	sandbox, err := sandboxProgram(ctx, e.Arch)
	if err != nil {
		return "", nil, err
	}
	return sandbox, append([]string{emulator}, args...), nil
}

// encodeJobs encodes the image and the jobs in the format of the package
// doc.
func (e *Executable) encodeJobs(jobs []Job, perJob time.Duration, flags uint32) []byte {
	size := 24
	for _, s := range e.segments {
		size += 16 + len(s.data)
	}
	for _, j := range jobs {
		size += 16 + len(j.Args)
	}
	le := binary.LittleEndian
	buf := make([]byte, 0, size)
	buf = append(buf, "CLIFJOB2"...)
	buf = le.AppendUint32(buf, uint32(len(jobs)))
	buf = le.AppendUint32(buf, uint32(min((perJob+time.Millisecond-1)/time.Millisecond, 1<<31)))
	buf = le.AppendUint32(buf, flags)
	buf = le.AppendUint32(buf, uint32(len(e.segments)))
	for _, s := range e.segments {
		buf = le.AppendUint64(buf, s.addr)
		buf = le.AppendUint32(buf, uint32(len(s.data)))
		buf = le.AppendUint32(buf, uint32(s.memSize))
		buf = append(buf, s.data...)
	}
	for _, j := range jobs {
		buf = le.AppendUint64(buf, e.entries[j.Entry])
		buf = le.AppendUint32(buf, uint32(len(j.Args)))
		buf = le.AppendUint32(buf, uint32(j.ResultSize))
		buf = append(buf, j.Args...)
	}
	return buf
}

// harnessFailure says why the harness stopped answering.
func harnessFailure(runErr, runCtxErr error, overall time.Duration, stderr string) string {
	var why string
	var exit *exec.ExitError
	switch {
	case errors.Is(runCtxErr, context.DeadlineExceeded):
		why = fmt.Sprintf("harness killed after the overall limit of %s", overall)
	case errors.As(runErr, &exit) && exit.Exited():
		why = fmt.Sprintf("harness exited with status %d", exit.ExitCode())
		if meaning, ok := harnessExitMeaning[exit.ExitCode()]; ok {
			why += " (" + meaning + ")"
		}
	case runErr != nil:
		why = "harness failed: " + runErr.Error()
	default:
		why = "harness exited without answering"
	}
	if stderr != "" {
		why += ": " + stderr
	}
	return why
}

// fileTail is the last limit bytes of f (where a program's last words
// are), trimmed.
func fileTail(f *os.File, limit int64) string {
	info, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(info.Size()-limit, 0)
	buf := make([]byte, info.Size()-off)
	n, _ := f.ReadAt(buf, off)
	return string(bytes.TrimSpace(buf[:n]))
}
