/*
 * cliff harness: loads a batch image (the code cliff-driver compiled,
 * linked by cliff at a fixed address against this program's symbols),
 * runs its entries in forked children and reports one line per job.
 *
 * The program is built once per architecture and knows nothing of any
 * batch: the job file carries the image's segments and, per job, the
 * address of its entry, a trampoline `void entry(void *args, void
 * *results)`. Loading an image costs a copy; linking a static executable
 * per batch cost a hundred milliseconds of the linker.
 *
 * Usage: harness JOBFILE. The job file format, the output lines and the
 * exit statuses are documented in the Go package (lib/harness/doc.go);
 * keep them in sync.
 *
 * Consecutive jobs with the same entry (a case's input vectors) run one
 * after the other in one child: a fork costs far more than a call,
 * especially under qemu-user, where the child also translates the code
 * again. When a job fails (signal, timeout, exit), the next job starts in
 * a fresh child, so a failure never affects another job.
 *
 * With the job file's confine flag, the harness runs under a seccomp
 * filter, which its children inherit (confine): the compiled code may
 * then only return, exit and set its CPU-time limit; any other system
 * call is refused with SIGSYS and reported as a "syscall" line. Under
 * qemu-user the guest cannot install a filter (QEMU refuses it), so there
 * the emulator runs confined instead (sandbox.c).
 *
 * Portable to x86_64, aarch64, riscv64 and s390x Linux (glibc). Only the
 * faulting-PC extraction and the gate (below) differ per architecture;
 * the system call numbers come from the target's headers (seccomp.h, put
 * in front of this file when it is compiled).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

typedef void (*entry_fn)(void *args, void *results);

/*
 * Cranelift's libcalls, as a batch image calls them: its link defines
 * each libcall's symbol as the address of cliff_libcall_<name> here
 * (link.go). Not libc's own symbols: in a static glibc memcpy, ceil, fma
 * and others are IFUNCs, whose symbol is the resolver that picks an
 * implementation for the CPU; code that called the symbol's address would
 * call the resolver. A call from here goes through the program's own
 * resolved PLT slot. The list is lib/ir/libcalls.go's, which
 * TestHarnessCDefinesLibcalls checks this file against.
 */
#define LIBCALL1(type, name) \
	type cliff_libcall_##name(type x); \
	type cliff_libcall_##name(type x) { return name(x); }
#define LIBCALL3(type, name) \
	type cliff_libcall_##name(type x, type y, type z); \
	type cliff_libcall_##name(type x, type y, type z) { return name(x, y, z); }
LIBCALL1(float, ceilf)
LIBCALL1(double, ceil)
LIBCALL1(float, floorf)
LIBCALL1(double, floor)
LIBCALL1(float, truncf)
LIBCALL1(double, trunc)
LIBCALL1(float, nearbyintf)
LIBCALL1(double, nearbyint)
LIBCALL3(float, fmaf)
LIBCALL3(double, fma)
void *cliff_libcall_memcpy(void *dst, const void *src, size_t n);
void *cliff_libcall_memcpy(void *dst, const void *src, size_t n) { return memcpy(dst, src, n); }
void *cliff_libcall_memmove(void *dst, const void *src, size_t n);
void *cliff_libcall_memmove(void *dst, const void *src, size_t n) { return memmove(dst, src, n); }
void *cliff_libcall_memset(void *dst, int c, size_t n);
void *cliff_libcall_memset(void *dst, int c, size_t n) { return memset(dst, c, n); }
int cliff_libcall_memcmp(const void *a, const void *b, size_t n);
int cliff_libcall_memcmp(const void *a, const void *b, size_t n) { return memcmp(a, b, n); }

#if defined(__x86_64__)
#include <emmintrin.h>
/*
 * Cranelift's libcall for pshufb on x86_64 without SSSE3
 * (LibCall::X86Pshufb): shuffles and swizzles call it. Written without
 * SSSE3 so that the harness runs wherever the code under test may. Bytes
 * of the mask with the top bit set select zero; otherwise the low four
 * bits select a byte of a.
 */
__m128i __cranelift_x86_pshufb(__m128i a, __m128i mask)
{
	unsigned char x[16], m[16], r[16];
	int i;

	_mm_storeu_si128((__m128i *)x, a);
	_mm_storeu_si128((__m128i *)m, mask);
	for (i = 0; i < 16; i++)
		r[i] = (m[i] & 0x80) ? 0 : x[m[i] & 15];
	return _mm_loadu_si128((const __m128i *)r);
}
#endif

