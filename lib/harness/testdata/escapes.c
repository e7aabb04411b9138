/*
 * A fake batch object whose entries try to leave the harness with raw
 * system calls, as compiled code could by jumping to a system call
 * instruction: what neither cliff-run's check of external names nor
 * Link's check of undefined symbols can stop, only the seccomp filter
 * (natively) or the emulator's sandbox (under qemu). Each entry stores
 * what the call returned, so a call that was not stopped shows as an ok
 * result. TestSandbox links it with the symbols it needs allowed.
 *
 * The entry order is the test's table: keep sandbox_test.go in sync.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static void store64(unsigned char *p, int64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)((uint64_t)v >> (8 * i));
}

/* Allowed: returns 42 without a system call. */
static void harmless(const unsigned char *args, unsigned char *results)
{
	(void)args;
	store64(results, 42);
}

/* args: a NUL-terminated path to execute. */
static void exec_program(const unsigned char *args, unsigned char *results)
{
	char *const argv[] = {(char *)args, NULL};

	store64(results, syscall(SYS_execve, (const char *)args, argv, (char *const *)NULL));
}

static void make_socket(const unsigned char *args, unsigned char *results)
{
	(void)args;
	store64(results, syscall(SYS_socket, AF_INET, SOCK_STREAM, 0));
}

/* args: a NUL-terminated path to create. */
static void create_file(const unsigned char *args, unsigned char *results)
{
	store64(results, syscall(SYS_openat, AT_FDCWD, (const char *)args, O_WRONLY | O_CREAT | O_TRUNC, 0600));
}

/* args: a NUL-terminated path to open for reading. */
static void read_file(const unsigned char *args, unsigned char *results)
{
	store64(results, syscall(SYS_openat, AT_FDCWD, (const char *)args, O_RDONLY));
}

static void write_fd3(const unsigned char *args, unsigned char *results)
{
	(void)args;
	store64(results, syscall(SYS_write, 3, "x", 1));
}

/* A forged job line on the harness's stdout. */
static void write_stdout(const unsigned char *args, unsigned char *results)
{
	static const char line[] = "0 ok 2a00000000000000 0 0x0 0x0\n";

	(void)args;
	store64(results, syscall(SYS_write, 1, line, sizeof line - 1));
}

/* Signals the process group: SIGCONT, so that a failure of the test does
 * not kill anything. */
static void signal_group(const unsigned char *args, unsigned char *results)
{
	(void)args;
	store64(results, syscall(SYS_kill, 0, SIGCONT));
}

/* A new process, which exits at once. */
static void fork_process(const unsigned char *args, unsigned char *results)
{
	long pid;

	(void)args;
#if defined(__s390x__)
	pid = syscall(SYS_clone, 0, SIGCHLD, 0, 0, 0); /* clone(stack, flags, ...) */
#else
	pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
	if (pid == 0)
		syscall(SYS_exit_group, 0);
	store64(results, pid);
}

/* The harness's gate, from which the confined harness may fork. */
long cliff_gate(long nr, long a, long b);

/* A new process, forked through the harness's gate: natively the child
 * has unmapped it, so this faults; under qemu the harness does not use
 * it, and the sandbox refuses the fork. */
static void fork_through_gate(const unsigned char *args, unsigned char *results)
{
	long pid;

	(void)args;
#if defined(__s390x__)
	pid = cliff_gate(SYS_clone, 0, SIGCHLD);
#else
	pid = cliff_gate(SYS_clone, SIGCHLD, 0);
#endif
	if (pid == 0)
		syscall(SYS_exit_group, 0);
	store64(results, pid);
}

/*
 * A system call of another ABI: on x86_64, i386's umask (60) through int
 * 0x80, whose number is x86_64's exit, which the filter allows: only its
 * check of the ABI stops it. (A kernel without i386 emulation faults.)
 * Elsewhere it returns 0.
 */
static void foreign_abi(const unsigned char *args, unsigned char *results)
{
	long r = 0;

	(void)args;
#if defined(__x86_64__)
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(60L), "b"(022L) : "memory");
#endif
	store64(results, r);
}

/* Exits the job's process: allowed, and a crash as before. */
static void exit_process(const unsigned char *args, unsigned char *results)
{
	(void)args;
	(void)results;
	syscall(SYS_exit_group, 3);
}

const uint64_t cliff_entry_count = 12;
void *const cliff_entries[12] = {
	(void *)harmless,     /* 0 */
	(void *)exec_program, /* 1 */
	(void *)make_socket,  /* 2 */
	(void *)create_file,  /* 3 */
	(void *)read_file,    /* 4 */
	(void *)write_fd3,    /* 5 */
	(void *)write_stdout, /* 6 */
	(void *)signal_group, /* 7 */
	(void *)fork_process, /* 8 */
	(void *)exit_process, /* 9 */
	(void *)fork_through_gate, /* 10 */
	(void *)foreign_abi,       /* 11 */
};
