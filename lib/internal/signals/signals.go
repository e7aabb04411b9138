// Package signals names Linux signals by number, for the harness (which
// reports the numbers of the target, also under qemu-user) and the driver
// client (which reports how the driver died).
package signals

import "strconv"

// names are Linux's signal numbers, the same on x86_64, aarch64, riscv64
// and s390x; the host's syscall package is not the right table for a
// target's numbers.
var names = [...]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP",
	6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1",
	11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
	16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP",
	21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ",
	26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR",
	31: "SIGSYS",
}

// Name is "SIGSEGV" for 11; "SIG34" for a number without a name.
func Name(signo int) string {
	if signo > 0 && signo < len(names) && names[signo] != "" {
		return names[signo]
	}
	return "SIG" + strconv.Itoa(signo)
}
