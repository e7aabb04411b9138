/*
 * cliff sandbox: runs qemu-user, and with it the harness and every job it
 * runs, under a seccomp filter. Natively the harness confines itself and
 * its children (harness.c); under qemu-user it cannot, because QEMU
 * refuses a guest's filter (prctl(PR_SET_SECCOMP) fails with EINVAL,
 * seccomp() with ENOSYS). This program, compiled for the host, confines
 * the emulator instead: the host system calls it filters are the ones
 * QEMU makes for itself and for the guest.
 *
 * Usage: sandbox EMULATOR [ARG...]
 *
 * The filter applies to the emulated harness and to its children alike,
 * but they need different rights: the harness forks the children and
 * signals them, the children must do neither. A filter cannot tell
 * processes apart, so what only the harness may do goes to a supervisor
 * (SECCOMP_RET_USER_NOTIF), which sees who asks:
 *
 *   allowed for every process (decided by the filter): reading, memory,
 *   signal handling and masks, clocks and sleeping, futexes, identity
 *   queries, timers, waiting for children, exiting; writing to stdout
 *   (which each job's child closes, and no process but the harness can
 *   open a file) and stderr (QEMU's own messages); creating threads
 *   (QEMU's RCU thread, a guest's threads) but no other process; resource
 *   limits of itself only; fcntl to get and set flags; ioctl TCGETS
 *   (stdio asking whether stdout is a terminal);
 *
 *   allowed by the supervisor: for the harness (the process that runs
 *   the emulator), executing the emulator once, forking, signalling a
 *   process and opening files read-only; for any process, signalling
 *   itself (QEMU dies of a guest's fatal signal by sending it to itself);
 *
 *   refused: everything else, notably executing programs, sockets,
 *   opening files for writing, changing the file system, signalling other
 *   processes, ptrace, namespaces and mounts. The supervisor writes
 *   "cliff-sandbox: process P: refused NAME (host system call N)" to
 *   stderr, kills P with SIGKILL and fails the call. The harness reports a child
 *   killed by a signal with its pid, which Run matches to that line.
 *
 * Set-up: the sandbox forks the supervisor, installs the filter on
 * itself, passes the listener to the supervisor over a socket pair, and
 * executes the emulator, keeping its pid (so the harness's exit status is
 * the program's). The supervisor dies with its parent (PR_SET_PDEATHSIG);
 * if it died first, every notified call would fail (ENOSYS): the sandbox
 * fails closed.
 *
 * Exit status: the emulator's; 7 when the sandbox cannot be set up
 * (seccomp user notification needs Linux 5.5), with a message on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define EXIT_SANDBOX 7

/* Namespaces a thread of the sandbox may not create (root could). */
#define NAMESPACE_FLAGS \
	(CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

/* The argument of clone that holds its flags. */
#if defined(__s390x__)
#define CLONE_FLAGS_ARG 1 /* s390x: clone(stack, flags, ...) */
#else
#define CLONE_FLAGS_ARG 0
#endif

static void die(const char *what)
{
	fprintf(stderr, "cliff-sandbox: %s: %s\n", what, strerror(errno));
	exit(EXIT_SANDBOX);
}

/* allow_threads: clone is allowed for a thread in no new namespace, and
 * notified otherwise. */
static void allow_threads(long nr)
{
	filter_emit(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 5);
	FILTER_LOAD(SECCOMP_ARG_LOW(CLONE_FLAGS_ARG));
	filter_emit(BPF_JMP | BPF_JSET | BPF_K, NAMESPACE_FLAGS, 1, 0);
	filter_emit(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0);
	FILTER_RETURN(SECCOMP_RET_USER_NOTIF);
	FILTER_RETURN(SECCOMP_RET_ALLOW);
	FILTER_LOAD(SECCOMP_NR);
}

/* build_filter builds the filter; sock is the socket the sandbox passes
 * the listener over, after the filter is in place. */
static void build_filter(int sock)
{
	static const long harmless[] = {
		__NR_read, __NR_readv, __NR_pread64, __NR_close, __NR_lseek, __NR_fstat, __NR_newfstatat,
		__NR_statx, __NR_readlinkat, __NR_faccessat, __NR_faccessat2, __NR_getcwd,
		__NR_mmap, __NR_munmap, __NR_mprotect, __NR_mremap, __NR_madvise, __NR_brk, __NR_membarrier,
		__NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn, __NR_sigaltstack,
		__NR_rt_sigsuspend, __NR_rt_sigtimedwait, __NR_ppoll, __NR_pselect6, __NR_restart_syscall,
		__NR_nanosleep, __NR_clock_nanosleep, __NR_clock_gettime, __NR_clock_getres,
		__NR_gettimeofday, __NR_sched_yield, __NR_sched_getaffinity, __NR_futex,
		__NR_set_robust_list, __NR_rseq, __NR_set_tid_address, __NR_gettid, __NR_getpid,
		__NR_getppid, __NR_getuid, __NR_geteuid, __NR_getgid, __NR_getegid, __NR_uname,
		__NR_sysinfo, __NR_getrandom, __NR_getrlimit, __NR_setitimer, __NR_getitimer,
		__NR_wait4, __NR_waitid, __NR_exit, __NR_exit_group,
#ifdef __NR_open /* the older calls x86_64 and s390x still have */
		__NR_stat, __NR_lstat, __NR_readlink, __NR_access, __NR_poll, __NR_select, __NR_pause,
#endif
#ifdef __NR_arch_prctl
		__NR_arch_prctl,
#endif
	};
	const uint32_t notify = SECCOMP_RET_USER_NOTIF;
	size_t i;

	filter_start(notify); /* another ABI's numbers: refused, with a message */
	for (i = 0; i < sizeof harmless / sizeof harmless[0]; i++)
		filter_allow(harmless[i]);
	/* stdout, which each job's child closes (harness.c) and cannot get
	 * back, for no call that makes a descriptor is allowed it; stderr,
	 * where QEMU reports its own failures. */
	FILTER_ALLOW_IF_IN(__NR_write, 0, notify, 1, 2);
	FILTER_ALLOW_IF_IN(__NR_writev, 0, notify, 1, 2);
	FILTER_ALLOW_IF_IN(__NR_prlimit64, 0, notify, 0); /* pid 0: the caller */
	FILTER_ALLOW_IF_IN(__NR_fcntl, 1, notify, F_GETFL, F_SETFL, F_GETFD, F_SETFD);
	FILTER_ALLOW_IF_IN(__NR_ioctl, 1, notify, TCGETS);
	/* Only the sandbox has a socket: no process can make one. */
	FILTER_ALLOW_IF_IN(__NR_sendmsg, 0, notify, (uint32_t)sock);
	allow_threads(__NR_clone);
	/* clone3's flags are in memory, where a filter cannot look; libc
	 * falls back to clone. */
	filter_fail(__NR_clone3, ENOSYS);
	FILTER_RETURN(notify);
	if (filter_error) {
		errno = filter_error;
		die("filter");
	}
}

/* The supervisor's view of the sandbox. */
static pid_t harness;   /* the process that runs the emulator */
static int executed;    /* the harness has executed the emulator */

/* tgid is the process a thread belongs to, or 0 when it is gone. */
static pid_t tgid(pid_t tid)
{
	char path[64], line[256];
	pid_t id = 0;
	FILE *f;

	if (tid == harness)
		return harness;
	snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "Tgid: %d", &id) == 1)
			break;
	fclose(f);
	return id;
}

