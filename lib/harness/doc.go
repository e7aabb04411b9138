// Package harness runs code compiled by Cranelift: it links a batch object
// from cliff-driver into an image at a fixed address, runs it in a small
// static C program, the harness, natively or under qemu-user, and turns
// what happened to each job into an Outcome (results, trap code, crash
// signal, timeout).
//
// # How a batch runs
//
// cliff-driver compiles one trampoline per case,
// `function %cliff_tramp(i64, i64) system_v`, which loads the case's
// arguments from its first pointer, calls the case, and stores the results
// at its second pointer (both little-endian on every target). The batch
// object defines cliff_entry_count (a target-endian u64) and cliff_entries
// (that many 8-byte function pointers, 0 for a module that failed to
// compile).
//
// The harness program is csrc/harness.c (in a subdirectory because the go
// tool refuses C files in a package without cgo), linked statically by
// arch's gcc once per architecture and compiler and cached under
// os.UserCacheDir()/cliff/harness (program.go). It knows no batch: Link
// lays the object out at ImageBase with the binutils linker (`ld -N
// -Ttext=ImageBase`), defining each libcall symbol the object uses as the
// address of its wrapper in the program (`--defsym`), and Run sends the
// image's segments with the jobs. A link is then one pass over one object
// (about 5 ms for 100 cases) instead of a static link with libc (about
// 110 ms). Before it links, Link refuses an object that leaves any symbol
// undefined but Cranelift's libcalls (libcalls.go); the image can reach
// nothing else of the program, whose libc has exit and system.
//
// # Nothing escapes
//
// The jobs run confined (sandbox.go): natively the harness installs a
// seccomp filter before its first job, which its children inherit; a job
// may then only set its CPU-time limit, return from a signal handler and
// exit, and any other system call traps. Under qemu-user, where a guest
// cannot install a filter, the emulator runs under csrc/sandbox.c, a host
// program whose filter and supervisor give the harness what it needs and
// its children only what QEMU needs. A refused call is StatusUnsupported,
// naming the call.
//
// The harness runs jobs in forked children, so a crash, a trap or an
// endless loop ends only that job. Consecutive jobs with the same entry (a
// case's input vectors) share one child until one of them fails, because
// a fork costs far more than a call, under qemu-user most of all (see
// BenchmarkRun); the job after a failure starts in a new child
// (Executable.IsolateJobs gives every job its own). The child has handlers
// for SIGILL, SIGFPE, SIGSEGV, SIGBUS and SIGTRAP on an alternate stack (a
// stack overflow is caught too) that record the signal, the PC and si_addr
// in shared memory, and whether the fault was the stack's exhaustion: a
// SIGSEGV or SIGBUS within 64 KiB of the stack pointer with at least half
// of RLIMIT_STACK in use (StatusStackOverflow, as the reference says),
// not a wild pointer (StatusCrash); and a CPU-time limit per job (ITIMER_PROF, so a loaded
// machine causes no false timeouts); the parent kills a child in which no
// job finished for 2×limit+500ms of wall time (a job blocked without using
// CPU). Run maps a signal at a trap site of the compiled code to
// StatusTrap with the site's trap code: the faulting instruction is si_addr
// for SIGILL, SIGFPE and SIGTRAP (on s390x the PC has already moved past
// it), the PC otherwise; on s390x Cranelift records explicit traps and
// arithmetic exceptions at the instruction's last byte, which is PC-1.
//
// # Job file
//
// The harness's only argument is a job file, little-endian on every target:
//
//	offset  size  field
//	0       8     magic "CLIFJOB2"
//	8       4     u32 number of jobs
//	12      4     u32 per-job CPU-time limit in milliseconds (0: none)
//	16      4     u32 flags: bit 0 runs every job in its own child;
//	                  bit 1 confines the children with the seccomp filter
//	20      4     u32 number of image segments
//	24            the segments, each:
//	        8       u64 address it was linked for
//	        4       u32 bytes in the file
//	        4       u32 bytes in memory (the rest is zero)
//	        n       the bytes
//	              then the jobs, each:
//	        8       u64 address of the entry (0: its module failed)
//	        4       u32 length of the args in bytes (at most 1 MiB)
//	        4       u32 size of the results in bytes (at most 1 MiB)
//	        n       the args
//
// Nothing may follow the last job. The harness copies the segments into
// its image region, ImageSize bytes at ImageBase, readable, writable and
// executable, which its program's own section reserves (a segment outside
// it is an error, not a relocation), before it confines itself, and runs
// the jobs. The args are copied to a 16-byte aligned buffer; each job's
// results buffer is 16-byte aligned and zeroed.
//
// # Output
//
// One line per job on stdout, in job order, flushed after each child:
//
//	<index> <status> <results> <code> <pc> <addr>
//
// status is ok, signal, stack_overflow (a signal that exhausted the
// stack; its fields as signal's), syscall (the filter refused a system
// call), timeout, exit or null (the entry is 0). results is the results buffer in
// hex (memory order) for ok, the system call's name for syscall ("-" if
// the harness does not know it), "-" otherwise. code is the signal number
// for signal, the system call's number for syscall, the exit status for
// exit, else 0. pc is the faulting PC in hex (for syscall, the PC after
// the call), or 0x0 when the child was killed by a signal it did not catch
// (SIGABRT, the emulator's sandbox's SIGKILL); addr is then the child's
// process id, else si_addr (the faulting data address for SIGSEGV and
// SIGBUS, the instruction for SIGILL and SIGFPE).
//
// Exit status of the harness: 0 every job was run; 2 wrong usage or
// unreadable job file; 3 malformed job file; 4 a job's entry lies outside
// the image; 5 a system call failed (fork, mmap, waitpid, writing stdout);
// 6 the children cannot be confined (no seccomp filters, or under
// qemu-user); the emulator's sandbox adds 7, it could not be set up.
// The message is on stderr. A job line that is missing means the harness
// died; Run reports those jobs as StatusHarnessError.
//
// # Where code runs
//
// Place decides, from the driver's effective ISA flags, whether code runs
// natively (the host's architecture, and a Host whose CPU has every
// feature the flags need, read from /proc/cpuinfo and narrowed by
// $CLIFF_HOST_FEATURES) or under qemu-user with a -cpu that QemuCPU builds
// from the tables in cpu_table.go, for what that QEMU can run: probed once
// per emulator binary and version (emulators.go, csrc/probe.c) and cached
// on disk. $CLIFF_QEMU picks another QEMU (scripts/qemu72.sh unpacks 7.2).
// A flag neither can run is an error naming it, and NativeBlockers and
// QemuBlockers list the flags to compile without, so that identical code
// can run after all.
//
// # The machine's tools
//
// CheckToolchain proves that an architecture's code can be built and run
// here: harness compiled, a small batch linked and run. Its
// *ToolchainError, like Link's for a missing C library, names the Debian
// package that provides the missing piece, so that a broken machine is
// never blamed on Cranelift.
package harness
