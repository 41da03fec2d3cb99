package bot_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/adapters/discord"
	"github.com/eosbot/eos/adapters/discord/discordfake"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/adapters/slack"
	"github.com/eosbot/eos/adapters/slack/slackfake"
	"github.com/eosbot/eos/bot/eostest"
)

// The platforms of the conformance suite (conformance_test.go).

// ---- console ----

// consolePlatform is the harness's own console: no threads for people, no limits, no
// connection.
type consolePlatform struct{ h *eostest.Harness }

func (c *consolePlatform) start(t *testing.T, opts eostest.Options) *eostest.Harness {
	c.h = eostest.New(t, opts)
	return c.h
}

func (c *consolePlatform) say(t *testing.T, user, _ string, text string) string {
	t.Helper()
	after := c.h.Last()
	c.h.Say(user, text)
	ctx, cancel := context.WithTimeout(context.Background(), eostest.Timeout)
	defer cancel()
	var id int
	_, err := c.h.Console.WaitFor(ctx, func(posts []console.Post) bool {
		for _, p := range posts[after:] {
			// The bot may have removed it already (a typed secret).
			if p.Author == user && (p.Text == text || p.Removed) {
				id = p.ID
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("the console never showed %q: %v", text, err)
	}
	return strconv.Itoa(id)
}

func (c *consolePlatform) react(t *testing.T, user, post, emoji string) {
	t.Helper()
	id, err := strconv.Atoi(post)
	if err != nil {
		t.Fatal(err)
	}
	c.h.React(user, id, unicodeEmoji[emoji])
}

func (c *consolePlatform) thread(_ *testing.T, root string) []post {
	var out []post
	for _, p := range c.h.Console.Posts() {
		if p.Author == "eos" && strconv.Itoa(p.Thread) == root {
			out = append(out, post{ID: strconv.Itoa(p.ID), Text: p.Text + "\n" + p.Attachment, Edited: p.Edits > 0})
		}
	}
	return out
}

func (c *consolePlatform) posts(*testing.T) []post {
	var out []post
	for _, p := range c.h.Console.Posts() {
		if p.Author == "eos" {
			q := post{ID: strconv.Itoa(p.ID), Text: p.Text + "\n" + p.Attachment, Edited: p.Edits > 0}
			if p.Thread != 0 {
				q.Root = strconv.Itoa(p.Thread)
			}
			out = append(out, q)
		}
	}
	return out
}

func (c *consolePlatform) gone(t *testing.T, id string) bool {
	t.Helper()
	for _, p := range c.h.Console.Posts() {
		if strconv.Itoa(p.ID) == id {
			return p.Removed
		}
	}
	t.Fatalf("the console has no post %s", id)
	return false
}

func (*consolePlatform) limit() int                             { return 0 }
func (*consolePlatform) withinLimit(post) error                 { return nil }
func (*consolePlatform) dropConnection(*testing.T, func()) bool { return false }
func (*consolePlatform) deletes() bool                          { return true }

// unicodeEmoji is how people type an emoji where the platform sends Unicode.
var unicodeEmoji = map[string]string{"+1": "👍", "x": "❌"}

// ---- Mattermost ----

// mmMaxRunes is Mattermost's limit on a post's message (model.PostMessageMaxRunesV2).
const mmMaxRunes = model.PostMessageMaxRunesV2

// mattermostPlatform is a channel of its own on the real server.
type mattermostPlatform struct {
	s  *mmtest.Server
	ch *model.Channel
}

func (m *mattermostPlatform) start(t *testing.T, opts eostest.Options) *eostest.Harness {
	m.s = mmtest.Real(t)
	m.ch = m.s.Channel(t, "conformance")
	return startMMBot(t, m.s, m.ch, opts).Harness
}

func (m *mattermostPlatform) person(t *testing.T, name string) *mmtest.Person {
	t.Helper()
	p := map[string]*mmtest.Person{"alice": m.s.Alice, "bob": m.s.Bob, "carol": m.s.Carol}[name]
	if p == nil {
		t.Fatalf("mmtest has no %s", name)
	}
	return p
}

func (m *mattermostPlatform) say(t *testing.T, user, thread, text string) string {
	t.Helper()
	p := m.person(t, user).Say(t, m.ch.Id, thread, text)
	if thread != "" {
		return thread
	}
	return p.Id
}

func (m *mattermostPlatform) react(t *testing.T, user, post, emoji string) {
	t.Helper()
	m.person(t, user).React(t, post, emoji)
}

func (m *mattermostPlatform) thread(t *testing.T, root string) []post {
	t.Helper()
	posts, err := m.s.Thread(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return m.botPosts(t, posts)
}

// botPosts are the bot's posts among posts, as people read them.
func (m *mattermostPlatform) botPosts(t *testing.T, posts []*model.Post) []post {
	t.Helper()
	var out []post
	for _, p := range posts {
		if p.UserId != m.s.Bot.Id {
			continue
		}
		// A plan too long for one post comes as an attached file: read it like a person would.
		text := p.Message
		for _, id := range p.FileIds {
			data, _, err := m.s.Admin.GetFile(context.Background(), id)
			if err != nil {
				t.Fatalf("reading file %s of post %s: %v", id, p.Id, err)
			}
			text += "\n" + string(data)
		}
		out = append(out, post{ID: p.Id, Text: text, Edited: p.EditAt != 0, Root: p.RootId, raw: p.Message})
	}
	return out
}

func (m *mattermostPlatform) posts(t *testing.T) []post {
	t.Helper()
	list, _, err := m.s.Admin.GetPostsForChannel(context.Background(), m.ch.Id, 0, 200, "", false, false)
	if err != nil {
		t.Fatalf("reading channel %s: %v", m.ch.Name, err)
	}
	posts := make([]*model.Post, 0, len(list.Order))
	for _, id := range slices.Backward(list.Order) { // Order is newest first
		posts = append(posts, list.Posts[id])
	}
	return m.botPosts(t, posts)
}

func (m *mattermostPlatform) gone(t *testing.T, id string) bool {
	t.Helper()
	p, resp, err := m.s.Admin.GetPost(context.Background(), id, "")
	switch {
	case resp != nil && resp.StatusCode == http.StatusNotFound:
		return true
	case err != nil:
		t.Fatalf("reading post %s: %v", id, err)
	}
	return p.DeleteAt != 0
}

// The bot is a team admin (mmtest): it may delete people's posts.
func (*mattermostPlatform) deletes() bool { return true }

func (*mattermostPlatform) limit() int { return mmMaxRunes }

func (*mattermostPlatform) withinLimit(p post) error {
	msg, _ := p.raw.(string)
	if n := utf8.RuneCountInString(msg); n > mmMaxRunes {
		return fmt.Errorf("%d characters, more than %d", n, mmMaxRunes)
	}
	return nil
}

// dropConnection stops the server, so the adapter can but wait, and starts it again.
func (m *mattermostPlatform) dropConnection(t *testing.T, whileDown func()) bool {
	m.s.Outage(t, whileDown)
	return true
}

// ---- Slack ----

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

// ---- Discord ----

// discordIntents are the gateway intents Eos needs: messages and their content in guilds and
// direct messages, and reactions on both.
const discordIntents = discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages |
	discordgo.IntentsMessageContent | discordgo.IntentsGuildMessageReactions | discordgo.IntentsDirectMessageReactions

// discordPlatform is the Discord adapter against discordfake, in a guild text channel.
type discordPlatform struct{ f *discordfake.Fake }

var discordUsers = map[string]string{"alice": "501", "bob": "502", "carol": "504"}

func (d *discordPlatform) start(t *testing.T, opts eostest.Options) *eostest.Harness {
	d.f = discordfake.New(t, discordIntents)
	a, err := discord.New(discord.Config{Token: discordfake.Token, APIBase: d.f.APIBase(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, opts, func(off context.Context) adapters.Adapter { return discordOff{a, off} })
	if got := d.f.WaitHandshake(); got != "identify" {
		t.Fatalf("the Discord adapter's first handshake is %q, want identify", got)
	}
	return h
}

func (d *discordPlatform) say(t *testing.T, user, thread, text string) string {
	channel := discordfake.TextChannel
	if thread != "" {
		channel = thread
	}
	m := d.f.AddMessage(channel, discordUsers[user], strings.Replace(text, "@eos", "<@"+discordfake.BotID+">", 1))
	d.f.MessageCreate(m)
	if thread != "" {
		return thread
	}
	// The adapter starts a thread from the request; a thread started from a message has the
	// message's id.
	return m.ID
}

func (d *discordPlatform) react(t *testing.T, user, id, emoji string) {
	t.Helper()
	d.f.Mu.Lock()
	m := d.f.Messages[id]
	d.f.Mu.Unlock()
	if m == nil {
		t.Fatalf("discord has no message %s", id)
	}
	d.f.Reaction(m, discordUsers[user], unicodeEmoji[emoji], false)
}

func (d *discordPlatform) thread(t *testing.T, root string) []post {
	var out []post
	for _, p := range d.posts(t) {
		if p.Root == root {
			out = append(out, p)
		}
	}
	return out
}

// posts: a thread started from a message has the message's id; a reply where there are no
// threads references the message it answers.
func (d *discordPlatform) posts(*testing.T) []post {
	var out []post
	for _, m := range d.f.BotMessages() {
		text := m.Content
		for _, f := range m.Files {
			text += "\n" + f
		}
		root := m.Channel
		if m.Channel == discordfake.TextChannel || m.Channel == discordfake.DMChannel {
			root = m.Reference
		}
		out = append(out, post{ID: m.ID, Text: text, Edited: m.Edits > 0, Root: root, raw: m})
	}
	return out
}

func (d *discordPlatform) gone(_ *testing.T, id string) bool {
	return slices.Contains(d.f.Deleted(), id)
}

// The fake grants the bot no Manage Messages: it may delete only its own messages.
func (*discordPlatform) deletes() bool { return false }

func (*discordPlatform) limit() int { return discordfake.MaxContent }

func (*discordPlatform) withinLimit(p post) error {
	if n := len(utf16.Encode([]rune(p.raw.(discordfake.Message).Content))); n > discordfake.MaxContent {
		return fmt.Errorf("%d characters, more than %d", n, discordfake.MaxContent)
	}
	return nil
}

// dropConnection drops the gateway and holds the next connection until whileDown is done.
func (d *discordPlatform) dropConnection(_ *testing.T, whileDown func()) bool {
	d.f.Hold()
	defer d.f.Release()
	d.f.Drop()
	if whileDown != nil {
		whileDown()
	}
	return true
}

// ---- stopping ----

// startWith starts the harness with the adapter wrap returns beside the console; the adapter's
// Run ends when off does, before the harness stops (its Stop only ends the console).
func startWith(t *testing.T, opts eostest.Options, wrap func(off context.Context) adapters.Adapter) *eostest.Harness {
	t.Helper()
	off, stop := context.WithCancel(context.Background())
	opts.Adapters = []adapters.Adapter{wrap(off)}
	h := eostest.New(t, opts)
	t.Cleanup(func() {
		stop()
		h.Stop()
	})
	return h
}

// slackOff and discordOff are the adapters with an off switch. Embedding the pointer keeps
// every optional interface the engine looks for.
type slackOff struct {
	*slack.Adapter
	off context.Context
}

func (s slackOff) Run(ctx context.Context, h adapters.Handler) error {
	return offSwitch(ctx, s.off, func(ctx context.Context) error { return s.Adapter.Run(ctx, h) })
}

type discordOff struct {
	*discord.Adapter
	off context.Context
}

func (d discordOff) Run(ctx context.Context, h adapters.Handler) error {
	return offSwitch(ctx, d.off, func(ctx context.Context) error { return d.Adapter.Run(ctx, h) })
}

// offSwitch runs run with a context that also ends when off does.
func offSwitch(ctx, off context.Context, run func(ctx context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(off, cancel)()
	return run(ctx)
}
