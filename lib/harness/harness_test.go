package harness

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cliff/lib/arch"
	"cliff/lib/driver/drivertest"
	"cliff/lib/record"
)

// The entries of testdata/entries.c, by index.
const (
	entryAddXor = iota
	entryLoop
	entryBuiltinTrap
	entryBadPointer
	entryOverflowStack
	entryDivide
	entryAbort
	entryExit
	entryBlock
	entryTrapAt8
	entryNull
	entryKillHarness
	entryByMode
	entryCountCalls
	entryClobberPinned
	entryCount
)

// testPerJob is the CPU-time limit of the tests' jobs. Every timeout job
// costs it, so it is short; but a job in a fresh child under qemu also
// pays for the fork's copied pages and its first translations, so on a
// loaded or slow machine it must not be too short (300ms was seen to
// time out an empty riscv64 job).
const testPerJob = time.Second

// testRoot holds the tests' harness cache and fake batches.
var testRoot string

func TestMain(m *testing.M) {
	var err error
	testRoot, err = os.MkdirTemp("", "cliff-harness-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The driver first, from the user's cache: with $CLIFF_CRANELIFT it
	// is a build there (scripts/test.sh makes it), and under the private
	// cache below every run of these tests would build it again (minutes).
	// An error is kept for the tests that need it (drivertest.Require).
	drivertest.Path()
	// A private harness cache: tests must not depend on (or fill) the
	// user's cache.
	os.Setenv("XDG_CACHE_HOME", filepath.Join(testRoot, "cache"))
	code := m.Run()
	os.RemoveAll(testRoot)
	os.Exit(code)
}

// requireArch fails the test when arch's cross gcc or qemu is missing:
// scripts/setup.sh installs them, so a test that skipped would hide a
// broken set-up.
func requireArch(t testing.TB, arch string) {
	t.Helper()
	if err := Available(arch); err != nil {
		t.Fatalf("%v (scripts/setup.sh installs it)", err)
	}
}

// compileC compiles a C file of testdata for arch into dir.
func compileC(t testing.TB, arch, source, dir string) string {
	t.Helper()
	obj, err := compileTestdata(arch, source, dir)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func compileTestdata(arch, source, dir string) (string, error) {
	return compileTestdataFlags(arch, source, dir)
}

// compileTestdataFlags is compileTestdata with more compiler flags.
func compileTestdataFlags(arch, source, dir string, flags ...string) (string, error) {
	obj := filepath.Join(dir, strings.TrimSuffix(source, ".c")+"-"+arch+".o")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := append([]string{"-O1", "-c", "-o", obj}, flags...)
	out, err := exec.CommandContext(ctx, Compiler(arch), append(args, filepath.Join("testdata", source))...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("compile %s for %s: %v\n%s", source, arch, err, out)
	}
	return obj, nil
}

// fakeBatches holds the linked testdata/entries.c per arch, built once.
var fakeBatches sync.Map // Arch → *fakeBatch

type fakeBatch struct {
	once sync.Once
	exe  *Executable
	err  error
}

// entriesLibc are the libc functions testdata/entries.c calls, which
// Link refuses in a batch object.
var entriesLibc = []string{"abort", "_exit", "pause", "kill", "getppid"}

// linkFakeBatch links the fake batch object for arch with the harness. Its
// jobs call libc (abort, kill), so they run unconfined: these tests are
// about what the harness does with each outcome (TestSandbox confines).
func linkFakeBatch(t testing.TB, arch string) *Executable {
	t.Helper()
	requireArch(t, arch)
	v, _ := fakeBatches.LoadOrStore(arch, &fakeBatch{})
	fb := v.(*fakeBatch)
	fb.once.Do(func() {
		dir := filepath.Join(testRoot, "batches")
		if fb.err = os.MkdirAll(dir, 0o755); fb.err != nil {
			return
		}
		var obj string
		if obj, fb.err = compileTestdata(arch, "entries.c", dir); fb.err != nil {
			return
		}
		fb.exe, fb.err = link(context.Background(), arch, obj, filepath.Join(dir, "batch-"+arch), entriesLibc)
		if fb.exe != nil {
			fb.exe.unconfined = true
		}
	})
	if fb.err != nil {
		t.Fatal(fb.err)
	}
	return fb.exe
}

func u32s(vs ...uint32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

// want is an expected outcome; an empty field is not checked.
type want struct {
	status  record.Status
	results []byte
	signal  string
	trap    string
	message string // a substring of Message
}

func checkOutcome(t *testing.T, what string, got Outcome, w want) {
	t.Helper()
	if got.Status != w.status {
		t.Errorf("%s: status %s (%s), want %s", what, got.Status, got.Message, w.status)
		return
	}
	if w.status == record.StatusOK && !bytes.Equal(got.Results, w.results) {
		t.Errorf("%s: results %x, want %x", what, got.Results, w.results)
	}
	if got.Signal != w.signal {
		t.Errorf("%s: signal %q, want %q (%s)", what, got.Signal, w.signal, got.Message)
	}
	if got.Trap != w.trap {
		t.Errorf("%s: trap %q, want %q", what, got.Trap, w.trap)
	}
	if !strings.Contains(got.Message, w.message) {
		t.Errorf("%s: message %q does not contain %q", what, got.Message, w.message)
	}
}

// TestRunOutcomes runs every kind of job on every arch, each followed by a
// canary job that must still compute its result: one job's crash, trap or
// timeout must not affect the next.
func TestRunOutcomes(t *testing.T) {
	// What differs between the targets.
	type perArch struct {
		trapSignal string // __builtin_trap
		divZero    want   // 1 / 0
	}
	arches := map[string]perArch{
		arch.X86_64:  {"SIGILL", want{status: record.StatusCrash, signal: "SIGFPE", message: "SIGFPE at divide+"}},
		arch.AArch64: {"SIGTRAP", want{status: record.StatusOK, results: u32s(0)}},
		arch.RISCV64: {"SIGTRAP", want{status: record.StatusOK, results: u32s(0xffffffff)}},
		arch.S390X:   {"SIGILL", want{status: record.StatusCrash, signal: "SIGFPE", message: "SIGFPE at divide+"}},
	}
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			exe := linkFakeBatch(t, arch)
			if exe.EntryCount() != entryCount || exe.EntryAddress(entryNull) != 0 || exe.EntryAddress(entryAddXor) == 0 {
				t.Fatalf("entries read from the ELF: count %d, null entry 0x%x, add_xor 0x%x", exe.EntryCount(), exe.EntryAddress(entryNull), exe.EntryAddress(entryAddXor))
			}
			pa := arches[arch]
			cases := []struct {
				name string
				job  Job
				want want
			}{
				{"add_xor", Job{entryAddXor, u32s(5, 7), 8}, want{status: record.StatusOK, results: u32s(12, 2)}},
				{"no results", Job{entryAddXor, u32s(5, 7), 0}, want{status: record.StatusOK, results: []byte{}}},
				{"loop", Job{entryLoop, nil, 4}, want{status: record.StatusTimeout, message: "limit of " + testPerJob.String()}},
				{"builtin_trap", Job{entryBuiltinTrap, nil, 4}, want{status: record.StatusCrash, signal: pa.trapSignal, message: "builtin_trap+0x"}},
				{"bad pointer", Job{entryBadPointer, nil, 4}, want{status: record.StatusCrash, signal: "SIGSEGV", message: "bad_pointer+0x"}},
				{"stack overflow", Job{entryOverflowStack, u32s(0), 4}, want{status: record.StatusStackOverflow, signal: "SIGSEGV", message: "stack overflow: SIGSEGV at recurse+0x"}},
				{"divide by zero", Job{entryDivide, u32s(1, 0), 4}, pa.divZero},
				{"divide", Job{entryDivide, u32s(uint32(0xfffffff9), 2), 4}, want{status: record.StatusOK, results: u32s(0xfffffffd)}},
				{"abort", Job{entryAbort, nil, 0}, want{status: record.StatusCrash, signal: "SIGABRT", message: "killed by SIGABRT"}},
				{"exit", Job{entryExit, nil, 0}, want{status: record.StatusCrash, message: "status 7"}},
				{"blocked", Job{entryBlock, nil, 0}, want{status: record.StatusTimeout}},
				{"trap site", Job{entryTrapAt8, nil, 0}, want{status: record.StatusTrap, signal: "SIGILL", trap: "user1", message: "trap user1 (SIGILL at trap_at_8+0x"}},
				{"null entry", Job{entryNull, nil, 4}, want{status: record.StatusHarnessError, message: "entry 10 is null"}},
			}
			var jobs []Job
			for i, c := range cases {
				jobs = append(jobs, c.job, Job{entryAddXor, u32s(uint32(i), 100), 8})
			}
			traps := []TrapSite{{Symbol: "trap_at_8", Offset: 8, Code: "user1"}}
			outcomes, err := exe.Run(context.Background(), placeFor(exe.Arch), jobs, testPerJob, traps)
			if err != nil {
				t.Fatal(err)
			}
			if len(outcomes) != len(jobs) {
				t.Fatalf("%d outcomes for %d jobs", len(outcomes), len(jobs))
			}
			for i, c := range cases {
				checkOutcome(t, c.name, outcomes[2*i], c.want)
				checkOutcome(t, "canary after "+c.name, outcomes[2*i+1], want{status: record.StatusOK, results: u32s(uint32(i)+100, uint32(i)^100)})
			}
		})
	}
}

