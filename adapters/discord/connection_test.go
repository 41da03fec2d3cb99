package discord

import (
	"context"
	"testing"
	"time"
)

// eventually polls cond until it holds, failing t after a deadline.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

func TestConnectedFollowsTheGateway(t *testing.T) {
	f := newFakeDiscord(t)
	a, rec := newTestAdapter(t, f), newRecorder()
	if err := a.Connected(); err == nil || err.Error() != "connecting" {
		t.Fatalf("Connected() before Run = %v, want connecting", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, rec) }()

	// Events are delivered only once Open has returned on READY: one delivered proves it.
	if h := f.WaitHandshake(); h != "identify" {
		t.Fatalf("first handshake = %s, want identify", h)
	}
	preview := f.AddMessage(textChannel, botID, "Plan")
	f.Reaction(preview, "501", "👀", false)
	rec.nextReaction(t)
	if err := a.Connected(); err != nil {
		t.Fatalf("Connected() after READY = %v", err)
	}

	f.Hold()
	f.Drop()
	eventually(t, "Connected to report the drop", func() bool { return a.Connected() != nil })
	if err, want := a.Connected(), "reconnecting: the gateway connection was lost"; err.Error() != want {
		t.Errorf("Connected() while the gateway is down = %q, want %q", err, want)
	}

	f.Release()
	if h := f.WaitHandshake(); h != "resume" {
		t.Fatalf("handshake after the drop = %s, want resume", h)
	}
	f.Reaction(preview, "502", "👍", false)
	rec.nextReaction(t)
	if err := a.Connected(); err != nil {
		t.Errorf("Connected() after RESUMED = %v", err)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10 s of cancel")
	}
	if err := a.Connected(); err == nil || err.Error() != "not running" {
		t.Errorf("Connected() after Run returned = %v, want not running", err)
	}
}
