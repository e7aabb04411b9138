package harness

import "strconv"

// signalNames are Linux's signal numbers, the same on x86_64, aarch64,
// riscv64 and s390x. The harness reports the target's numbers (under
// qemu-user too), so the host's syscall package is not the right table.
var signalNames = [...]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP",
	6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1",
	11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
	16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP",
	21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ",
	26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR",
	31: "SIGSYS",
}

// signalName is "SIGSEGV" for 11; "SIG34" for a number without a name.
func signalName(signo int) string {
	if signo > 0 && signo < len(signalNames) {
		return signalNames[signo]
	}
	return "SIG" + strconv.Itoa(signo)
}
