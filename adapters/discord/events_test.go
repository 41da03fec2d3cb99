package discord

// What the gateway delivers: messages addressed to the bot, in the channels it serves, and
// reactions under their canonical names.

import (
	"context"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

func TestMessagesAddressedToTheBot(t *testing.T) {
	f := newFakeDiscord(t)
	_, rec := running(t, f)
	tests := []struct {
		name    string
		channel string
		author  string
		content string
		want    string // delivered Text; "" means ignored
		direct  bool
	}{
		{"mention at the start", textChannel, "501", "<@" + botID + "> create nextcloud --sso", "@eos create nextcloud --sso", false},
		{"nickname mention", textChannel, "502", "  <@!" + botID + ">   status nextcloud", "@eos status nextcloud", false},
		{"unaddressed", textChannel, "501", "lunch?", "", false},
		{"mention later in the text", textChannel, "501", "thanks <@" + botID + ">", "", false},
		{"own message", textChannel, botID, "<@" + botID + "> create x", "", false},
		{"another bot", textChannel, "503", "<@" + botID + "> create x", "", false},
		{"direct message", dmChannel, "501", "help create", "help create", true},
		{"direct message with a mention", dmChannel, "502", "<@" + botID + "> help", "@eos help", true},
	}
	// Events are delivered in order, so an ignored message is proven ignored when the next
	// addressed one arrives first. The sentinel ends the list.
	sentinel := f.AddMessage(textChannel, "502", "<@"+botID+"> sentinel")
	for _, tt := range tests {
		m := f.AddMessage(tt.channel, tt.author, tt.content)
		f.MessageCreate(m)
		if tt.want == "" {
			continue
		}
		got := rec.nextMessage(t)
		wantAuthor := f.Users[tt.author].Name
		if got.Text != tt.want || got.Direct != tt.direct || got.Author.Name != wantAuthor || got.Author.ID != tt.author ||
			got.Post != (adapters.PostRef{Platform: "discord", Channel: tt.channel, ID: m.ID}) || got.At.IsZero() {
			t.Errorf("%s: delivered %+v, want text %q direct %v author %s on %s/%s", tt.name, got, tt.want, tt.direct, wantAuthor, tt.channel, m.ID)
		}
	}
	f.MessageCreate(sentinel)
	if got := rec.nextMessage(t); got.Text != "@eos sentinel" {
		t.Errorf("delivered %q where the sentinel was expected: an ignored message got through", got.Text)
	}
}

func TestMessageInAThreadAnswersThere(t *testing.T) {
	f := newFakeDiscord(t)
	f.Channels["250"] = &discordfake.Channel{ID: "250", Guild: guildID, Parent: textChannel, Type: 11}
	_, rec := running(t, f)
	m := f.AddMessage("250", "501", "<@"+botID+"> status")
	f.MessageCreate(m)
	got := rec.nextMessage(t)
	if got.Post.Thread != "250" || got.Post.Channel != "250" {
		t.Errorf("message in a thread delivered as %+v, want Channel and Thread 250", got.Post)
	}
}

func TestServedChannelsOnly(t *testing.T) {
	f := newFakeDiscord(t)
	f.Channels["201"] = &discordfake.Channel{ID: "201", Guild: guildID, Type: 0}
	f.Channels["250"] = &discordfake.Channel{ID: "250", Guild: guildID, Parent: textChannel, Type: 11}
	a, rec := newTestAdapter(t, f, textChannel), newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := a.identity(ctx); err != nil {
		t.Fatal(err)
	}
	self := a.self
	for _, tc := range []struct {
		channel string
		served  bool
	}{{"201", false}, {dmChannel, false}, {"250", true}, {textChannel, true}} {
		m := f.AddMessage(tc.channel, "501", "<@"+botID+"> status")
		f.Mu.Lock()
		msg := f.MessageJSON(m)
		f.Mu.Unlock()
		dm := decodeMessage(t, msg)
		if err := a.onMessage(ctx, rec, self, dm); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-rec.msgs:
			if !tc.served {
				t.Errorf("message in channel %s delivered, but only %s is served", tc.channel, textChannel)
			} else if got.Post.Channel != tc.channel {
				t.Errorf("delivered %+v, want channel %s", got.Post, tc.channel)
			}
		default:
			if tc.served {
				t.Errorf("message in served channel %s not delivered", tc.channel)
			}
		}
	}
}

func TestReactionsArriveCanonicalised(t *testing.T) {
	f := newFakeDiscord(t)
	_, rec := running(t, f)
	preview := f.AddMessage(textChannel, botID, "Plan")
	dm := f.AddMessage(dmChannel, botID, "Plan")
	f.Reaction(preview, botID, "👀", false) // the bot's own: ignored
	tests := []struct {
		msg     *discordfake.Message
		user    string
		emoji   string
		removed bool
		want    string
	}{
		{preview, "502", "👍", false, "+1"},
		{preview, "502", "✅", false, "white_check_mark"},
		{preview, "501", "❌", false, "x"},
		{preview, "501", "👎", false, "-1"},
		{preview, "502", "✅", true, "white_check_mark"},
		{dm, "501", "✅", false, "white_check_mark"}, // no member in a DM: the name is looked up
	}
	for _, tt := range tests {
		f.Reaction(tt.msg, tt.user, tt.emoji, tt.removed)
		got := rec.nextReaction(t)
		want := adapters.Reaction{
			Post:  adapters.PostRef{Platform: "discord", Channel: tt.msg.Channel, ID: tt.msg.ID},
			User:  adapters.User{ID: tt.user, Name: f.Users[tt.user].Name},
			Emoji: tt.want, Removed: tt.removed, At: got.At,
		}
		if got != want || got.At.IsZero() {
			t.Errorf("%s by %s (removed %v) delivered as %+v, want %+v", tt.emoji, tt.user, tt.removed, got, want)
		}
	}
}