// TestJobGroups checks consecutive jobs of one entry, which share a child
// until one fails: every kind of failure in the middle of a group, and
// which jobs shared a process.
func TestJobGroups(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			exe := linkFakeBatch(t, arch)
			mode := func(m, a uint32) Job { return Job{entryByMode, u32s(m, a), 4} }
			count := Job{entryCountCalls, nil, 4}
			jobs := []Job{
				mode(0, 5), mode(1, 0), mode(0, 6), mode(2, 0), mode(0, 7), mode(3, 0),
				mode(0, 8), mode(4, 0), mode(0, 9), mode(0, 10), mode(5, 0), mode(0, 11),
				count, count, count, {entryAddXor, u32s(1, 1), 8}, count,
			}
			ok := func(v uint32) want { return want{status: record.StatusOK, results: u32s(v)} }
			wants := []want{
				ok(6), {status: record.StatusCrash, signal: "SIGSEGV"}, ok(7),
				{status: record.StatusTimeout}, ok(8), {status: record.StatusCrash, message: "status 9"},
				ok(9), {status: record.StatusCrash, signal: "SIGABRT"}, ok(10), ok(11), {status: record.StatusTimeout}, ok(12),
				ok(1), ok(2), ok(3), {status: record.StatusOK, results: u32s(2, 0)}, ok(1),
			}
			outcomes, err := exe.Run(context.Background(), placeFor(exe.Arch), jobs, testPerJob, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range wants {
				checkOutcome(t, fmt.Sprintf("job %d", i), outcomes[i], w)
			}

			isolated := *exe
			isolated.IsolateJobs = true
			outcomes, err = isolated.Run(context.Background(), placeFor(isolated.Arch), []Job{count, count, count}, testPerJob, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				checkOutcome(t, fmt.Sprintf("isolated job %d", i), outcomes[i], ok(1))
			}
		})
	}
}

