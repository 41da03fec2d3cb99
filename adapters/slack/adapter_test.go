package slack

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

// recorder is an adapters.Handler that hands what it hears to the test.
type recorder struct {
	msgs      chan adapters.Message
	reactions chan adapters.Reaction
	changes   chan any // adapters.Message for an edit, adapters.PostRef for a deletion (changes_test.go)
}

func newRecorder() *recorder {
	return &recorder{msgs: make(chan adapters.Message, 16), reactions: make(chan adapters.Reaction, 16), changes: make(chan any, 16)}
}

func (r *recorder) HandleMessage(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.msgs <- m
}

func (r *recorder) HandleReaction(_ context.Context, _ adapters.Adapter, x adapters.Reaction) {
	r.reactions <- x
}

// running is an Adapter whose Run is going against a fake.
type running struct {
	*Adapter
	h *recorder

	mu     sync.Mutex
	delays []time.Duration // backoff delays Run waited for
}

// start runs an adapter against f until the test ends, and waits for its first connection.
func start(t *testing.T, f *slackfake.Fake, channels ...string) *running {
	t.Helper()
	a, err := New(Config{AppToken: appToken, BotToken: botToken, APIURL: f.APIURL(), Channels: channels,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	r := &running{Adapter: a, h: newRecorder()}
	a.pause = func(ctx context.Context, d time.Duration) bool {
		r.mu.Lock()
		r.delays = append(r.delays, d)
		r.mu.Unlock()
		return ctx.Err() == nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, r.h) }()
	t.Cleanup(func() {
		cancel()
		if err := next(t, done, "Run to return"); err != nil {
			t.Errorf("Run returned %v after cancellation, want nil", err)
		}
	})
	next(t, f.Connected, "the first connection")
	return r
}

func mention(user, channel, ts, text string) event {
	return event{"type": "app_mention", "user": user, "text": text, "ts": ts, "channel": channel, "event_ts": ts}
}

func direct(user, text, ts string) event {
	return event{"type": "message", "channel_type": "im", "channel": "DALICE001", "user": user, "text": text, "ts": ts, "event_ts": ts}
}

func TestMessagesAddressedToTheBot(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	tests := []struct {
		name  string
		event map[string]any
		want  *adapters.Message // nil: not delivered
	}{
		{"mention becomes @eos", mention("UAL", "CINFRA001", "1700000000.000100", "<@UBOT> create nextcloud --sso --domain <http://cloud.example.org|cloud.example.org>"),
			&adapters.Message{Post: adapters.PostRef{Platform: "slack", Channel: "CINFRA001", ID: "1700000000.000100"},
				Author: adapters.User{ID: "UAL", Name: "alice"}, Text: "@eos create nextcloud --sso --domain cloud.example.org",
				At: time.Unix(1700000000, 100000)}},
		{"mention in a thread keeps the thread", mention("UBO", "CINFRA001", "1700000000.000300", "<@UBOT> plan 7f3a9c21 full &amp; more for <@UAL>").
			with("thread_ts", "1700000000.000100"),
			&adapters.Message{Post: adapters.PostRef{Platform: "slack", Channel: "CINFRA001", ID: "1700000000.000300", Thread: "1700000000.000100"},
				Author: adapters.User{ID: "UBO", Name: "bob"}, Text: "@eos plan 7f3a9c21 full & more for @alice", At: time.Unix(1700000000, 300000)}},
		{"direct message", direct("UAL", "status nextcloud", "1700000001.000001"),
			&adapters.Message{Post: adapters.PostRef{Platform: "slack", Channel: "DALICE001", ID: "1700000001.000001"},
				Author: adapters.User{ID: "UAL", Name: "alice"}, Text: "status nextcloud", Direct: true, At: time.Unix(1700000001, 1000)}},
		{"channel message without mention", map[string]any{"type": "message", "channel_type": "channel", "channel": "CINFRA001",
			"user": "UAL", "text": "eos is great", "ts": "1700000002.000001"}, nil},
		{"own message", direct(botID, "Plan 7f3a9c21", "1700000003.000001"), nil},
		{"other bot's mention", mention("UCI", "CINFRA001", "1700000004.000001", "<@UBOT> create grafana").with("bot_id", "BCI"), nil},
		{"bot user without bot_id", mention("UCI", "CINFRA001", "1700000004.000002", "<@UBOT> create grafana"), nil},
		{"edited direct message", direct("UAL", "create grafana", "1700000005.000001").with("subtype", "message_changed"), nil},
		{"event the library cannot parse", event{"type": "future_event_type", "user": "UAL", "ts": "1700000006.000001"}, nil},
		{"same message twice", mention("UAL", "CINFRA001", "1700000000.000100", "<@UBOT> create nextcloud"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := f.Send(tt.event)
			if got := next(t, f.Acks, "the envelope's ack"); got != env {
				t.Fatalf("acked %q, want %q", got, env)
			}
			if tt.want == nil {
				// Events are handled in order: if the next message heard is the sentinel,
				// the one before was dropped.
				env := f.Send(direct("UAL", "sentinel", "1700000009.000009"+tt.name))
				next(t, f.Acks, "the sentinel's ack")
				if got := next(t, r.h.msgs, "the sentinel"); got.Text != "sentinel" {
					t.Fatalf("delivered %+v, want it ignored (envelope %s)", got, env)
				}
				return
			}
			got := next(t, r.h.msgs, "the message")
			if got.Post != tt.want.Post || got.Author != tt.want.Author || got.Text != tt.want.Text || got.Direct != tt.want.Direct || !got.At.Equal(tt.want.At) {
				t.Errorf("delivered\n %+v\nwant\n %+v", got, *tt.want)
			}
		})
	}
}

func TestChannelsRestrictWhereTheBotListens(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f, "#infra")
	f.Send(mention("UAL", "CRANDOM01", "1700000000.000001", "<@UBOT> create grafana"))
	f.Send(direct("UAL", "create grafana", "1700000000.000002"))
	f.Send(mention("UAL", "CINFRA001", "1700000000.000003", "<@UBOT> create jenkins"))
	for range 3 {
		next(t, f.Acks, "an ack")
	}
	if got := next(t, r.h.msgs, "the message in #infra"); got.Post.Channel != "CINFRA001" || got.Text != "@eos create jenkins" {
		t.Errorf("delivered %+v, want only the mention in #infra", got)
	}
}