/* Exit codes of the harness itself; job outcomes are on stdout. */
enum {
	EXIT_USAGE = 2,     /* wrong command line or unreadable job file */
	EXIT_BAD_FILE = 3,  /* the job file is malformed */
	EXIT_BAD_ENTRY = 4, /* a job names an entry the object does not have */
	EXIT_SYSTEM = 5,    /* fork, mmap, waitpid or stdout failed */
	EXIT_CONFINE = 6,   /* the seccomp filter could not be installed */
};

#define MAGIC "CLIFJOB2"
#define HEADER_SIZE 24
#define SEGMENT_HEADER_SIZE 16
#define JOB_HEADER_SIZE 16
#define IMAGE_SIZE (64ul << 20) /* the image region's size: keep link.go's in sync */
#define FLAG_ISOLATE 1u        /* one child per job, even for equal entries */
#define FLAG_CONFINE 2u        /* run under the seccomp filter */
#define MAX_BUFFER (1u << 20)  /* largest args or results of one job */
#define ALT_STACK_SIZE 65536

/* The child's report, in memory shared with the parent. */
struct shared {
	volatile uint32_t completed; /* jobs of the group that returned */
	volatile uint32_t signalled; /* the next job raised a caught signal */
	volatile int32_t signo;
	volatile uint64_t pc;   /* PC in the signal context */
	volatile uint64_t addr; /* si_addr */
	volatile int32_t syscall; /* SIGSYS: the refused system call */
	volatile uint32_t overflow; /* the fault was the stack's exhaustion */
};

struct job {
	uint64_t entry; /* the trampoline's address; 0 for a module that failed */
	uint32_t args_len;
	uint32_t result_size;
	const unsigned char *args;
	size_t result_offset; /* of its results in the shared results area */
};

static struct shared *shm;
static unsigned char *shm_results;
static unsigned char *args_buf; /* 16-byte aligned, private to each child */
static char alt_stack[ALT_STACK_SIZE] __attribute__((aligned(16)));
static volatile sig_atomic_t backstop_fired;
static volatile sig_atomic_t in_child;

/* SIGSYS is the seccomp filter's refusal (SECCOMP_RET_TRAP). */
static const int fault_signals[] = {SIGILL, SIGFPE, SIGSEGV, SIGBUS, SIGTRAP, SIGSYS};

/*
 * The gate: the only code from which the confined harness may fork a
 * child or signal one. A filter cannot tell the harness from its
 * children, which inherit it, but it sees where a call comes from: clone
 * and kill are allowed only from the gate's pages, and each child unmaps
 * them before its first job and cannot map code again (mmap, mprotect and
 * brk are refused). So the filter is installed once, in the harness, not
 * in every child: installing one costs a child about 50us of CPU.
 *
 * cliff_gate(nr, a, b) makes system call nr with arguments a and b; it
 * returns what the kernel returns (-errno on failure). It fills
 * GATE_SIZE bytes, aligned to them: the largest page size of the four
 * architectures, so that the pages hold no other code.
 */
#define GATE_SIZE 65536
#define GATE_ASM(body)                                                                                  \
	__asm__(".text\n.balign 65536\n.globl cliff_gate\n.type cliff_gate, @function\ncliff_gate:\n" body \
		".size cliff_gate, .-cliff_gate\n.balign 65536\n")
#if defined(__x86_64__)
GATE_ASM("mov %rdi, %rax\nmov %rsi, %rdi\nmov %rdx, %rsi\nsyscall\nret\n");
#elif defined(__aarch64__)
GATE_ASM("mov x8, x0\nmov x0, x1\nmov x1, x2\nsvc #0\nret\n");
#elif defined(__riscv)
GATE_ASM("mv a7, a0\nmv a0, a1\nmv a1, a2\necall\nret\n");
#elif defined(__s390x__)
GATE_ASM("lgr %r1, %r2\nlgr %r2, %r3\nlgr %r3, %r4\nsvc 0\nbr %r14\n");
#endif
long cliff_gate(long nr, long a, long b);

/* clone's flags for a plain fork: the first argument, but the second on
 * s390x (clone(stack, flags, ...)). */
