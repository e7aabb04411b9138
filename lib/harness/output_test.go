package harness

import (
	"cliff/lib/arch"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cliff/lib/record"
)

// fakeExecutable has two functions and no file behind it.
func fakeExecutable(arch string) *Executable {
	return &Executable{
		Arch:    arch,
		Path:    "fake",
		entries: []uint64{0x1000, 0},
		symbols: map[string]uint64{"cliff_m0_f": 0x1000, "cliff_m1_g": 0x1100},
		funcs:   []function{{"cliff_m0_f", 0x1000, 0x40}, {"cliff_m1_g", 0x1100, 0x20}},
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		text    string
		want    line
		wantErr string
	}{
		{"0 ok 2a00 0 0x0 0x0", line{index: 0, status: "ok", results: []byte{0x2a, 0}}, ""},
		{"7 signal - 11 0x401000 0x10", line{index: 7, status: "signal", code: 11, pc: 0x401000, addr: 0x10}, ""},
		{"3 exit - 7 0x0 0x0", line{index: 3, status: "exit", code: 7}, ""},
		{"1 ok 2a 0 0x0", line{}, "want 6 fields"},
		{"x ok - 0 0x0 0x0", line{}, "index"},
		{"1 ok 2g 0 0x0 0x0", line{}, "results"},
		{"1 signal - eleven 0x0 0x0", line{}, "code"},
		{"1 signal - 11 pc 0x0", line{}, "pc"},
		{"1 signal - 11 0x0 -1", line{}, "addr"},
	}
	for _, tt := range tests {
		got, err := parseLine(tt.text)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: error %v, want one about %s", tt.text, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.text, err)
			continue
		}
		if got.index != tt.want.index || got.status != tt.want.status || string(got.results) != string(tt.want.results) ||
			got.code != tt.want.code || got.pc != tt.want.pc || got.addr != tt.want.addr {
			t.Errorf("%q: got %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

// TestOutcome checks how each kind of line becomes an Outcome, including
// trap sites found through si_addr and the s390x fallback.
func TestOutcome(t *testing.T) {
	// cliff_m0_f+0x25 is where Cranelift puts the site of a 6-byte s390x
	// instruction at +0x20: its last byte.
	sites := []TrapSite{{"cliff_m0_f", 0x10, "int_divz"}, {"cliff_m1_g", 0x8, "heap_oob"}, {"cliff_m0_f", 0x25, "int_ovf"}}
	tests := []struct {
		name string
		arch string
		job  Job
		line string
		want Outcome
	}{
		{"ok", arch.X86_64, Job{ResultSize: 2}, "0 ok 2a00 0 0x0 0x0",
			Outcome{Status: record.StatusOK, Results: []byte{0x2a, 0}}},
		{"ok without results", arch.X86_64, Job{}, "0 ok - 0 0x0 0x0",
			Outcome{Status: record.StatusOK, Results: []byte{}}},
		{"trap at pc", arch.X86_64, Job{}, "0 signal - 8 0x1010 0x1010",
			Outcome{Status: record.StatusTrap, Trap: "int_divz", Signal: "SIGFPE", PC: 0x1010, Message: "trap int_divz (SIGFPE at cliff_m0_f+0x10)"}},
		{"segv at a heap_oob site", arch.AArch64, Job{}, "0 signal - 11 0x1108 0xdead0",
			Outcome{Status: record.StatusTrap, Trap: "heap_oob", Signal: "SIGSEGV", PC: 0x1108, Message: "trap heap_oob (SIGSEGV at cliff_m1_g+0x8)"}},
		{"crash elsewhere", arch.X86_64, Job{}, "0 signal - 11 0x1014 0x10",
			Outcome{Status: record.StatusCrash, Signal: "SIGSEGV", PC: 0x1014, Message: "SIGSEGV at cliff_m0_f+0x14 (pc 0x1014), address 0x10"}},
		{"crash outside functions", arch.X86_64, Job{}, "0 signal - 4 0x9000 0x9000",
			Outcome{Status: record.StatusCrash, Signal: "SIGILL", PC: 0x9000, Message: "SIGILL at unknown function (pc 0x9000)"}},
		{"s390x: site at the instruction", arch.S390X, Job{}, "0 signal - 4 0x1012 0x1010",
			Outcome{Status: record.StatusTrap, Trap: "int_divz", Signal: "SIGILL", PC: 0x1010, Message: "trap int_divz (SIGILL at cliff_m0_f+0x10)"}},
		{"s390x: site at the last byte", arch.S390X, Job{}, "0 signal - 8 0x1026 0x1020",
			Outcome{Status: record.StatusTrap, Trap: "int_ovf", Signal: "SIGFPE", PC: 0x1020, Message: "trap int_ovf (SIGFPE at cliff_m0_f+0x20)"}},
		{"s390x: site at the last byte, no si_addr", arch.S390X, Job{}, "0 signal - 8 0x1026 0x0",
			Outcome{Status: record.StatusTrap, Trap: "int_ovf", Signal: "SIGFPE", PC: 0x1026, Message: "trap int_ovf (SIGFPE at cliff_m0_f+0x26)"}},
		{"s390x: a memory fault's PC is the instruction", arch.S390X, Job{}, "0 signal - 11 0x1011 0x0",
			Outcome{Status: record.StatusCrash, Signal: "SIGSEGV", PC: 0x1011, Message: "SIGSEGV at cliff_m0_f+0x11 (pc 0x1011), address 0x0"}},
		{"x86_64: only the instruction's address", arch.X86_64, Job{}, "0 signal - 8 0x1026 0x1026",
			Outcome{Status: record.StatusCrash, Signal: "SIGFPE", PC: 0x1026, Message: "SIGFPE at cliff_m0_f+0x26 (pc 0x1026)"}},
		{"uncaught signal", arch.RISCV64, Job{}, "0 signal - 6 0x0 0x0",
			Outcome{Status: record.StatusCrash, Signal: "SIGABRT", Message: "killed by SIGABRT"}},
		{"unnamed signal", arch.RISCV64, Job{}, "0 signal - 40 0x0 0x0",
			Outcome{Status: record.StatusCrash, Signal: "SIG40", Message: "killed by SIG40"}},
		{"timeout", arch.AArch64, Job{}, "0 timeout - 0 0x0 0x0",
			Outcome{Status: record.StatusTimeout, Message: "exceeded the per-job limit of 250ms"}},
		{"exit", arch.AArch64, Job{}, "0 exit - 3 0x0 0x0",
			Outcome{Status: record.StatusCrash, Message: "the job exited the process with status 3"}},
		{"null", arch.AArch64, Job{Entry: 1}, "0 null - 0 0x0 0x0",
			Outcome{Status: record.StatusHarnessError, Message: "entry 1 is null: its module did not compile"}},
		// Confined jobs (sandbox.go).
		{"refused system call", arch.X86_64, Job{}, "0 syscall execve 59 0x1014 0x0",
			Outcome{Status: record.StatusUnsupported, PC: 0x1014, Message: "refused execve (system call 59) at cliff_m0_f+0x14: the seccomp filter stopped the job"}},
		{"refused unnamed system call", arch.X86_64, Job{}, "0 syscall - 999 0x9000 0x0",
			Outcome{Status: record.StatusUnsupported, PC: 0x9000, Message: "refused system call (system call 999) at unknown function: the seccomp filter stopped the job"}},
		{"another ABI", arch.X86_64, Job{}, "0 signal - 31 0x0 0x4d2",
			Outcome{Status: record.StatusUnsupported, Message: "refused a system call of another ABI: the seccomp filter killed the job"}},
		{"stopped by the emulator's sandbox", arch.S390X, Job{}, "0 signal - 9 0x0 0x4d2",
			Outcome{Status: record.StatusUnsupported, Message: "refused socket (host system call 41): the emulator's sandbox stopped the job"}},
		{"killed, not by the sandbox", arch.S390X, Job{}, "0 signal - 9 0x0 0x4d3",
			Outcome{Status: record.StatusCrash, Signal: "SIGKILL", Message: "killed by SIGKILL"}},
	}
	refusals := map[uint64]string{1234: "refused socket (host system call 41)"}
	for _, tt := range tests {
		e := fakeExecutable(tt.arch)
		tm, err := e.trapMap(sites)
		if err != nil {
			t.Fatal(err)
		}
		l, err := parseLine(tt.line)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.outcome(tt.job, l, tm, 250*time.Millisecond, refusals)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got.Status != tt.want.Status || string(got.Results) != string(tt.want.Results) || (got.Results == nil) != (tt.want.Results == nil) ||
			got.Trap != tt.want.Trap || got.Signal != tt.want.Signal || got.PC != tt.want.PC || got.Message != tt.want.Message {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

// TestParseOutput checks partial and broken harness output.
func TestParseOutput(t *testing.T) {
	e := fakeExecutable(arch.X86_64)
	tm, _ := e.trapMap(nil)
	jobs := []Job{{ResultSize: 1}, {ResultSize: 1}, {ResultSize: 1}}
	tests := []struct {
		name     string
		out      string
		answered int
		wantErr  string
	}{
		{"all", "0 ok 01 0 0x0 0x0\n1 ok 02 0 0x0 0x0\n2 ok 03 0 0x0 0x0\n", 3, ""},
		{"died between lines", "0 ok 01 0 0x0 0x0\n", 1, ""},
		{"died within a line", "0 ok 01 0 0x0 0x0\n1 ok 0", 1, ""},
		{"out of order", "0 ok 01 0 0x0 0x0\n2 ok 02 0 0x0 0x0\n", 1, "expected job 1"},
		{"wrong result size", "0 ok 0102 0 0x0 0x0\n", 0, "2 bytes of results, want 1"},
		{"unknown status", "0 weird - 0 0x0 0x0\n", 0, `unknown status "weird"`},
	}
	for _, tt := range tests {
		outcomes := make([]Outcome, len(jobs))
		answered, err := e.parseOutput([]byte(tt.out), jobs, outcomes, tm, time.Second, nil)
		if answered != tt.answered {
			t.Errorf("%s: answered %d, want %d", tt.name, answered, tt.answered)
		}
		if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
		for i := range answered {
			if outcomes[i].Status != record.StatusOK || outcomes[i].Results[0] != byte(i+1) {
				t.Errorf("%s: job %d: %+v", tt.name, i, outcomes[i])
			}
		}
	}
}

func TestFileTail(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := fileTail(f, 5); got != "" {
		t.Errorf("empty file: %q", got)
	}
	f.WriteString("abc\ndefgh\n")
	if got := fileTail(f, 6); got != "defgh" {
		t.Errorf("got %q, want the last line without its newline", got)
	}
	if got := fileTail(f, 100); got != "abc\ndefgh" {
		t.Errorf("got %q, want all of it", got)
	}
}