// TestPinnedRegister runs jobs that leave the register Cranelift pins
// (enable_pinned_reg) changed, in one child, confined and not: the
// harness keeps nothing there across a call (Cranelift's pinned-reg.clif
// crashed in it once).
func TestPinnedRegister(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			for _, confined := range []bool{false, true} {
				exe := *linkFakeBatch(t, arch)
				exe.unconfined = !confined
				clobber := Job{Entry: entryClobberPinned}
				outcomes, err := exe.Run(context.Background(), placeFor(exe.Arch), []Job{clobber, clobber, clobber, {entryAddXor, u32s(1, 2), 8}}, testPerJob, nil)
				if err != nil {
					t.Fatal(err)
				}
				for i, o := range outcomes[:3] {
					checkOutcome(t, fmt.Sprintf("confined %v: job %d", confined, i), o, want{status: record.StatusOK, results: []byte{}})
				}
				checkOutcome(t, fmt.Sprintf("confined %v: canary", confined), outcomes[3], want{status: record.StatusOK, results: u32s(3, 3)})
			}
		})
	}
}

// TestTrapSites checks that only a signal at a trap site becomes a trap.
func TestTrapSites(t *testing.T) {
	for _, target := range Arches() {
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			exe := linkFakeBatch(t, target)
			lastByte := want{status: record.StatusCrash, signal: "SIGILL"}
			if target == arch.S390X {
				lastByte = want{status: record.StatusTrap, signal: "SIGILL", trap: "user1"}
			}
			tests := []struct {
				name  string
				sites []TrapSite
				want  want
			}{
				{"at the site", []TrapSite{{"trap_at_8", 8, "int_divz"}}, want{status: record.StatusTrap, signal: "SIGILL", trap: "int_divz"}},
				{"among others", []TrapSite{{"trap_at_8", 0, "user2"}, {"trap_at_8", 8, "heap_oob"}, {"add_xor", 8, "user3"}}, want{status: record.StatusTrap, signal: "SIGILL", trap: "heap_oob"}},
				{"site before the PC", []TrapSite{{"trap_at_8", 4, "user1"}}, want{status: record.StatusCrash, signal: "SIGILL", message: "SIGILL at trap_at_8+0x"}},
				{"site after the instruction", []TrapSite{{"trap_at_8", 10, "user1"}}, want{status: record.StatusCrash, signal: "SIGILL"}},
				// Where Cranelift records s390x traps; elsewhere it is
				// the middle of an instruction (or the next one).
				{"last byte of the instruction", []TrapSite{{"trap_at_8", 9, "user1"}}, lastByte},
				{"other function", []TrapSite{{"add_xor", 8, "user1"}}, want{status: record.StatusCrash, signal: "SIGILL"}},
				{"no sites", nil, want{status: record.StatusCrash, signal: "SIGILL"}},
			}
			for _, tt := range tests {
				outcomes, err := exe.Run(context.Background(), placeFor(exe.Arch), []Job{{Entry: entryTrapAt8}}, testPerJob, tt.sites)
				if err != nil {
					t.Fatal(err)
				}
				checkOutcome(t, tt.name, outcomes[0], tt.want)
			}
			if _, err := exe.Run(context.Background(), placeFor(exe.Arch), []Job{{Entry: entryTrapAt8}}, testPerJob, []TrapSite{{"no_such_function", 0, "user1"}}); err == nil || !strings.Contains(err.Error(), "no_such_function") {
				t.Errorf("unknown trap symbol: error %v, want one naming the symbol", err)
			}
		})
	}
}