/* allowed decides a notified call of process p. */
static int allowed(pid_t p, const struct seccomp_data *d)
{
	long nr = d->nr;
	int arg0 = (int)d->args[0];

	if (d->arch != SECCOMP_ARCH)
		return 0;
	if (nr == __NR_execve || nr == __NR_execveat) {
		if (p != harness || executed)
			return 0;
		executed = 1;
		return 1;
	}
	if (nr == __NR_clone)
		return p == harness;
#ifdef __NR_fork
	if (nr == __NR_fork || nr == __NR_vfork)
		return p == harness;
#endif
	if (nr == __NR_kill || nr == __NR_tgkill)
		return arg0 == p || (p == harness && arg0 > 0);
	if (nr == __NR_tkill)
		return tgid(arg0) == p || p == harness;
	if (nr == __NR_openat
#ifdef __NR_open
	    || nr == __NR_open
#endif
	) {
		unsigned long flags = nr == __NR_openat ? d->args[2] : d->args[1];
		return p == harness && (flags & (O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)) == O_RDONLY;
	}
	return 0;
}

/* refuse logs a refused call of process p and kills p. */
static void refuse(pid_t p, const struct seccomp_data *d)
{
	const char *name = d->arch == SECCOMP_ARCH ? syscall_name(d->nr) : NULL;
	char buf[160];
	int n;

	if (d->arch != SECCOMP_ARCH)
		n = snprintf(buf, sizeof buf, "cliff-sandbox: process %d: refused system call %d of another ABI (arch 0x%x)\n",
			     (int)p, d->nr, d->arch);
	else
		n = snprintf(buf, sizeof buf, "cliff-sandbox: process %d: refused %s (host system call %d)\n", (int)p,
			     name ? name : "a system call", d->nr);
	if (write(2, buf, (size_t)n) < 0) {
		/* Nowhere to say it; the kill below still shows. */
	}
	kill(p, SIGKILL);
}

