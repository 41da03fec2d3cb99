package e2e_test

// Slack for the conformance suite (conformance_test.go): the adapter against slackfake.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack"
	"github.com/eosbot/eos/adapters/slack/slackfake"
	"github.com/eosbot/eos/bot/eostest"
)

// slackPlatform is the Slack adapter against slackfake, in #infra.
type slackPlatform struct {
	f  *slackfake.Fake
	mu sync.Mutex
	ts int
}

var slackUsers = map[string]string{"alice": "UAL", "bob": "UBO", "carol": "UCA"}

func (s *slackPlatform) start(t *testing.T, opts eostest.Options) *eostest.Harness {
	s.f = slackfake.New(t)
	a, err := slack.New(slack.Config{AppToken: slackfake.AppToken, BotToken: slackfake.BotToken, APIURL: s.f.APIURL(),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, opts, func(off context.Context) adapters.Adapter { return slackOff{a, off} })
	s.waitLive(t)
	return h
}

// waitLive waits until the adapter has a Socket Mode connection: Slack delivers events, and
// retries the ones it could not, only to a connected app.
func (s *slackPlatform) waitLive(t *testing.T) {
	t.Helper()
	for !s.f.Live() {
		select {
		case <-s.f.Connected:
		case <-time.After(eostest.Timeout):
			t.Fatal("the Slack adapter did not connect")
		}
	}
}

func (s *slackPlatform) nextTS() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ts++
	return fmt.Sprintf("1700000500.%06d", s.ts)
}

func (s *slackPlatform) say(t *testing.T, user, thread, text string) string {
	t.Helper()
	ts := s.nextTS()
	ev := map[string]any{"type": "app_mention", "user": slackUsers[user], "ts": ts, "event_ts": ts, "channel": "CINFRA001",
		"text": strings.Replace(text, "@eos", "<@"+slackfake.BotID+">", 1)}
	root := ts
	if thread != "" {
		ev["thread_ts"], root = thread, thread
	}
	s.waitLive(t)
	s.f.Send(ev)
	return root
}

func (s *slackPlatform) react(t *testing.T, user, post, emoji string) {
	t.Helper()
	s.waitLive(t)
	s.f.Send(map[string]any{"type": "reaction_added", "user": slackUsers[user], "reaction": emoji, "item_user": slackfake.BotID,
		"item": map[string]any{"type": "message", "channel": "CINFRA001", "ts": post}, "event_ts": s.nextTS()})
}

func (s *slackPlatform) thread(t *testing.T, root string) []post {
	var out []post
	for _, p := range s.posts(t) {
		if p.Root == root {
			out = append(out, p)
		}
	}
	return out
}

func (s *slackPlatform) posts(*testing.T) []post {
	posts, updates, _ := s.f.Recorded()
	var out []post
	for _, c := range posts {
		p := post{ID: c.TS, Text: c.Content(), Root: c.ThreadTS, raw: c}
		for _, u := range updates {
			if u.Channel == c.Channel && u.TS == c.TS {
				p.Text, p.Edited, p.raw = u.Content(), true, u
			}
		}
		out = append(out, p)
	}
	return out
}

func (s *slackPlatform) gone(_ *testing.T, ts string) bool {
	return slices.ContainsFunc(s.f.Deleted(), func(d slackfake.Deletion) bool { return d.Channel == "CINFRA001" && d.TS == ts })
}

// Without Config.AdminUserToken, Slack lets the bot delete only its own posts.
func (*slackPlatform) deletes() bool { return false }

func (*slackPlatform) limit() int { return slackfake.MaxSectionText }

func (*slackPlatform) withinLimit(p post) error { return p.raw.(slackfake.Call).WithinLimits() }

// dropConnection drops the socket and holds the next one until whileDown is done.
func (s *slackPlatform) dropConnection(_ *testing.T, whileDown func()) bool {
	s.f.Hold()
	defer s.f.Release()
	s.f.Drop()
	if whileDown != nil {
		whileDown()
	}
	return true
}

// slackOff is the Slack adapter with an off switch (startWith). Embedding the pointer keeps
// every optional interface the engine looks for.
type slackOff struct {
	*slack.Adapter
	off context.Context
}

func (s slackOff) Run(ctx context.Context, h adapters.Handler) error {
	return offSwitch(ctx, s.off, func(ctx context.Context) error { return s.Adapter.Run(ctx, h) })
}