// TestHarnessDies kills the harness from a job: the jobs it answered keep
// their outcomes, the rest are harness errors that say why.
func TestHarnessDies(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			exe := linkFakeBatch(t, arch)
			jobs := []Job{{entryAddXor, u32s(1, 2), 8}, {entryKillHarness, nil, 4}, {entryAddXor, u32s(3, 4), 8}}
			outcomes, err := exe.Run(context.Background(), placeFor(exe.Arch), jobs, testPerJob, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkOutcome(t, "before", outcomes[0], want{status: record.StatusOK, results: u32s(3, 3)})
			for _, i := range []int{1, 2} {
				checkOutcome(t, fmt.Sprintf("job %d", i), outcomes[i], want{status: record.StatusHarnessError, message: "harness failed: signal: killed"})
			}

			// The job's child, orphaned and blocked, must not be left behind.
			outcomes, err = exe.Run(context.Background(), placeFor(exe.Arch), []Job{{entryByMode, u32s(6, 0), 4}}, testPerJob, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkOutcome(t, "killer", outcomes[0], want{status: record.StatusHarnessError, message: "killed"})
			var left []int
			for range 50 { // SIGKILL is sent; give the kernel a moment to reap
				if left = processesRunning(exe.Path); len(left) == 0 {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if len(left) > 0 {
				t.Errorf("processes of %s left running: %v", exe.Path, left)
			}
		})
	}
}

// processesRunning lists the live processes whose command line mentions
// path (natively the harness itself, under qemu an argument of qemu).
func processesRunning(path string) []int {
	var pids []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), path) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err == nil && strings.Contains(string(stat), ") Z ") {
			continue // a zombie, waiting to be reaped: not running
		}
		pids = append(pids, pid)
	}
	return pids
}

