package harness

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"cliff/lib/record"
)

// BenchmarkRun runs batches of 100 trivial jobs. "isolated" gives every
// job its own child, so it measures a fork and a wait (of qemu itself under
// emulation) per job; "groups of 10" is 10 cases of 10 input vectors, as
// cliff-run sends them: one child per case. The jobs run confined, as
// cliff-run's do (they make no system call).
func BenchmarkRun(b *testing.B) {
	for _, arch := range Arches() {
		for _, mode := range []struct {
			name     string
			isolated bool
			group    int
		}{{"isolated", true, 1}, {"groups of 10", false, 10}} {
			b.Run(arch+"/"+mode.name, func(b *testing.B) {
				exe := *linkFakeBatch(b, arch)
				exe.IsolateJobs = mode.isolated
				exe.unconfined = false
				jobs := make([]Job, 100)
				for i := range jobs {
					jobs[i] = Job{Entry: entryAddXor, Args: u32s(uint32(i), 1), ResultSize: 8}
					if i/mode.group%2 == 1 {
						jobs[i] = Job{Entry: entryByMode, Args: u32s(0, uint32(i)), ResultSize: 4}
					}
				}
				before := childrenCPU(b)
				b.ResetTimer()
				for b.Loop() {
					outcomes, err := exe.Run(context.Background(), placeFor(exe.Arch), jobs, time.Second, nil)
					if err != nil {
						b.Fatal(err)
					}
					if outcomes[99].Status != record.StatusOK {
						b.Fatalf("last job: %+v", outcomes[99])
					}
				}
				perJob := b.Elapsed().Seconds() / float64(b.N*len(jobs))
				b.ReportMetric(1/perJob, "jobs/s")
				b.ReportMetric(perJob*1e6, "µs/job")
				// CPU time of the harness and its children: less sensitive to
				// a loaded machine than the wall clock.
				b.ReportMetric((childrenCPU(b)-before).Seconds()*1e6/float64(b.N*len(jobs)), "cpu-µs/job")
			})
		}
	}
}

// childrenCPU is the user and system time of this process's waited-for
// descendants.
func childrenCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLink links the fake batch object with the (cached) harness.
func BenchmarkLink(b *testing.B) {
	for _, arch := range Arches() {
		b.Run(arch, func(b *testing.B) {
			requireArch(b, arch)
			dir := b.TempDir()
			obj := compileC(b, arch, "entries.c", dir)
			exe := filepath.Join(dir, "exe")
			if _, err := link(context.Background(), arch, obj, exe, entriesLibc); err != nil { // fills the harness cache
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := link(context.Background(), arch, obj, exe, entriesLibc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