#if defined(__s390x__)
#define FORK_ARGS 0, SIGCHLD
#else
#define FORK_ARGS SIGCHLD, 0
#endif

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
{
	va_list ap;
	fputs("harness: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t fault_pc(const ucontext_t *uc)
{
#if defined(__x86_64__)
	return (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uint64_t)uc->uc_mcontext.pc;
#elif defined(__riscv)
	return (uint64_t)uc->uc_mcontext.__gregs[0]; /* REG_PC */
#elif defined(__s390x__)
	return (uint64_t)uc->uc_mcontext.psw.addr; /* already past the instruction */
#else
#error "unsupported architecture"
#endif
}

static uint64_t fault_sp(const ucontext_t *uc)
{
#if defined(__x86_64__)
	return (uint64_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	return (uint64_t)uc->uc_mcontext.sp;
#elif defined(__riscv)
	return (uint64_t)uc->uc_mcontext.__gregs[2]; /* x2 */
#elif defined(__s390x__)
	return (uint64_t)uc->uc_mcontext.gregs[15];
#else
#error "unsupported architecture"
#endif
}

/*
 * The stack the jobs run on: the main thread's, inherited through fork.
 * stack_top is near its top (set in main), stack_size its limit
 * (RLIMIT_STACK; 8 MiB when unlimited, QEMU's default for the guest).
 */
static uint64_t stack_top, stack_size;
#define STACK_NEAR 65536 /* how far from SP a fault may be and still be a push */

/*
 * stack_overflow tells the exhaustion of the stack from other memory
 * faults: a SIGSEGV or SIGBUS whose address is next to the stack pointer
 * (a push, a call, a frame's store: the guard area below the stack),
 * with at least half the stack in use. The handler runs on the alternate
 * stack, so it runs at all. A wild pointer into the stack's own pages
 * does not fault; one just below SP with the stack nearly full is
 * indistinguishable, and rare.
 */
static int stack_overflow(int sig, uint64_t addr, uint64_t sp)
{
	if ((sig != SIGSEGV && sig != SIGBUS) || stack_top == 0 || sp > stack_top)
		return 0;
	if (stack_top - sp < stack_size / 2)
		return 0;
	return addr + STACK_NEAR >= sp && addr <= sp + STACK_NEAR;
}

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
	if (!in_child) {
		/* The harness itself faulted: let the default action happen
		 * when the faulting instruction runs again. */
		signal(sig, SIG_DFL);
		return;
	}
	shm->signo = sig;
	shm->pc = fault_pc((const ucontext_t *)ctx);
	shm->addr = (uint64_t)(uintptr_t)si->si_addr;
	if (sig == SIGSYS)
		shm->syscall = si->si_syscall;
	shm->overflow = (uint32_t)stack_overflow(sig, shm->addr, fault_sp((const ucontext_t *)ctx));
	shm->signalled = 1;
	_exit(0);
}

static void on_backstop(int sig)
{
	(void)sig;
	backstop_fired = 1;
}

/*
 * install_fault_handlers runs once in the parent; children inherit the
 * handlers and the alternate stack (so stack overflow is caught) through
 * fork. Doing it once matters under qemu-user, where every piece of code a
 * child runs for the first time is translated again in that child.
 */
static void install_fault_handlers(void)
{
	stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack};
	struct itimerval off = {{0, 0}, {0, 0}};
	struct sigaction sa;
	size_t i;

	struct rlimit rl;

	if (sigaltstack(&ss, NULL) != 0)
		die(EXIT_SYSTEM, "sigaltstack: %s", strerror(errno));
	stack_size = 8ul << 20;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		stack_size = (uint64_t)rl.rlim_cur;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof fault_signals / sizeof fault_signals[0]; i++)
		if (sigaction(fault_signals[i], &sa, NULL) != 0)
			die(EXIT_SYSTEM, "sigaction: %s", strerror(errno));
	/* The child's timer signal must kill it (default action). */
	signal(SIGPROF, SIG_DFL);
	/* Warm up setitimer's code for the children (see above). */
	setitimer(ITIMER_PROF, &off, NULL);
}