// TestRunRejectsBadRequests checks the errors Run returns before running.
func TestRunRejectsBadRequests(t *testing.T) {
	exe := linkFakeBatch(t, HostArch())
	tests := []struct {
		name   string
		jobs   []Job
		perJob time.Duration
		want   string
	}{
		{"entry out of range", []Job{{Entry: entryCount}}, time.Second, "entry 15 out of range (the object has 15 entries)"},
		{"negative entry", []Job{{Entry: -1}}, time.Second, "entry -1 out of range"},
		{"results too large", []Job{{Entry: 0, ResultSize: 2 << 20}}, time.Second, "over the limit"},
		{"no limit", []Job{{Entry: 0}}, 0, "not positive"},
	}
	for _, tt := range tests {
		_, err := exe.Run(context.Background(), Placement{}, tt.jobs, tt.perJob, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := exe.Run(ctx, placeFor(exe.Arch), []Job{{Entry: 0}}, time.Second, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v, want context.Canceled", err)
	}
	for _, arch := range Arches() {
		if Native(arch) {
			continue
		}
		foreign := linkFakeBatch(t, arch)
		if _, err := foreign.Run(context.Background(), Placement{}, []Job{{Entry: 0}}, time.Second, nil); err == nil || !strings.Contains(err.Error(), "cannot run natively") {
			t.Errorf("%s code run natively: error %v, want one saying it cannot", arch, err)
		}
	}
}

// placeFor runs code for arch the plain way: natively on the host's
// architecture, under QEMU's default CPU otherwise.
func placeFor(arch string) Placement { return Placement{Emulated: !Native(arch)} }

// TestHarnessExitCodes feeds the harness program broken job files
// directly: each failure has its own exit status and a message.
func TestHarnessExitCodes(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			exe := linkFakeBatch(t, arch)
			valid := exe.encodeJobs([]Job{{Entry: entryAddXor, Args: u32s(1, 2), ResultSize: 8}}, 100*time.Millisecond, 0)
			// header makes a job file of count jobs and segments segments.
			header := func(count, segments uint32) []byte {
				return append([]byte("CLIFJOB2"), u32s(count, 100, 0, segments)...)
			}
			job := func(entry uint64, argsLen, resultSize uint32) []byte {
				return append(binary.LittleEndian.AppendUint64(nil, entry), u32s(argsLen, resultSize)...)
			}
			segment := func(addr uint64, fileSize, memSize uint32) []byte {
				return append(binary.LittleEndian.AppendUint64(nil, addr), u32s(fileSize, memSize)...)
			}
			cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
			program, err := harnessProgram(context.Background(), arch, entriesLibc)
			if err != nil {
				t.Fatal(err)
			}
			gate := program.symbols["cliff_gate"].Value // the harness's own code
			tests := []struct {
				name     string
				file     []byte // nil: no such file
				wantExit int
				wantErr  string
			}{
				{"valid", valid, 0, ""},
				{"no jobs", header(0, 0), 0, ""},
				{"null entry", cat(header(1, 0), job(0, 0, 0)), 0, ""},
				{"missing file", nil, 2, "No such file"},
				{"old magic", append([]byte("CLIFJOB1"), valid[8:]...), 3, "does not start with a 24-byte CLIFJOB2 header"},
				{"short header", []byte("CLIFJOB2\x01\x00\x00\x00"), 3, "does not start with"},
				{"too many jobs", header(1000, 0), 3, "claims 1000 jobs"},
				{"truncated args", valid[:len(valid)-2], 3, "args truncated"},
				{"trailing bytes", append(valid, 0), 3, "1 trailing bytes"},
				{"huge args", cat(header(1, 0), job(0, 1<<21, 0)), 3, "larger than"},
				{"segment truncated", cat(header(0, 1), segment(ImageBase, 8, 8), []byte{1, 2}), 3, "segment 0: 8 bytes in file"},
				{"segment header truncated", cat(header(0, 1), []byte{1, 2}), 3, "segment 0: header truncated"},
				{"file larger than memory", cat(header(0, 1), segment(ImageBase, 2, 1), []byte{1, 2}), 3, "segment 0: 2 bytes in file, 1 in memory"},
				{"past the image region", cat(header(0, 2), segment(ImageBase, 0, 1), segment(ImageBase+ImageSize-8, 0, 16)), 3, "segment 1: 16 bytes at 0x7fffff8 lie outside the image region [0x4000000, 0x8000000)"},
				{"over the harness", cat(header(0, 1), segment(gate, 0, 16)), 3, "lie outside the image region"},
				{"the whole region", cat(header(0, 1), segment(ImageBase, 0, ImageSize)), 0, ""},
				{"entry out of range", cat(header(1, 1), segment(ImageBase, 0, 16), job(ImageBase+4096, 0, 0)), 4, "entry 0x4001000 outside the image [0x4000000, 0x4000010)"},
			}
			dir := t.TempDir()
			for i, tt := range tests {
				path := filepath.Join(dir, fmt.Sprintf("jobs%d", i))
				if tt.file != nil {
					if err := os.WriteFile(path, tt.file, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				name, args, err := exe.command(context.Background(), placeFor(exe.Arch))
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				cmd := exec.CommandContext(ctx, name, append(args, path)...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err = cmd.Run()
				cancel()
				code := 0
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					code = exit.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if code != tt.wantExit || !strings.Contains(stderr.String(), tt.wantErr) {
					t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tt.name, code, stderr.String(), tt.wantExit, tt.wantErr)
				}
				if tt.wantExit != 0 && stdout.Len() != 0 {
					t.Errorf("%s: a rejected job file ran jobs: %q", tt.name, stdout.String())
				}
			}
		})
	}
}

// TestLinkError checks that an object using a symbol the harness does not
// provide is refused before the link, and that a link failure reports the
// linker's message.
func TestLinkError(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			requireArch(t, arch)
			dir := t.TempDir()
			obj := compileC(t, arch, "undefined.c", dir)
			_, err := Link(context.Background(), arch, obj, filepath.Join(dir, "exe"))
			var refused *RefusedSymbolsError
			if !errors.As(err, &refused) || !slices.Equal(refused.Symbols, []string{"cliff_no_such_function"}) {
				t.Errorf("error %v, want the harness's refusal of cliff_no_such_function", err)
			}
			// Allowed, the symbol is still undefined: the linker says so.
			_, err = link(context.Background(), arch, obj, filepath.Join(dir, "exe"), []string{"cliff_no_such_function"})
			if err == nil || !strings.Contains(err.Error(), "cliff_no_such_function") || !strings.Contains(err.Error(), "undefined reference") {
				t.Errorf("error %v, want the linker's undefined reference to cliff_no_such_function", err)
			}
			_, err = Link(context.Background(), arch, filepath.Join(dir, "missing.o"), filepath.Join(dir, "exe"))
			if err == nil || !strings.Contains(err.Error(), "missing.o") {
				t.Errorf("missing object: error %v, want one naming it", err)
			}
		})
	}
}