func TestReactionsAreCanonical(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	preview, err := r.Reply(context.Background(), adapters.PostRef{Channel: "CINFRA001", ID: "1700000000.000100"},
		adapters.NewDoc(adapters.Heading{Text: "Plan 7f3a9c21"}))
	if err != nil {
		t.Fatal(err)
	}
	reaction := func(typ, user, name string) map[string]any {
		return map[string]any{"type": typ, "user": user, "reaction": name, "item_user": botID,
			"item": map[string]any{"type": "message", "channel": preview.Channel, "ts": preview.ID}, "event_ts": "1700000200.000001"}
	}
	tests := []struct {
		name  string
		event map[string]any
		want  *adapters.Reaction
	}{
		{"approval with a skin tone", reaction("reaction_added", "UBO", "+1::skin-tone-3"),
			&adapters.Reaction{Post: preview, User: adapters.User{ID: "UBO", Name: "bob"}, Emoji: "+1"}},
		{"thumbsup", reaction("reaction_added", "USEC", "thumbsup"),
			&adapters.Reaction{Post: preview, User: adapters.User{ID: "USEC", Name: "secops"}, Emoji: "+1"}},
		{"removed", reaction("reaction_removed", "UBO", "white_check_mark"),
			&adapters.Reaction{Post: preview, User: adapters.User{ID: "UBO", Name: "bob"}, Emoji: "white_check_mark", Removed: true}},
		{"rejection", reaction("reaction_added", "UAL", "x"),
			&adapters.Reaction{Post: preview, User: adapters.User{ID: "UAL", Name: "alice"}, Emoji: "x"}},
		{"the bot's own", reaction("reaction_added", botID, "eyes"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := f.Send(tt.event)
			if got := next(t, f.Acks, "the ack"); got != env {
				t.Fatalf("acked %q, want %q", got, env)
			}
			if tt.want == nil {
				f.Send(reaction("reaction_added", "UAL", "wrench"))
				next(t, f.Acks, "the sentinel's ack")
				if got := next(t, r.h.reactions, "the sentinel"); got.Emoji != "wrench" {
					t.Fatalf("delivered %+v, want it ignored", got)
				}
				return
			}
			got := next(t, r.h.reactions, "the reaction")
			if got.Post != tt.want.Post || got.User != tt.want.User || got.Emoji != tt.want.Emoji || got.Removed != tt.want.Removed {
				t.Errorf("delivered %+v, want %+v", got, *tt.want)
			}
			if got.Post.Thread != "1700000000.000100" {
				t.Errorf("reaction on the preview has thread %q, want the request's", got.Post.Thread)
			}
		})
	}
}

func TestReconnectsWhenTheSocketDrops(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	f.Drop()
	if n := next(t, f.Connected, "a new connection"); n != 2 {
		t.Fatalf("connection %d after the drop, want the second apps.connections.open", n)
	}
	env := f.Send(mention("UAL", "CINFRA001", "1700000300.000001", "<@UBOT> create grafana"))
	if got := next(t, f.Acks, "the ack"); got != env {
		t.Fatalf("acked %q, want %q", got, env)
	}
	if got := next(t, r.h.msgs, "the message after reconnecting"); got.Text != "@eos create grafana" {
		t.Errorf("delivered %q after reconnecting", got.Text)
	}
}

func TestFailedConnectionsBackOff(t *testing.T) {
	f := slackfake.New(t)
	f.OpenErrs = []string{"internal_error", "internal_error"}
	r := start(t, f)
	if f.Opens != 3 {
		t.Errorf("apps.connections.open called %d times, want 3", f.Opens)
	}
	r.mu.Lock()
	delays := append([]time.Duration(nil), r.delays...)
	r.mu.Unlock()
	if len(delays) != 2 || delays[0] > time.Second || delays[1] <= time.Second/2 || delays[1] > 2*time.Second {
		t.Errorf("waited %v between attempts, want two growing delays within 1 s and 2 s", delays)
	}
	f.Send(direct("UAL", "help", "1700000400.000001"))
	if got := next(t, r.h.msgs, "a message"); got.Text != "help" {
		t.Errorf("delivered %q", got.Text)
	}
}

func TestRefusedTokenEndsRun(t *testing.T) {
	f := slackfake.New(t)
	a, err := New(Config{AppToken: appToken, BotToken: "xoxb-wrong", APIURL: f.APIURL(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Run(context.Background(), newRecorder())
	var cfgErr *configError
	if !errors.As(err, &cfgErr) || !strings.Contains(err.Error(), "invalid_auth") {
		t.Fatalf("Run = %v, want a configuration error naming invalid_auth", err)
	}
	if strings.Contains(err.Error(), "xoxb-wrong") {
		t.Errorf("the error shows the token: %v", err)
	}
}

// event is the inner event of an Events API envelope.
type event map[string]any

// with returns a copy of e with key set.
func (e event) with(key string, v any) event {
	out := event{}
	for k, x := range e {
		out[k] = x
	}
	out[key] = v
	return out
}
