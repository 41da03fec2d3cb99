package discord

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

// The adapter's tests run against discordfake, the Discord stand-in the conformance suite uses
// too.
const (
	fakeToken   = discordfake.Token
	botID       = discordfake.BotID
	guildID     = discordfake.GuildID
	textChannel = discordfake.TextChannel
	dmChannel   = discordfake.DMChannel
)

func newFakeDiscord(t *testing.T) *discordfake.Fake { return discordfake.New(t, intents) }

// decodeMessage turns a message object as Discord sends it into discordgo's type.
func decodeMessage(t *testing.T, m map[string]any) *discordgo.Message {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out discordgo.Message
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}
