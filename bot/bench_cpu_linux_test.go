package bot

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used (RUSAGE_THREAD), for benchmarks
// on a shared machine, where wall time also counts the waits for a core.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ProcessCPU is the CPU time the whole test process has used (RUSAGE_SELF): what a benchmark
// of many goroutines costs in CPU, whatever else the machine runs meanwhile.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
