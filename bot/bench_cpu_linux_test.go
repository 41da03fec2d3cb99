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
