package harness

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cliff/lib/record"
)

// A line is one job's line of harness output (see the package doc).
type line struct {
	index   int
	status  string // ok, signal, syscall, timeout, exit, null
	results []byte
	syscall string // for syscall: its name, "-" if the harness has none; for trap (Pulley): the trap kind
	code    int    // signal number, exit status or system call number
	pc      uint64
	addr    uint64
}

func parseLine(text string) (line, error) {
	f := strings.Fields(text)
	if len(f) != 6 {
		return line{}, fmt.Errorf("harness output %q: want 6 fields, have %d", text, len(f))
	}
	var l line
	var err error
	if l.index, err = strconv.Atoi(f[0]); err != nil {
		return line{}, fmt.Errorf("harness output %q: index: %w", text, err)
	}
	l.status = f[1]
	if l.status == "syscall" || l.status == "trap" {
		l.syscall = f[2]
	} else if f[2] != "-" {
		if l.results, err = hex.DecodeString(f[2]); err != nil {
			return line{}, fmt.Errorf("harness output %q: results: %w", text, err)
		}
	}
	if l.code, err = strconv.Atoi(f[3]); err != nil {
		return line{}, fmt.Errorf("harness output %q: code: %w", text, err)
	}
	if l.pc, err = strconv.ParseUint(f[4], 0, 64); err != nil {
		return line{}, fmt.Errorf("harness output %q: pc: %w", text, err)
	}
	if l.addr, err = strconv.ParseUint(f[5], 0, 64); err != nil {
		return line{}, fmt.Errorf("harness output %q: addr: %w", text, err)
	}
	return l, nil
}

// parseOutput fills outcomes from the harness's stdout and returns how
// many jobs, from the first, were answered. A line out of order or
// unreadable stops it with an error that explains the rest. refusals are
// the emulator's sandbox's, by process id.
func (e *Executable) parseOutput(out []byte, jobs []Job, outcomes []Outcome, tm *trapMap, perJob time.Duration, refusals map[uint64]string) (int, error) {
	answered := 0
	for len(out) > 0 && answered < len(jobs) {
		nl := bytes.IndexByte(out, '\n')
		if nl < 0 {
			break // the harness died while writing this line
		}
		text := string(out[:nl])
		out = out[nl+1:]
		l, err := parseLine(text)
		if err != nil {
			return answered, err
		}
		if l.index != answered {
			return answered, fmt.Errorf("harness output %q: expected job %d", text, answered)
		}
		o, err := e.outcome(jobs[answered], l, tm, perJob, refusals)
		if err != nil {
			return answered, err
		}
		outcomes[answered] = o
		answered++
	}
	return answered, nil
}

// outcome interprets one job's line.
func (e *Executable) outcome(job Job, l line, tm *trapMap, perJob time.Duration, refusals map[uint64]string) (Outcome, error) {
	if e.pulley != nil {
		if o, ok, err := e.pulleyOutcome(l, tm); ok || err != nil {
			return o, err
		}
	}
	switch l.status {
	case "ok":
		if len(l.results) != job.ResultSize {
			return Outcome{}, fmt.Errorf("harness output for job %d: %d bytes of results, want %d", l.index, len(l.results), job.ResultSize)
		}
		if l.results == nil {
			l.results = []byte{}
		}
		return Outcome{Status: record.StatusOK, Results: l.results}, nil
	case "signal":
		sig := signalName(l.code)
		if l.pc == 0 {
			// Killed by a signal it did not catch (abort's SIGABRT);
			// addr is the process id.
			if why, ok := refusals[l.addr]; ok && sig == "SIGKILL" {
				return Outcome{Status: record.StatusUnsupported, Message: why + ": the emulator's sandbox stopped the job"}, nil
			}
			if sig == "SIGSYS" {
				// The seccomp filter kills a call of another ABI.
				return Outcome{Status: record.StatusUnsupported, Message: "refused a system call of another ABI: the seccomp filter killed the job"}, nil
			}
			return Outcome{Status: record.StatusCrash, Signal: sig, Message: "killed by " + sig}, nil
		}
		pc := faultingInstruction(l.pc, l.addr, sig)
		where := e.describePC(pc)
		if code, ok := tm.lookup(l.pc, l.addr, sig); ok {
			return Outcome{Status: record.StatusTrap, Trap: code, Signal: sig, PC: pc,
				Message: fmt.Sprintf("trap %s (%s at %s)", code, sig, where)}, nil
		}
		msg := fmt.Sprintf("%s at %s (pc 0x%x)", sig, where, pc)
		if sig == "SIGSEGV" || sig == "SIGBUS" {
			msg += fmt.Sprintf(", address 0x%x", l.addr)
		}
		return Outcome{Status: record.StatusCrash, Signal: sig, PC: pc, Message: msg}, nil
	case "stack_overflow":
		// A SIGSEGV next to the stack pointer with the stack nearly
		// full (harness.c's stack_overflow): the stack's exhaustion, as
		// the reference and the interpreter report it, not a crash.
		sig := signalName(l.code)
		pc := faultingInstruction(l.pc, l.addr, sig)
		return Outcome{Status: record.StatusStackOverflow, Signal: sig, PC: pc,
			Message: fmt.Sprintf("stack overflow: %s at %s (pc 0x%x), address 0x%x", sig, e.describePC(pc), pc, l.addr)}, nil
	case "syscall":
		name := l.syscall
		if name == "-" {
			name = "system call"
		}
		return Outcome{Status: record.StatusUnsupported, PC: l.pc,
			Message: fmt.Sprintf("refused %s (system call %d) at %s: the seccomp filter stopped the job", name, l.code, e.describePC(l.pc))}, nil
	case "timeout":
		return Outcome{Status: record.StatusTimeout, Message: fmt.Sprintf("exceeded the per-job limit of %s", perJob)}, nil
	case "exit":
		return Outcome{Status: record.StatusCrash, Message: fmt.Sprintf("the job exited the process with status %d", l.code)}, nil
	case "null":
		return Outcome{Status: record.StatusHarnessError, Message: fmt.Sprintf("entry %d is null: its module did not compile", job.Entry)}, nil
	}
	return Outcome{}, fmt.Errorf("harness output for job %d: unknown status %q", l.index, l.status)
}
