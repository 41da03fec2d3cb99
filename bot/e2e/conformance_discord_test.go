package e2e_test

// Discord for the conformance suite (conformance_test.go): the adapter against discordfake.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/bwmarrin/discordgo"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord"
	"github.com/eosbot/eos/adapters/discord/discordfake"
	"github.com/eosbot/eos/bot/eostest"
)

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

// discordOff is the Discord adapter with an off switch (startWith). Embedding the pointer keeps
// every optional interface the engine looks for.
type discordOff struct {
	*discord.Adapter
	off context.Context
}

func (d discordOff) Run(ctx context.Context, h adapters.Handler) error {
	return offSwitch(ctx, d.off, func(ctx context.Context) error { return d.Adapter.Run(ctx, h) })
}
