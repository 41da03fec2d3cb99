package bot

import (
	"context"
	"testing"
	"testing/synctest"
)

// A reaction on a post the store does not know waits only while a preview is between its post
// and its record, and until that preview is recorded.
func TestAReactionWaitsForThePreviewsBeingPosted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var e Engine
		if e.awaitPosting(context.Background()) {
			t.Fatal("with no preview being posted, a reaction waited")
		}
		done := e.posting()
		waited := make(chan bool, 1)
		go func() { waited <- e.awaitPosting(context.Background()) }()
		synctest.Wait() // the reaction waits on the preview being posted
		select {
		case <-waited:
			t.Fatal("the reaction stopped waiting before the preview was recorded")
		default:
		}
		done()
		if !<-waited {
			t.Fatal("the reaction did not wait for the preview being posted")
		}
		if e.awaitPosting(context.Background()) {
			t.Fatal("a recorded preview is still counted as being posted")
		}
		// A preview never recorded holds a reaction at most previewWaitMax.
		e.posting()
		if !e.awaitPosting(context.Background()) {
			t.Fatal("awaitPosting reported no preview being posted")
		}
	})
}