/*
 * confine puts the harness under its seccomp filter, once its set-up is
 * done. What the filter allows every process (the harness and the jobs'
 * children):
 *   setitimer      the per-job CPU-time limit, the harness's backstop
 *   rt_sigreturn   returning from a signal handler (the backstop's)
 *   exit, exit_group
 *   wait4          the harness waits for its children
 *   write          to stdout and stderr only: the harness's output and
 *                  messages (each child closes both before its jobs)
 *   close, munmap  a child closing those and unmapping the gate
 * and only from the gate (the harness): clone (a child) and kill (the
 * backstop). The jobs themselves need no system call: the only external
 * functions they can call are Cranelift's libcalls (memcpy, ceilf, fma,
 * ...; see libcalls.go), which make none. Another call raises SIGSYS,
 * which on_fault reports; a call of another ABI (x86_64's int 0x80, say),
 * whose number would mean something else, kills the process.
 */
static void confine(void)
{
	uint64_t gate = (uint64_t)(uintptr_t)cliff_gate;
	struct sock_fprog prog;

	/* A filter requires no_new_privs of an unprivileged process; the
	 * harness never executes a program anyway. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		die(EXIT_CONFINE, "cannot confine the jobs: no_new_privs: %s", strerror(errno));
	filter_start(SECCOMP_RET_KILL_PROCESS);
	filter_allow(__NR_setitimer);
	filter_allow(__NR_rt_sigreturn);
	filter_allow(__NR_exit_group);
	filter_allow(__NR_exit);
	filter_allow(__NR_wait4);
	filter_allow(__NR_close);
	filter_allow(__NR_munmap);
	FILTER_ALLOW_IF_IN(__NR_write, 0, SECCOMP_RET_TRAP, STDOUT_FILENO, STDERR_FILENO);
	filter_allow_from(__NR_clone, gate, GATE_SIZE, SECCOMP_RET_TRAP);
	filter_allow_from(__NR_kill, gate, GATE_SIZE, SECCOMP_RET_TRAP);
	FILTER_RETURN(SECCOMP_RET_TRAP);
	if (filter_error)
		die(EXIT_CONFINE, "cannot confine the jobs: filter: %s", strerror(filter_error));
	prog.len = filter_len;
	prog.filter = filter;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
		die(EXIT_CONFINE, "cannot confine the jobs: seccomp filter: %s", strerror(errno));
}

/* new_child forks (through the gate when confined); in the child,
 * confined, it closes stdout and stderr and unmaps the gate. */
static pid_t new_child(uint32_t flags)
{
	long pid;

	if (!(flags & FLAG_CONFINE))
		return fork();
	pid = cliff_gate(__NR_clone, FORK_ARGS);
	if (pid < 0) {
		errno = (int)-pid;
		return -1;
	}
	if (pid == 0) {
		close(STDERR_FILENO);
		if (munmap((void *)(uintptr_t)cliff_gate, GATE_SIZE) != 0)
			_exit(123); /* cannot happen: the gate is mapped */
	}
	return (pid_t)pid;
}

/* kill_child kills a child (through the gate when confined). */
static void kill_child(pid_t pid, uint32_t flags)
{
	if (flags & FLAG_CONFINE)
		cliff_gate(__NR_kill, pid, SIGKILL);
	else
		kill(pid, SIGKILL);
}

/* run_child runs jobs[first, end) in order and exits; it never returns. */
static void run_child(const struct job *jobs, uint32_t first, uint32_t end, unsigned timeout_ms)
{
	/* CPU time, not wall time, so a loaded machine does not cause false
	 * timeouts; the parent has a wall-clock backstop for a blocked child. */
	struct itimerval limit = {{0, 0}, {timeout_ms / 1000, (timeout_ms % 1000) * 1000}};
	entry_fn fn = (entry_fn)(uintptr_t)jobs[first].entry;
	uint32_t i;

	in_child = 1;
	/* stdout is the parent's: a job that wrote there could forge another
	 * job's line. Nothing a confined child may do opens a descriptor, so
	 * it cannot get stdout back. (Under qemu a child keeps stderr, where
	 * QEMU reports its own failures.) */
	close(STDOUT_FILENO);
	for (i = first; i < end; i++) {
		memcpy(args_buf, jobs[i].args, jobs[i].args_len);
		if (timeout_ms > 0 && setitimer(ITIMER_PROF, &limit, NULL) != 0)
			_exit(122);
		fn(args_buf, shm_results + jobs[i].result_offset);
		shm->completed = i - first + 1;
	}
	_exit(0);
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/*
 * The image region: IMAGE_SIZE bytes, readable, writable and executable,
 * a section of the program's own, which the link puts at ImageBase
 * (link.go). The kernel (or qemu-user) maps it with the program, before
 * it places the heap: the heap starts after the program's last segment,
 * so it can never take the image's addresses. (A mapping made at run
 * time could not promise that: Linux 6 randomises the start of a static
 * program's heap over a gigabyte.) Zero until load_image writes it.
 */
__asm__(".section .cliff_image,\"awx\",@nobits\n.balign 65536\n.globl cliff_image\n"
	".type cliff_image, @object\ncliff_image:\n.skip 67108864\n.size cliff_image, 67108864\n.previous\n");
extern unsigned char cliff_image[];

/* The loaded image: [image_lo, image_hi). */
static uint64_t image_lo, image_hi;

/*
 * load_image copies the segments into the image region at the addresses
 * they were linked for; the rest of the region stays zero (.bss). A
 * segment outside the region is an error, not a relocation: the image was
 * linked for its addresses.
 */
static size_t load_image(const unsigned char *buf, size_t len, size_t off, uint32_t nsegments)
{
	uint64_t region = (uint64_t)(uintptr_t)cliff_image, lo = UINT64_MAX, hi = 0;
	size_t pos = off;
	uint32_t i;

	for (i = 0; i < nsegments; i++) {
		uint64_t addr, filesz, memsz;

		if (len - pos < SEGMENT_HEADER_SIZE)
			die(EXIT_BAD_FILE, "segment %u: header truncated at byte %zu", i, pos);
		addr = le64(buf + pos);
		filesz = le32(buf + pos + 8);
		memsz = le32(buf + pos + 12);
		pos += SEGMENT_HEADER_SIZE;
		if (filesz > memsz || len - pos < filesz)
			die(EXIT_BAD_FILE, "segment %u: %llu bytes in file, %llu in memory, %zu left at byte %zu", i,
			    (unsigned long long)filesz, (unsigned long long)memsz, len - pos, pos);
		if (addr < region || memsz > IMAGE_SIZE || addr - region > IMAGE_SIZE - memsz)
			die(EXIT_BAD_FILE, "segment %u: %llu bytes at 0x%llx lie outside the image region [0x%llx, 0x%llx)",
			    i, (unsigned long long)memsz, (unsigned long long)addr, (unsigned long long)region,
			    (unsigned long long)(region + IMAGE_SIZE));
		if (addr < lo)
			lo = addr;
		if (addr + memsz > hi)
			hi = addr + memsz;
		memcpy((void *)(uintptr_t)addr, buf + pos, filesz);
		pos += filesz;
	}
	if (nsegments == 0)
		return pos;
	/* Data written, now code: aarch64 and riscv64 need the caches told. */
	__builtin___clear_cache((char *)(uintptr_t)lo, (char *)(uintptr_t)hi);
	image_lo = lo;
	image_hi = hi;
	return pos;
}

static struct job *parse_jobs(const unsigned char *buf, size_t len, uint32_t *count, uint32_t *timeout_ms,
			      uint32_t *flags)
{
	size_t off;
	struct job *jobs;
	uint32_t i;

	if (len < HEADER_SIZE || memcmp(buf, MAGIC, 8) != 0)
		die(EXIT_BAD_FILE, "job file does not start with a %d-byte %s header", HEADER_SIZE, MAGIC);
	*count = le32(buf + 8);
	*timeout_ms = le32(buf + 12);
	*flags = le32(buf + 16);
	off = load_image(buf, len, HEADER_SIZE, le32(buf + 20));
	if (*count > (len - off) / JOB_HEADER_SIZE)
		die(EXIT_BAD_FILE, "job file claims %u jobs but has only %zu bytes", *count, len);
	jobs = calloc(*count ? *count : 1, sizeof *jobs);
	if (jobs == NULL)
		die(EXIT_SYSTEM, "out of memory for %u jobs", *count);
	for (i = 0; i < *count; i++) {
		if (len - off < JOB_HEADER_SIZE)
			die(EXIT_BAD_FILE, "job %u: header truncated at byte %zu", i, off);
		jobs[i].entry = le64(buf + off);
		jobs[i].args_len = le32(buf + off + 8);
		jobs[i].result_size = le32(buf + off + 12);
		off += JOB_HEADER_SIZE;
		if (jobs[i].args_len > MAX_BUFFER || jobs[i].result_size > MAX_BUFFER)
			die(EXIT_BAD_FILE, "job %u: args (%u bytes) or results (%u bytes) larger than %u",
			    i, jobs[i].args_len, jobs[i].result_size, MAX_BUFFER);
		if (len - off < jobs[i].args_len)
			die(EXIT_BAD_FILE, "job %u: args truncated at byte %zu", i, off);
		jobs[i].args = buf + off;
		off += jobs[i].args_len;
		if (jobs[i].entry != 0 && (jobs[i].entry < image_lo || jobs[i].entry >= image_hi))
			die(EXIT_BAD_ENTRY, "job %u: entry 0x%llx outside the image [0x%llx, 0x%llx)", i,
			    (unsigned long long)jobs[i].entry, (unsigned long long)image_lo,
			    (unsigned long long)image_hi);
	}
	if (off != len)
		die(EXIT_BAD_FILE, "job file has %zu trailing bytes", len - off);
	return jobs;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	if (f == NULL)
		die(EXIT_USAGE, "%s: %s", path, strerror(errno));
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (buf == NULL)
				die(EXIT_SYSTEM, "out of memory reading %s", path);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		if (n == 0)
			break;
		*len += n;
	}
	if (ferror(f))
		die(EXIT_USAGE, "%s: read error", path);
	fclose(f);
	return buf;
}

static void print_outcome(uint32_t index, const char *status, const unsigned char *results, uint32_t nresults,
			  long code, uint64_t pc, uint64_t addr)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t i;

	printf("%u %s ", index, status);
	if (results == NULL || nresults == 0) {
		putchar('-');
	} else {
		for (i = 0; i < nresults; i++) {
			putchar(hex[results[i] >> 4]);
			putchar(hex[results[i] & 15]);
		}
	}
	printf(" %ld 0x%llx 0x%llx\n", code, (unsigned long long)pc, (unsigned long long)addr);
}

