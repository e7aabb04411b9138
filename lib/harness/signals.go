package harness

import "cliff/lib/internal/signals"

// signalName is "SIGSEGV" for 11; "SIG34" for a number without a name.
func signalName(signo int) string { return signals.Name(signo) }
