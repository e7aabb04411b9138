/*
 * What the harness (harness.c, for the target) and the emulator's sandbox
 * (sandbox.c, for the host) share about system calls and seccomp: the
 * machine's seccomp architecture, where struct seccomp_data holds what a
 * filter looks at, a small builder of filters, and the names of the
 * system calls a message may have to name. Link and sandbox.go put this
 * file in front of each source (it is not a header on disk), so it
 * compiles for whichever machine the compiler targets: every number comes
 * from that machine's <sys/syscall.h>.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* before any system header, for the file that follows */
#endif
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define SECCOMP_ARCH AUDIT_ARCH_RISCV64
#elif defined(__s390x__)
#define SECCOMP_ARCH AUDIT_ARCH_S390X
#else
#error "unsupported architecture"
#endif

/* The offsets of the low and high 32 bits of a 64-bit field of struct
 * seccomp_data at offset off. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SECCOMP_LOW(off) ((off) + 4)
#define SECCOMP_HIGH(off) (off)
#else
#define SECCOMP_LOW(off) (off)
#define SECCOMP_HIGH(off) ((off) + 4)
#endif
#define SECCOMP_ARG_LOW(i) SECCOMP_LOW(offsetof(struct seccomp_data, args) + 8 * (i))
#define SECCOMP_NR offsetof(struct seccomp_data, nr)

#define SECCOMP_UNUSED __attribute__((unused))

/*
 * A filter under construction: blocks that each test the system call
 * number (in the accumulator) and, when it matches, decide; otherwise the
 * next block runs, with the number in the accumulator again. filter_error
 * is set when the program does not fit.
 */
static struct sock_filter filter[256];
static unsigned short filter_len;
static int filter_error;

static SECCOMP_UNUSED void filter_emit(unsigned short code, uint32_t k, unsigned char jt, unsigned char jf)
{
	if (filter_len == sizeof filter / sizeof filter[0]) {
		filter_error = E2BIG;
		return;
	}
	filter[filter_len++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
}

#define FILTER_LOAD(offset) filter_emit(BPF_LD | BPF_W | BPF_ABS, (offset), 0, 0)
#define FILTER_RETURN(action) filter_emit(BPF_RET | BPF_K, (action), 0, 0)

/* filter_start makes a call of another ABI (whose numbers mean other
 * calls) get action, and loads the call's number. */
static SECCOMP_UNUSED void filter_start(uint32_t action)
{
	FILTER_LOAD(offsetof(struct seccomp_data, arch));
	filter_emit(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_ARCH, 1, 0);
	FILTER_RETURN(action);
	FILTER_LOAD(SECCOMP_NR);
}

/* filter_allow: system call nr is allowed. */
static SECCOMP_UNUSED void filter_allow(long nr)
{
	filter_emit(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1);
	FILTER_RETURN(SECCOMP_RET_ALLOW);
}

/* filter_fail: system call nr fails with errno e. */
static SECCOMP_UNUSED void filter_fail(long nr, int e)
{
	filter_emit(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1);
	FILTER_RETURN(SECCOMP_RET_ERRNO | (uint32_t)e);
}

/* filter_allow_if_in: nr is allowed when (the low 32 bits of) argument
 * arg is one of the n values, else it gets otherwise. */
static SECCOMP_UNUSED void filter_allow_if_in(long nr, int arg, const uint32_t *values, unsigned char n, uint32_t otherwise)
{
	unsigned char j;

	filter_emit(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, n + 3);
	FILTER_LOAD(SECCOMP_ARG_LOW(arg));
	for (j = 0; j < n; j++)
		filter_emit(BPF_JMP | BPF_JEQ | BPF_K, values[j], n - j, 0);
	FILTER_RETURN(otherwise);
	FILTER_RETURN(SECCOMP_RET_ALLOW);
	FILTER_LOAD(SECCOMP_NR);
}

#define FILTER_ALLOW_IF_IN(nr, arg, otherwise, ...)                                               \
	do {                                                                                      \
		const uint32_t values_[] = {__VA_ARGS__};                                         \
		filter_allow_if_in((nr), (arg), values_, sizeof values_ / sizeof values_[0], (otherwise)); \
	} while (0)

/* filter_allow_from: nr is allowed when the call is made from an
 * instruction in [start, start+size), else it gets otherwise. The range
 * must not cross a multiple of 4 GiB. */
static SECCOMP_UNUSED void filter_allow_from(long nr, uint64_t start, uint32_t size, uint32_t otherwise)
{
	size_t ip = offsetof(struct seccomp_data, instruction_pointer);

	if ((uint32_t)start + size < (uint32_t)start) {
		filter_error = ERANGE;
		return;
	}
	filter_emit(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 7);
	FILTER_LOAD(SECCOMP_HIGH(ip));
	filter_emit(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(start >> 32), 0, 4);
	FILTER_LOAD(SECCOMP_LOW(ip));
	filter_emit(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)start, 0, 2);
	filter_emit(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)start + size, 1, 0);
	FILTER_RETURN(SECCOMP_RET_ALLOW);
	FILTER_RETURN(otherwise);
	FILTER_LOAD(SECCOMP_NR);
}