// TestHarnessCompilesCleanly compiles harness.c with warnings as errors
// for every arch: the portable C must stay warning-free.
func TestHarnessCompilesCleanly(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			requireArch(t, arch)
			args := append(harnessFlags(arch), "-Werror", "-c", "-x", "c", "-o", filepath.Join(t.TempDir(), "h.o"), "-")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, Compiler(arch), args...)
			cmd.Stdin = bytes.NewReader(harnessSource)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%v\n%s", err, out)
			}
		})
	}
}

// TestHarnessProgramCache checks that the harness program is reused, from
// memory and from the cache directory, and rebuilt when it is missing.
func TestHarnessProgramCache(t *testing.T) {
	arch := HostArch()
	requireArch(t, arch)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cachedPrograms.Clear()
	defer cachedPrograms.Clear() // other tests build into TestMain's cache
	first, err := harnessProgramPath(arch, nil)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := harnessProgramPath(arch, nil); again != first {
		t.Errorf("second call: %s, want %s", again, first)
	}
	if other, _ := harnessProgramPath(arch, []string{"abort"}); other == first {
		t.Errorf("a program with abort is the same file as one without: %s", other)
	}
	cachedPrograms.Clear() // a new process: only the directory remains
	fromDisk, err := harnessProgramPath(arch, nil)
	if err != nil {
		t.Fatal(err)
	}
	info2, _ := os.Stat(fromDisk)
	if fromDisk != first || !info2.ModTime().Equal(info.ModTime()) {
		t.Errorf("from disk: %s (modified %v), want %s unchanged (%v)", fromDisk, info2.ModTime(), first, info.ModTime())
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(first), ".harness-*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left in the cache: %v", matches)
	}
}

