package e2e_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
)

// mmBot is Eos serving one channel of a real Mattermost: the harness's real engine, real
// Terraform and real store, with the real Mattermost adapter beside the console.
type mmBot struct {
	*eostest.Harness
	// Adapter is the Mattermost adapter the engine serves, for a test that delivers an event
	// itself (one the server sent before, delivered again).
	Adapter     adapters.Adapter
	stopAdapter context.CancelFunc
	// AdapterLog is everything the Mattermost adapter logged, at debug level.
	AdapterLog *lockedBuffer
}

// startMMBot starts Eos on channel ch of s. opts.Adapters is set here; give opts.DataDir to
// start a bot on the store of one stopped before. edits change the adapter's configuration.
func startMMBot(t *testing.T, s *mmtest.Server, ch *model.Channel, opts eostest.Options, edits ...func(*mattermost.Config)) *mmBot {
	t.Helper()
	adapterLog := &lockedBuffer{}
	cfg := mattermost.Config{
		URL: s.URL, Token: s.BotToken, Channels: []string{ch.Id},
		MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second,
		Logger: slog.New(slog.NewTextHandler(adapterLog, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	for _, edit := range edits {
		edit(&cfg)
	}
	a, err := mattermost.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	off, stop := context.WithCancel(context.Background())
	started := make(chan struct{})
	served := stoppable{Adapter: a, off: off, started: started}
	opts.Adapters = []adapters.Adapter{served}
	var h *eostest.Harness
	// Registered before the harness's own Stop, so it runs after it: the logs are complete.
	t.Cleanup(func() {
		if t.Failed() && h != nil {
			t.Logf("engine log:\n%s\nadapter log:\n%s", h.Log.String(), adapterLog.String())
		}
	})
	h = eostest.New(t, opts)
	b := &mmBot{Harness: h, Adapter: served, stopAdapter: stop, AdapterLog: adapterLog}
	t.Cleanup(b.Stop)
	// The engine starts its adapters after Ready. From the moment Run starts, the adapter
	// delivers every post, even one written before its websocket is up.
	select {
	case <-started:
	case <-time.After(mmtest.Timeout):
		t.Fatalf("the engine did not start the Mattermost adapter within %s", mmtest.Timeout)
	}
	return b
}

// Stop stops the adapter, then the harness. The harness's Stop ends only the console, and the
// engine serves until every adapter has stopped.
func (b *mmBot) Stop() {
	b.stopAdapter()
	b.Harness.Stop()
}

// stoppable is the Mattermost adapter with an off switch of its own: Run returns when off
// ends. Embedding the pointer keeps every optional interface (Threader, Editor, Reactor,
// ReactionReader) the engine looks for.
type stoppable struct {
	*mattermost.Adapter
	off     context.Context
	started chan<- struct{} // closed when Run starts
}

func (s stoppable) Run(ctx context.Context, h adapters.Handler) error {
	close(s.started)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.off, cancel)()
	return s.Adapter.Run(ctx, h)
}

// ask posts text as p at channel level and waits for the bot's plan preview in its thread. It
// returns the request, the preview and the plan's id.
func ask(t *testing.T, s *mmtest.Server, ch *model.Channel, p *mmtest.Person, text string) (req, preview *model.Post, id string) {
	t.Helper()
	req = p.Say(t, ch.Id, "", text)
	preview = botSays(t, s, req.Id, "Plan ", "React ✅ to approve")
	m := eostest.PlanIDRe.FindStringSubmatch(preview.Message)
	if m == nil {
		t.Fatalf("the preview names no plan:\n%s", preview.Message)
	}
	return req, preview, m[1]
}

// botSays waits for a post of the bot in root's thread that contains every one of texts.
func botSays(t *testing.T, s *mmtest.Server, root string, texts ...string) *model.Post {
	t.Helper()
	return s.WaitPost(t, root, func(p *model.Post) bool {
		if p.UserId != s.Bot.Id {
			return false
		}
		for _, x := range texts {
			if !strings.Contains(p.Message, x) {
				return false
			}
		}
		return true
	})
}

// waitPreviewRecorded waits until the bot has recorded plan id's preview post: stopping it
// earlier cancels the reply in flight and the plan never learns its preview.
func waitPreviewRecorded(t *testing.T, b *mmBot, id string, preview *model.Post) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mmtest.Timeout)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		p, err := b.Store.Plan(ctx, id)
		if err == nil && p.Preview.ID == preview.Id {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("plan %s never recorded its preview %s: %+v, %v", id, preview.Id, p, err)
		case <-tick.C:
		}
	}
}

// botPosts counts the bot's posts in root's thread that contain text.
func botPosts(t *testing.T, s *mmtest.Server, root, text string) int {
	t.Helper()
	posts, err := s.Thread(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range posts {
		if p.UserId == s.Bot.Id && strings.Contains(p.Message, text) {
			n++
		}
	}
	return n
}

// lockedBuffer is a log destination safe for concurrent writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

var _ io.Writer = (*lockedBuffer)(nil)

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