struct syscall_name {
	long nr;
	const char *name;
};

#define SYSCALL_NAME(n) {__NR_##n, #n},

/*
 * The system calls messages name: those the harness and QEMU make, those
 * that would let code escape, and what libc functions use underneath.
 * Others are named by number.
 */
static const struct syscall_name syscall_names[] = {
	SYSCALL_NAME(read) SYSCALL_NAME(write) SYSCALL_NAME(readv) SYSCALL_NAME(writev)
	SYSCALL_NAME(pread64) SYSCALL_NAME(pwrite64) SYSCALL_NAME(openat) SYSCALL_NAME(openat2)
	SYSCALL_NAME(close) SYSCALL_NAME(lseek) SYSCALL_NAME(mmap) SYSCALL_NAME(munmap)
	SYSCALL_NAME(mprotect) SYSCALL_NAME(mremap) SYSCALL_NAME(madvise) SYSCALL_NAME(brk)
	SYSCALL_NAME(rt_sigaction) SYSCALL_NAME(rt_sigprocmask) SYSCALL_NAME(rt_sigreturn)
	SYSCALL_NAME(sigaltstack) SYSCALL_NAME(rt_sigsuspend) SYSCALL_NAME(rt_sigtimedwait)
	SYSCALL_NAME(ppoll) SYSCALL_NAME(pselect6) SYSCALL_NAME(nanosleep) SYSCALL_NAME(clock_nanosleep)
	SYSCALL_NAME(clock_gettime) SYSCALL_NAME(gettimeofday) SYSCALL_NAME(sched_yield)
	SYSCALL_NAME(futex) SYSCALL_NAME(set_robust_list) SYSCALL_NAME(rseq) SYSCALL_NAME(set_tid_address)
	SYSCALL_NAME(gettid) SYSCALL_NAME(getpid) SYSCALL_NAME(getppid) SYSCALL_NAME(getuid)
	SYSCALL_NAME(geteuid) SYSCALL_NAME(getgid) SYSCALL_NAME(getegid) SYSCALL_NAME(uname)
	SYSCALL_NAME(sysinfo) SYSCALL_NAME(getrandom) SYSCALL_NAME(setitimer) SYSCALL_NAME(getitimer)
	SYSCALL_NAME(wait4) SYSCALL_NAME(waitid) SYSCALL_NAME(exit) SYSCALL_NAME(exit_group)
	SYSCALL_NAME(getcwd) SYSCALL_NAME(membarrier) SYSCALL_NAME(prlimit64) SYSCALL_NAME(getrlimit)
	SYSCALL_NAME(setrlimit) SYSCALL_NAME(restart_syscall) SYSCALL_NAME(fstat) SYSCALL_NAME(newfstatat)
	SYSCALL_NAME(statx) SYSCALL_NAME(readlinkat) SYSCALL_NAME(faccessat) SYSCALL_NAME(faccessat2)
	SYSCALL_NAME(fcntl) SYSCALL_NAME(ioctl) SYSCALL_NAME(dup) SYSCALL_NAME(dup3) SYSCALL_NAME(pipe2)
	SYSCALL_NAME(socket) SYSCALL_NAME(socketpair) SYSCALL_NAME(connect) SYSCALL_NAME(bind)
	SYSCALL_NAME(listen) SYSCALL_NAME(accept4) SYSCALL_NAME(sendto) SYSCALL_NAME(sendmsg)
	SYSCALL_NAME(recvfrom) SYSCALL_NAME(recvmsg) SYSCALL_NAME(clone) SYSCALL_NAME(clone3)
	SYSCALL_NAME(execve) SYSCALL_NAME(execveat) SYSCALL_NAME(kill) SYSCALL_NAME(tkill)
	SYSCALL_NAME(tgkill) SYSCALL_NAME(rt_sigqueueinfo) SYSCALL_NAME(pidfd_send_signal)
	SYSCALL_NAME(pidfd_open) SYSCALL_NAME(pidfd_getfd) SYSCALL_NAME(ptrace)
	SYSCALL_NAME(process_vm_readv) SYSCALL_NAME(process_vm_writev) SYSCALL_NAME(unlinkat)
	SYSCALL_NAME(renameat2) SYSCALL_NAME(mkdirat) SYSCALL_NAME(linkat) SYSCALL_NAME(symlinkat)
	SYSCALL_NAME(fchmod) SYSCALL_NAME(fchmodat) SYSCALL_NAME(fchown) SYSCALL_NAME(fchownat)
	SYSCALL_NAME(truncate) SYSCALL_NAME(ftruncate) SYSCALL_NAME(fallocate) SYSCALL_NAME(mount)
	SYSCALL_NAME(umount2) SYSCALL_NAME(setuid) SYSCALL_NAME(setgid) SYSCALL_NAME(setsid)
	SYSCALL_NAME(setpgid) SYSCALL_NAME(prctl) SYSCALL_NAME(personality) SYSCALL_NAME(unshare)
	SYSCALL_NAME(setns) SYSCALL_NAME(chdir) SYSCALL_NAME(fchdir) SYSCALL_NAME(chroot)
	SYSCALL_NAME(reboot) SYSCALL_NAME(bpf) SYSCALL_NAME(perf_event_open) SYSCALL_NAME(io_uring_setup)
	SYSCALL_NAME(memfd_create) SYSCALL_NAME(userfaultfd) SYSCALL_NAME(getdents64)
	SYSCALL_NAME(sched_getaffinity) SYSCALL_NAME(mknodat) SYSCALL_NAME(utimensat)
	SYSCALL_NAME(sendfile) SYSCALL_NAME(splice) SYSCALL_NAME(seccomp)
#ifdef __NR_open
	SYSCALL_NAME(open) SYSCALL_NAME(creat) SYSCALL_NAME(fork) SYSCALL_NAME(vfork)
	SYSCALL_NAME(pause) SYSCALL_NAME(alarm) SYSCALL_NAME(stat) SYSCALL_NAME(lstat)
	SYSCALL_NAME(readlink) SYSCALL_NAME(access) SYSCALL_NAME(dup2) SYSCALL_NAME(pipe)
	SYSCALL_NAME(unlink) SYSCALL_NAME(rename) SYSCALL_NAME(mkdir) SYSCALL_NAME(rmdir)
	SYSCALL_NAME(link) SYSCALL_NAME(symlink) SYSCALL_NAME(chmod) SYSCALL_NAME(chown)
	SYSCALL_NAME(select) SYSCALL_NAME(poll) SYSCALL_NAME(mknod)
#endif
#ifdef __NR_renameat
	SYSCALL_NAME(renameat)
#endif
#ifdef __NR_accept
	SYSCALL_NAME(accept)
#endif
#ifdef __NR_socketcall
	SYSCALL_NAME(socketcall)
#endif
#ifdef __NR_arch_prctl
	SYSCALL_NAME(arch_prctl)
#endif
};

/* syscall_name is the name of system call nr, or NULL. */
static SECCOMP_UNUSED const char *syscall_name(long nr)
{
	size_t i;

	for (i = 0; i < sizeof syscall_names / sizeof syscall_names[0]; i++)
		if (syscall_names[i].nr == nr)
			return syscall_names[i].name;
	return NULL;
}
