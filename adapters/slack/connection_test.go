package slack

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/slack/slackfake"
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

func TestConnectedFollowsTheSocket(t *testing.T) {
	f := slackfake.New(t)
	a, err := New(Config{AppToken: appToken, BotToken: botToken, APIURL: f.APIURL(),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Connected(); err == nil || err.Error() != "connecting" {
		t.Fatalf("Connected() before Run = %v, want connecting", err)
	}
	h := newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, h) }()
	t.Cleanup(cancel)

	// Events come in order after the hello: once one is delivered, the hello was seen.
	next(t, f.Connected, "the first connection")
	f.Send(mention("UAL", "CINFRA001", "1700000300.000001", "<@UBOT> status"))
	next(t, h.msgs, "a message")
	if err := a.Connected(); err != nil {
		t.Fatalf("Connected() after hello = %v", err)
	}

	f.Hold()
	f.Drop()
	eventually(t, "Connected to report the drop", func() bool { return a.Connected() != nil })
	if err, want := a.Connected(), "reconnecting: the socket mode connection closed"; err.Error() != want {
		t.Errorf("Connected() while the socket is down = %q, want %q", err, want)
	}

	f.Release()
	next(t, f.Connected, "a new connection")
	f.Send(mention("UAL", "CINFRA001", "1700000300.000002", "<@UBOT> status"))
	next(t, h.msgs, "a message after reconnecting")
	if err := a.Connected(); err != nil {
		t.Errorf("Connected() after reconnecting = %v", err)
	}

	cancel()
	if err := next(t, done, "Run to return"); err != nil {
		t.Fatalf("Run = %v", err)
	}
	if err := a.Connected(); err == nil || err.Error() != "not running" {
		t.Errorf("Connected() after Run returned = %v, want not running", err)
	}
}
