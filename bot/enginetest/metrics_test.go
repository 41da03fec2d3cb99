package enginetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
)

func get(t *testing.T, h *eostest.Harness, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.Engine.Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	body, _ := io.ReadAll(rec.Body)
	return rec.Code, string(body)
}

func TestMetricsCountAConversation(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	after := h.Last()
	h.Say("alice", "@eos craete grafana")
	h.WaitText(after, "did you mean")
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("carol", p.ID, "eyes") // no vote: ignored
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()

	code, body := get(t, h, "/metrics")
	if code != 200 {
		t.Fatalf("/metrics = %d", code)
	}
	for _, want := range []string{
		`eos_messages_total{platform="console"} 2`,
		`eos_parse_errors_total 1`,
		`eos_plans_total{env="local",verb="create"} 1`,
		`eos_reactions_total{outcome="approval"} 1`,
		`eos_runs_total{outcome="done"} 1`,
		`eos_layer_apply_seconds_count{layer="terraform",status="ok"} 1`,
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("/metrics lacks %q", want)
		}
	}

	code, body = get(t, h, "/healthz")
	var health bot.Health
	if err := json.Unmarshal([]byte(body), &health); err != nil || code != 200 || !health.OK || health.Adapters["console"] != "running" || health.Store != "writable" {
		t.Fatalf("/healthz = %d %s", code, body)
	}
}

// linked is an adapter holding a connection whose state the test sets. Its Run waits until
// ctx ends or the test is over.
type linked struct {
	started, off chan struct{}

	mu   sync.Mutex
	down error
}

func (*linked) Name() string { return "chat" }

func (l *linked) Run(ctx context.Context, _ adapters.Handler) error {
	close(l.started)
	select {
	case <-ctx.Done():
	case <-l.off:
	}
	return nil
}

func (*linked) Post(context.Context, string, adapters.Doc) (adapters.PostRef, error) {
	return adapters.PostRef{}, errors.New("linked: nobody reads this platform")
}

func (l *linked) Connected() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.down
}

func (l *linked) set(down error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.down = down
}

var _ adapters.Connection = (*linked)(nil)

func TestHealthReportsTheConnection(t *testing.T) {
	t.Parallel()
	chat := &linked{started: make(chan struct{}), off: make(chan struct{})}
	h := eostest.New(t, eostest.Options{Adapters: []adapters.Adapter{chat}})
	t.Cleanup(func() { close(chat.off) }) // before the harness stops: the engine waits for it
	<-chat.started

	for _, tt := range []struct {
		name  string
		down  error
		code  int
		state string
	}{
		{"connecting", errors.New("connecting"), 503, "disconnected: connecting"},
		{"connected", nil, 200, "connected"},
		{"dropped", errors.New("reconnecting: websocket closed: EOF"), 503, "disconnected: reconnecting: websocket closed: EOF"},
		{"back", nil, 200, "connected"},
	} {
		chat.set(tt.down)
		code, body := get(t, h, "/healthz")
		var health bot.Health
		if err := json.Unmarshal([]byte(body), &health); err != nil {
			t.Fatalf("%s: /healthz = %d %s: %v", tt.name, code, body, err)
		}
		want := map[string]string{"console": "running", "chat": tt.state}
		if code != tt.code || health.OK != (tt.code == 200) || len(health.Adapters) != len(want) ||
			health.Adapters["console"] != want["console"] || health.Adapters["chat"] != want["chat"] {
			t.Errorf("%s: /healthz = %d %s; want %d with adapters %v", tt.name, code, body, tt.code, want)
		}
	}
}

// Every log line of a conversation, the engine's and the layers', carries its correlation id.
func TestLogsCarryTheConversationID(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create jenkins")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	var terraformLines, withConv int
	for _, line := range strings.Split(h.Log.String(), "\n") {
		if strings.Contains(line, "terraform command done") {
			terraformLines++
			if strings.Contains(line, "conv=console:1") {
				withConv++
			}
		}
	}
	if terraformLines == 0 || withConv != terraformLines {
		t.Fatalf("%d of %d terraform log lines carry conv=console:1:\n%s", withConv, terraformLines, h.Log.String())
	}
}
