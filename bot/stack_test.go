package bot

import (
	"runtime"
	"sync"
	"testing"
)

// growStack really grows the stack: goroutines that called it hold at least handlerStack of
// stack each (a frame the compiler optimised away would leave them at their 2 KB start).
func TestGrowStackGrowsTheGoroutinesStack(t *testing.T) {
	const n = 32
	var before, after runtime.MemStats
	runtime.GC() // freed stacks go back to the heap: the goroutines below take new ones
	runtime.ReadMemStats(&before)
	var started sync.WaitGroup
	release := make(chan struct{})
	for range n {
		started.Add(1)
		go func() {
			growStack()
			started.Done()
			<-release
		}()
	}
	started.Wait()
	runtime.ReadMemStats(&after)
	close(release)
	if grown := after.StackInuse - before.StackInuse; grown < n*handlerStack {
		t.Errorf("%d goroutines that grew their stacks hold %d bytes of stack more; want at least %d", n, grown, n*handlerStack)
	}
}