/* print_refusal reports a system call the seccomp filter refused. */
static void print_refusal(uint32_t index, int nr, uint64_t pc)
{
	const char *name = syscall_name(nr);

	printf("%u syscall %s %d 0x%llx 0x0\n", index, name ? name : "-", nr, (unsigned long long)pc);
}

/*
 * run_group forks one child for jobs[first, end), which share an entry,
 * waits for it, and reports the jobs it finished plus the one that failed.
 * It returns the index of the first job not reported.
 */
static uint32_t run_group(const struct job *jobs, uint32_t first, uint32_t end, unsigned timeout_ms, uint32_t flags)
{
	/* Wall-clock backstop: a child that sleeps or blocks uses no CPU
	 * time. It is killed when no job finished for this long. */
	unsigned backstop_ms = 2 * timeout_ms + 500;
	struct itimerval backstop = {{backstop_ms / 1000, (backstop_ms % 1000) * 1000},
				     {backstop_ms / 1000, (backstop_ms % 1000) * 1000}};
	struct itimerval off = {{0, 0}, {0, 0}};
	uint32_t completed, last_completed = 0, i, failed;
	int status, killed = 0;
	pid_t pid;

	memset((void *)shm, 0, sizeof *shm);
	memset(shm_results + jobs[first].result_offset, 0,
	       jobs[end - 1].result_offset + jobs[end - 1].result_size - jobs[first].result_offset);
	/* The child must not inherit unwritten output (it never flushes, but
	 * a copy of the buffer would be wasted work). */
	if (fflush(stdout) != 0)
		die(EXIT_SYSTEM, "writing stdout: %s", strerror(errno));

	pid = new_child(flags);
	if (pid < 0)
		die(EXIT_SYSTEM, "fork: %s", strerror(errno));
	if (pid == 0)
		run_child(jobs, first, end, timeout_ms);

	backstop_fired = 0;
	if (timeout_ms > 0)
		setitimer(ITIMER_REAL, &backstop, NULL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			die(EXIT_SYSTEM, "waitpid: %s", strerror(errno));
		if (backstop_fired) {
			backstop_fired = 0;
			if (shm->completed == last_completed) {
				kill_child(pid, flags);
				killed = 1;
			}
			last_completed = shm->completed;
		}
	}
	if (timeout_ms > 0)
		setitimer(ITIMER_REAL, &off, NULL);

	completed = shm->completed;
	if (completed > end - first)
		completed = end - first; /* the code scribbled on the shared page */
	for (i = first; i < first + completed; i++)
		print_outcome(i, "ok", shm_results + jobs[i].result_offset, jobs[i].result_size, 0, 0, 0);
	if (first + completed == end)
		return end;

	failed = first + completed;
	if (shm->signalled && shm->signo == SIGSYS)
		print_refusal(failed, shm->syscall, shm->pc);
	else if (shm->signalled && shm->overflow)
		print_outcome(failed, "stack_overflow", NULL, 0, shm->signo, shm->pc, shm->addr);
	else if (shm->signalled)
		print_outcome(failed, "signal", NULL, 0, shm->signo, shm->pc, shm->addr);
	else if (killed || (WIFSIGNALED(status) && WTERMSIG(status) == SIGPROF))
		print_outcome(failed, "timeout", NULL, 0, 0, 0, 0);
	else if (WIFSIGNALED(status))
		/* Under the emulator's sandbox the pid names the refusal in
		 * its log (sandbox.c). */
		print_outcome(failed, "signal", NULL, 0, WTERMSIG(status), 0, (uint64_t)pid);
	else
		print_outcome(failed, "exit", NULL, 0, WEXITSTATUS(status), 0, 0);
	return failed + 1;
}

