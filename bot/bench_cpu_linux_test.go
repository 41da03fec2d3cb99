package bot

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the whole process has used (RUSAGE_SELF): with work spread over
// goroutines (and the garbage collector's own), the calling thread's alone undercounts it.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
