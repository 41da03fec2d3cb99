package discord

// Constructing and running the adapter, and what its other tests share: a Handler that records
// what it hears and an adapter wired to discordfake.

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

// recorder is a Handler that keeps what it hears.
type recorder struct {
	msgs    chan adapters.Message
	reacts  chan adapters.Reaction
	changes chan any // adapters.Message for an edit, adapters.PostRef for a deletion (changes_test.go)
}

func newRecorder() *recorder {
	return &recorder{msgs: make(chan adapters.Message, 32), reacts: make(chan adapters.Reaction, 32), changes: make(chan any, 32)}
}

func (r *recorder) HandleMessage(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.msgs <- m
}

func (r *recorder) HandleReaction(_ context.Context, _ adapters.Adapter, x adapters.Reaction) {
	r.reacts <- x
}

func (r *recorder) nextMessage(t *testing.T) adapters.Message {
	t.Helper()
	select {
	case m := <-r.msgs:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message delivered within 10 s")
		return adapters.Message{}
	}
}

func (r *recorder) nextReaction(t *testing.T) adapters.Reaction {
	t.Helper()
	select {
	case x := <-r.reacts:
		return x
	case <-time.After(10 * time.Second):
		t.Fatal("no reaction delivered within 10 s")
		return adapters.Reaction{}
	}
}

type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func newTestAdapter(t *testing.T, f *discordfake.Fake, channels ...string) *Adapter {
	t.Helper()
	a, err := New(Config{
		Token: fakeToken, APIBase: f.APIBase(), Channels: channels,
		Logger: slog.New(slog.NewTextHandler(logWriter{t}, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// running starts Run against f and waits for the first identify; Run must end with nil
// when the test is over.
func running(t *testing.T, f *discordfake.Fake) (*Adapter, *recorder) {
	t.Helper()
	a, rec := newTestAdapter(t, f), newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, rec) }()
	t.Cleanup(func() {
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
	if h := f.WaitHandshake(); h != "identify" {
		t.Fatalf("first gateway handshake = %s, want identify", h)
	}
	return a, rec
}

func TestRunRefusedToken(t *testing.T) {
	f := newFakeDiscord(t)
	a, err := New(Config{Token: "wrong", APIBase: f.APIBase()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = a.Run(ctx, newRecorder())
	if cfgErr := (*configError)(nil); !errors.As(err, &cfgErr) || strings.Contains(err.Error(), "wrong") {
		t.Errorf("Run with a refused token = %v, want a configuration error without the token", err)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"token required", Config{}, false},
		{"channel ids are numbers", Config{Token: "t", Channels: []string{"#infra"}}, false},
		{"API base must be a URL", Config{Token: "t", APIBase: "discord"}, false},
		{"minimal", Config{Token: "Bot t"}, true},
	}
	for _, tt := range tests {
		if _, err := New(tt.cfg); (err == nil) != tt.ok {
			t.Errorf("%s: New = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
	if s := slogValue(Config{Token: "secret-token", Channels: []string{"1"}}); strings.Contains(s, "secret-token") {
		t.Errorf("Config logs its token: %s", s)
	}
}

func slogValue(c Config) string {
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "cfg", c)
	return b.String()
}

// TestApprovalSurvivesGatewayLoss drops the socket, reacts while the bot is away and after
// it is back: the session is resumed (not identified anew) and both reactions arrive, in order.
func TestApprovalSurvivesGatewayLoss(t *testing.T) {
	f := newFakeDiscord(t)
	_, rec := running(t, f)
	preview := f.AddMessage(textChannel, botID, "Plan")
	f.Reaction(preview, "501", "👀", false)
	if got := rec.nextReaction(t); got.Emoji != "eyes" {
		t.Fatalf("before the drop: %+v", got)
	}

	f.Drop()
	f.Reaction(preview, "502", "✅", false) // while the socket is down
	if h := f.WaitHandshake(); h != "resume" {
		t.Fatalf("after the drop the client did %s, want resume", h)
	}
	f.Reaction(preview, "502", "👍", false) // after the resume

	for _, want := range []string{"white_check_mark", "+1"} {
		got := rec.nextReaction(t)
		if got.Emoji != want || got.User.Name != "bob" || got.Post.ID != preview.ID {
			t.Errorf("after the drop: delivered %+v, want %s by bob on %s", got, want, preview.ID)
		}
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Identifies != 1 {
		t.Errorf("the client identified %d times, want 1 (a resume, not a new session)", f.Identifies)
	}
}