int main(int argc, char **argv)
{
	unsigned char *file;
	size_t len, results_len = 0;
	uint32_t count, timeout_ms, flags, i, end, max_args = 0;
	struct job *jobs;
	struct sigaction sa;
	struct rlimit no_core = {0, 0};
	sigset_t none;

	/* main's frame is the top of the stack the jobs use, but for the
	 * arguments and environment above it. */
	stack_top = (uint64_t)(uintptr_t)&file;
	if (argc != 2)
		die(EXIT_USAGE, "usage: %s JOBFILE", argv[0]);
	file = read_file(argv[1], &len);
	jobs = parse_jobs(file, len, &count, &timeout_ms, &flags);
	for (i = 0; i < count; i++) {
		if (jobs[i].args_len > max_args)
			max_args = jobs[i].args_len;
		jobs[i].result_offset = results_len;
		results_len += (jobs[i].result_size + 15) & ~15u; /* 16-byte aligned */
	}

	if (posix_memalign((void **)&args_buf, 16, max_args + 16) != 0)
		die(EXIT_SYSTEM, "out of memory for args");
	shm = mmap(NULL, sizeof *shm, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED)
		die(EXIT_SYSTEM, "mmap: %s", strerror(errno));
	shm_results = mmap(NULL, results_len + 16, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm_results == MAP_FAILED)
		die(EXIT_SYSTEM, "mmap %zu bytes: %s", results_len + 16, strerror(errno));

	/* The caller's signal mask is inherited across exec; the child needs
	 * the fault and timer signals delivered. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* A crashing job is expected; its core dump is not wanted. */
	setrlimit(RLIMIT_CORE, &no_core);
	install_fault_handlers();
	/* The parent's SIGALRM is the backstop; a child inherits the handler,
	 * but fork clears timers and a child's timer is ITIMER_PROF. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_backstop; /* no SA_RESTART: waitpid returns EINTR */
	sigaction(SIGALRM, &sa, NULL);
	if (flags & FLAG_CONFINE) {
		/* stdio would ask fstat for a buffer size on the first line. */
		static char outbuf[65536];
		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
		setvbuf(stderr, NULL, _IONBF, 0);
		confine();
	}

	for (i = 0; i < count;) {
		if (jobs[i].entry == 0) {
			print_outcome(i, "null", NULL, 0, 0, 0, 0);
			i++;
			continue;
		}
		end = i + 1;
		if (!(flags & FLAG_ISOLATE))
			while (end < count && jobs[end].entry == jobs[i].entry)
				end++;
		i = run_group(jobs, i, end, timeout_ms, flags);
		/* Flush per group: if the harness dies, the answered jobs are
		 * not lost. */
		if (fflush(stdout) != 0)
			die(EXIT_SYSTEM, "writing stdout: %s", strerror(errno));
	}
	return 0;
}