// harnessProgramPath is the path of harnessProgram's program.
func harnessProgramPath(arch string, extra []string) (string, error) {
	p, err := harnessProgram(context.Background(), arch, extra)
	if err != nil {
		return "", err
	}
	return p.path, nil
}

// TestOpenChecks checks that Open refuses what is not a linked batch for
// the architecture.
func TestOpenChecks(t *testing.T) {
	target := HostArch()
	exe := linkFakeBatch(t, target)
	other := arch.AArch64
	if target == arch.AArch64 {
		other = arch.X86_64
	}
	program, err := harnessProgram(context.Background(), target, nil)
	if err != nil {
		t.Fatal(err)
	}
	notELF := filepath.Join(t.TempDir(), "not-elf")
	os.WriteFile(notELF, []byte("#!/bin/sh\n"), 0o755)
	tests := []struct {
		name string
		arch string
		path string
		want string
	}{
		{"wrong architecture", other, exe.Path, "not " + string(other)},
		{"not ELF", target, notELF, "not-elf"},
		{"no batch symbols", target, program.path, "no symbol cliff_entry_count"},
	}
	for _, tt := range tests {
		_, err := Open(tt.arch, tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestImageRegionIsTheProgramsOwn checks that every architecture's
// harness program has a loadable segment, readable, writable and
// executable, covering the image region: the kernel maps it with the
// program, before it places the heap, so no heap can take the image's
// addresses. (A mapping made at run time collided with the heap, which
// Linux 6 starts anywhere in a gigabyte above a static program.)
func TestImageRegionIsTheProgramsOwn(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			requireArch(t, arch)
			p, err := harnessProgram(context.Background(), arch, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := elf.Open(p.path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rwx := elf.PF_R | elf.PF_W | elf.PF_X
			for _, s := range f.Progs {
				if s.Type == elf.PT_LOAD && s.Vaddr <= ImageBase && s.Vaddr+s.Memsz >= ImageBase+ImageSize && s.Flags&rwx == rwx {
					return
				}
			}
			t.Errorf("%s: no RWX loadable segment covers [0x%x, 0x%x)", p.path, ImageBase, ImageBase+ImageSize)
		})
	}
}
