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
	status  string // ok, signal, timeout, exit, null
	results []byte
	code    int // signal number or exit status
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
	if f[2] != "-" {
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
// unreadable stops it with an error that explains the rest.
func (e *Executable) parseOutput(out []byte, jobs []Job, outcomes []Outcome, tm *trapMap, perJob time.Duration) (int, error) {
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
		o, err := e.outcome(jobs[answered], l, tm, perJob)
		if err != nil {
			return answered, err
		}
		outcomes[answered] = o
		answered++
	}
	return answered, nil
}

// outcome interprets one job's line.
func (e *Executable) outcome(job Job, l line, tm *trapMap, perJob time.Duration) (Outcome, error) {
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
			// Killed by a signal it did not catch (abort's SIGABRT).
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
	case "timeout":
		return Outcome{Status: record.StatusTimeout, Message: fmt.Sprintf("exceeded the per-job limit of %s", perJob)}, nil
	case "exit":
		return Outcome{Status: record.StatusCrash, Message: fmt.Sprintf("the job exited the process with status %d", l.code)}, nil
	case "null":
		return Outcome{Status: record.StatusHarnessError, Message: fmt.Sprintf("entry %d is null: its module did not compile", job.Entry)}, nil
	}
	return Outcome{}, fmt.Errorf("harness output for job %d: unknown status %q", l.index, l.status)
}
