//go:build !linux

package bot

import "time"

// threadCPU is not measured outside Linux: benchmarks report wall time only.
func threadCPU() time.Duration { return 0 }

// processCPU is not measured outside Linux either.
func processCPU() time.Duration { return 0 }
