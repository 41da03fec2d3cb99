//go:build !linux

package bot

import "time"

// processCPU is not measured outside Linux: benchmarks report wall time only.
func processCPU() time.Duration { return 0 }
