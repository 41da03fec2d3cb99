package mattermost

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
)

// testServer is the real Mattermost of package mmtest, seen from inside the adapter's package.
type testServer struct{ *mmtest.Server }

// realServer returns the seeded server (see mmtest.Real: skipped without a server, except in
// CI, where it fails).
func realServer(t *testing.T) *testServer { return &testServer{mmtest.Real(t)} }

// running is an Adapter connected to the test server, with everything it delivered.
type running struct {
	*Adapter
	rec       *recorder
	connected chan struct{} // one value per websocket connection
	// stop cancels Run and waits for it to return; it is called again when the test ends.
	stop func(t *testing.T)
}

// start runs an adapter for the bot until the test ends, and waits for its first connection.
func (s *testServer) start(t *testing.T, edit func(*Config, *Adapter)) *running {
	t.Helper()
	r := s.run(t, edit)
	r.waitConnected(t)
	return r
}

// run runs an adapter for the bot until the test ends.
func (s *testServer) run(t *testing.T, edit func(*Config, *Adapter)) *running {
	t.Helper()
	return s.runConfig(t, s.config(), edit)
}

// config is the Config of an adapter for the bot, with short backoffs.
func (s *testServer) config() Config {
	return Config{URL: s.URL, Token: s.BotToken, MinBackoff: 50 * time.Millisecond, MaxBackoff: 500 * time.Millisecond}
}

// runConfig runs an adapter made with cfg until the test ends or it is stopped.
func (s *testServer) runConfig(t *testing.T, cfg Config, edit func(*Config, *Adapter)) *running {
	t.Helper()
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&a.cfg, a)
	}
	r := &running{Adapter: a, rec: newRecorder(), connected: make(chan struct{}, 16)}
	a.onConnect = func() { r.connected <- struct{}{} }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, r.rec) }()
	var once sync.Once
	r.stop = func(t *testing.T) {
		t.Helper()
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run returned %v after cancel, want nil", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("Run did not return within 10 s of cancel")
			}
		})
	}
	t.Cleanup(func() { r.stop(t) })
	return r
}

func (r *running) waitConnected(t *testing.T) {
	t.Helper()
	select {
	case <-r.connected:
	case <-time.After(60 * time.Second):
		t.Fatal("the adapter did not connect within 60 s")
	}
}

// recorder is a Handler and ChangeHandler that hands what it hears to the test.
type recorder struct {
	msgs    chan adapters.Message
	reacts  chan adapters.Reaction
	edits   chan adapters.Message
	deletes chan adapters.PostRef
}

func newRecorder() *recorder {
	return &recorder{msgs: make(chan adapters.Message, 256), reacts: make(chan adapters.Reaction, 256),
		edits: make(chan adapters.Message, 256), deletes: make(chan adapters.PostRef, 256)}
}

func (r *recorder) HandleMessage(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.msgs <- m
}

func (r *recorder) HandleReaction(_ context.Context, _ adapters.Adapter, x adapters.Reaction) {
	r.reacts <- x
}

const waitFor = 20 * time.Second

// message waits for the first delivered message that match accepts; every message delivered
// before it is passed to skipped (nil ignores them).
func (r *recorder) message(t *testing.T, match func(adapters.Message) bool, skipped func(adapters.Message)) adapters.Message {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case m := <-r.msgs:
			if match(m) {
				return m
			}
			if skipped != nil {
				skipped(m)
			}
		case <-deadline:
			t.Fatalf("no matching message delivered within %s", waitFor)
		}
	}
}

// reaction waits for the first delivered reaction that match accepts; every reaction delivered
// before it is passed to skipped (nil ignores them).
func (r *recorder) reaction(t *testing.T, match func(adapters.Reaction) bool, skipped func(adapters.Reaction)) adapters.Reaction {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case x := <-r.reacts:
			if match(x) {
				return x
			}
			if skipped != nil {
				skipped(x)
			}
		case <-deadline:
			t.Fatalf("no matching reaction delivered within %s", waitFor)
		}
	}
}

// nonce makes each test's texts unique on a server shared by many runs.
func nonce() string { return mmtest.Nonce() }
