//go:build !linux

package batchjob

// scheduleAsBatch does nothing where SCHED_BATCH does not exist.
func scheduleAsBatch() {}
