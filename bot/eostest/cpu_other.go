//go:build !linux

package eostest

import "time"

// ProcessCPU is not measured outside Linux: benchmarks report wall time only.
func ProcessCPU() time.Duration { return 0 }
