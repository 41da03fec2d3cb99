package eostest

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time the whole test process has used (RUSAGE_SELF): what a benchmark
// of many goroutines costs in CPU, whatever else the machine runs meanwhile.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
