package bot

// handlerStack is how deep a handler's goroutine makes its stack before the handler starts
// (growStack). A goroutine starts with a 2 KB stack that the runtime doubles as the calls
// deepen, copying it each time and fixing up every frame on it: a request's handling (the
// blueprint's HCL evaluation, JSON encoding) goes past 16 KB, and in a burst of requests those
// copies, made from deep in the calls, were about 5 % of the CPU (docs/PERFORMANCE.md, row
// 2b (h33b)). Growing the stack once at the start, while it is nearly empty, costs one
// small copy. The garbage collector may still halve a stack that is mostly unused; the
// handler then grows it again as before. CockroachDB does the same (util/growstack).
const handlerStack = 16 << 10

// growStack makes the runtime grow the calling goroutine's stack past handlerStack, by
// needing a frame that large once.
//
//go:noinline
func growStack() {
	var buf [handlerStack]byte
	stackSink = buf[len(buf)-1] // read, so the frame is not optimised away; it is zero
}

var stackSink byte
