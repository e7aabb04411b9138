package batchjob

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSetup: after Setup the collector runs at gcPercent under
// memoryLimit, and every thread of the process is a batch thread with its
// nice value unchanged.
func TestSetup(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: Setup leaves the collector alone")
	}
	if runtime.GOOS != "linux" {
		t.Skip("SCHED_BATCH is Linux's")
	}
	before, err := unix.Getpriority(unix.PRIO_PROCESS, 0)
	if err != nil {
		t.Fatal(err)
	}
	Setup()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC = %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Errorf("memory limit = %d, want %d", got, memoryLimit)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		attr, err := unix.SchedGetAttr(tid, 0)
		if err != nil {
			continue // the thread has exited
		}
		if attr.Policy != unix.SCHED_BATCH {
			t.Errorf("thread %d: policy %d, want SCHED_BATCH (%d)", tid, attr.Policy, unix.SCHED_BATCH)
		}
	}
	if after, _ := unix.Getpriority(unix.PRIO_PROCESS, 0); after != before {
		t.Errorf("priority %d after Setup, %d before", after, before)
	}
}
