package jsonl

import (
	"os"
	"syscall"
)

// pipeSize is the capacity asked of a pipe between two cliff tools, the
// most an unprivileged process may ask for by default
// (/proc/sys/fs/pipe-max-size). A case record is 15 to 30 KB, so Linux's
// default of 64 KB holds two or three: cliff-gen | cliff-refine then
// switches between writer and reader every few records, and each switch
// wakes a Go scheduler that spins a while for work. A 1 MB pipe halved the
// context switches of that pipeline and took about 6% off its CPU time
// (system time 1.12 to 0.93 s for 20,000 cases, user time too; paired
// runs, November 2026). The kernel counts pipe memory per user
// (/proc/sys/fs/pipe-user-pages-soft, 64 MB by default; root is exempt):
// past it, an unprivileged user's new pipes get a single page, so a host
// running more than some sixty pipelines at once wants that limit raised.
const pipeSize = 1 << 20

// fSetPipeSize is F_SETPIPE_SZ, which package syscall does not name.
const fSetPipeSize = 1031

// growPipe asks for a larger pipe when f is one. It is only a hint: the
// default size is correct, merely slower, so a refusal (not a pipe, a
// lower system limit) is ignored.
func growPipe(f *os.File) {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fSetPipeSize, pipeSize)
}
