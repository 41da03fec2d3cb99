package bot

import (
	"context"
	"sync"
	"time"
)

// A preview is posted first and recorded in the store after (request.go): its post's ID is
// known only when the platform answers. A reaction the platform delivers in between (a fast
// client, or an adapter that learns the preview's thread only from that answer, as Slack's
// does) finds no plan for its post. Rather than ignore it, vote waits for the previews being
// posted when it arrived to be recorded, then looks again.

// previewsPosting are the previews between their post and their record, each a channel closed
// when recorded.
type previewsPosting struct {
	mu   sync.Mutex
	next int
	open map[int]chan struct{}
}

// previewWaitMax bounds how long a reaction on a post the store does not know waits for the
// previews being posted.
const previewWaitMax = 10 * time.Second

// posting registers a preview about to be posted; call done once it is recorded (or failed).
func (e *Engine) posting() (done func()) {
	pp := &e.previewsPosting
	pp.mu.Lock()
	if pp.open == nil {
		pp.open = map[int]chan struct{}{}
	}
	id, ch := pp.next, make(chan struct{})
	pp.next++
	pp.open[id] = ch
	pp.mu.Unlock()
	return func() {
		pp.mu.Lock()
		delete(pp.open, id)
		pp.mu.Unlock()
		close(ch)
	}
}

// awaitPosting waits until the previews being posted now are recorded, at most
// previewWaitMax; it reports whether there were any (then a look-up is worth repeating).
func (e *Engine) awaitPosting(ctx context.Context) bool {
	pp := &e.previewsPosting
	pp.mu.Lock()
	chans := make([]chan struct{}, 0, len(pp.open))
	for _, ch := range pp.open {
		chans = append(chans, ch)
	}
	pp.mu.Unlock()
	if len(chans) == 0 {
		return false
	}
	timeout := time.NewTimer(previewWaitMax)
	defer timeout.Stop()
	for _, ch := range chans {
		select {
		case <-ch:
		case <-ctx.Done():
			return true
		case <-timeout.C:
			return true
		}
	}
	return true
}
