package bot

// handlerStack is how deep a handler's goroutine makes its stack before the handler starts
// (growStack). A goroutine starts with a 2 KB stack that the runtime doubles as the calls
// deepen, copying it each time and fixing up every frame on it: a request's handling (the
// blueprint's HCL evaluation, JSON encoding) goes past 16 KB, and in a burst of requests those
// copies, made from deep in the calls, were about 5 % of the CPU. Growing the stack once at
// the start, while it is nearly empty, costs one small copy and clearing the frame; with 32
// KB the stacks' share fell to about 3 % in all (16 KB: 6 %, the garbage collector halving
// stacks that are mostly unused and the handler growing them again; 64 KB: no better, the
// clearing costing more; docs/PERFORMANCE.md, row 2b (h33b)). CockroachDB does the same
// (util/growstack).
const handlerStack = 32 << 10

// growStack makes the runtime grow the calling goroutine's stack past handlerStack, by
// needing a frame that large once.
//
//go:noinline
func growStack() {
	var buf [handlerStack]byte
	stackSink = buf[stackIndex] // an index the compiler cannot know keeps buf on the frame
}

// stackIndex and stackSink are variables so that growStack's frame is not optimised away (a
// constant index into a zeroed array is folded to a zero, and the array dropped).
var (
	stackIndex = handlerStack - 1
	stackSink  byte
)