/* supervise answers the filter's notifications until its parent dies. */
static void supervise(int listener)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	pid_t p;

	if (syscall(__NR_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
		die("seccomp notification sizes");
	req = calloc(1, sizes.seccomp_notif > sizeof *req ? sizes.seccomp_notif : sizeof *req);
	resp = calloc(1, sizes.seccomp_notif_resp > sizeof *resp ? sizes.seccomp_notif_resp : sizeof *resp);
	if (req == NULL || resp == NULL)
		die("supervisor");
	for (;;) {
		memset(req, 0, sizes.seccomp_notif);
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			die("receive a notification");
		}
		p = tgid((pid_t)req->pid);
		memset(resp, 0, sizes.seccomp_notif_resp);
		resp->id = req->id;
		if (p != 0 && allowed(p, &req->data)) {
			resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		} else {
			if (p != 0) /* else the caller is gone */
				refuse(p, &req->data);
			resp->error = -EPERM;
		}
		/* ENOENT: the caller is gone (killed, or interrupted by a
		 * signal, after which it asks again). */
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp) != 0 && errno != ENOENT)
			die("answer a notification");
	}
}

/* send_fd and receive_fd pass the listener over the socket pair. */
static void send_fd(int sock, int fd)
{
	char data = 0;
	struct iovec iov = {.iov_base = &data, .iov_len = 1};
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
			     .msg_controllen = sizeof control.buf};
	struct cmsghdr *c;

	memset(&control, 0, sizeof control);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	if (sendmsg(sock, &msg, 0) != 1)
		die("pass the listener");
}

static int receive_fd(int sock)
{
	char data;
	struct iovec iov = {.iov_base = &data, .iov_len = 1};
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
			     .msg_controllen = sizeof control.buf};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (c == NULL || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

int main(int argc, char **argv)
{
	struct sock_fprog prog;
	int sock[2], listener;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: %s EMULATOR [ARG...]\n", argv[0]);
		return 2;
	}
	if (argv[1][0] != '/') {
		/* Every execve but the first is refused: no PATH search. */
		fprintf(stderr, "cliff-sandbox: %s: not an absolute path\n", argv[1]);
		return 2;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock) != 0)
		die("socketpair");
	build_filter(sock[1]);
	prog.len = filter_len;
	prog.filter = filter;
	harness = getpid();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(sock[1]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
			die("PR_SET_PDEATHSIG");
		if (getppid() != harness)
			_exit(0); /* the parent is already gone */
		listener = receive_fd(sock[0]);
		if (listener < 0)
			_exit(0); /* the parent failed and said why */
		close(sock[0]);
		supervise(listener);
	}
	close(sock[0]);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		die("no_new_privs");
	listener = (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (listener < 0)
		die("seccomp filter with a listener (Linux 5.5 or later)");
	send_fd(sock[1], listener);
	close(listener);
	close(sock[1]);
	execv(argv[1], argv + 1);
	die(argv[1]);
	return EXIT_SANDBOX;
}
