package harness

import (
	"regexp"
	"slices"

	"cliff/lib/record"
)

// qemuAbort matches QEMU's own last words when it dies of a failed
// assertion or a TCG fatal error, as QEMU 7.2 does on some riscv64 vector
// instructions (lib/profile/data/findings/12-qemu72-riscv64-vfcvt-rtz-assert.clif).
var qemuAbort = regexp.MustCompile(`(?m)^qemu-[a-z0-9_]+(-static)?: .*(Assertion .* failed|tcg fatal error).*$`)

// anyAbort reports whether a job died of SIGABRT: only then is the
// emulator's stderr worth reading.
func anyAbort(outcomes []Outcome) bool {
	return slices.ContainsFunc(outcomes, isAbort)
}

func isAbort(o Outcome) bool { return o.Status == record.StatusCrash && o.Signal == "SIGABRT" }

// blameEmulator turns the SIGABRT crashes of a batch whose emulator
// reported such an abort on stderr into harness errors: the code under
// test never calls abort (nor does the harness in a job), so the signal is
// QEMU's, and a crash verdict would send a Cranelift developer after a
// bug that is not there. stderr is the batch's whole stderr, shared by
// its jobs.
func blameEmulator(outcomes []Outcome, stderr string) {
	why := qemuAbort.FindString(stderr)
	if why == "" {
		return
	}
	for i := range outcomes {
		if isAbort(outcomes[i]) {
			outcomes[i] = Outcome{Status: record.StatusHarnessError, Message: "the emulator aborted, not the code: " + why}
		}
	}
}
